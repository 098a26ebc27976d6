import Foundation
import TestSupport
import Testing

/// Every file the project makes for a person is 0600 in a 0700 folder, whatever the umask:
/// the stores with their WAL and SHM files, the samples' databases, a REPL's history and an
/// exported calendar.
@Suite struct FileModeTests {
  @Test func everyFileIsPrivateUnderAnOpenUmask() throws {
    let home = try TemporaryHome()
    let now = ["--now", "2026-03-01T10:00"]
    for app in ["loan-scheduler", "recipe-reminders", "wedding-planner", "poker-vote"] {
      try home.decide("full", app: "org.openeventkit.\(app)", entity: "events")
    }
    try home.decide("full", app: "org.openeventkit.recipe-reminders", entity: "reminders")
    let sessions: [(String, String)] = [
      ("loan-scheduler", "new Claire 100 0 3 daily 2026-03-02\nquit\n"),
      ("recipe-reminders", "shop crepes\nquit\n"),
      ("wedding-planner", "wedding 2026-09-12 Lyon\nquit\n"),
      ("poker-vote", "suggest friday 20:00\nquit\n"),
    ]
    for (app, input) in sessions {
      let session = try run(app, now, home: home, input: input, umask: 0o000)
      #expect(session.status == 0, "\(app): \(session)")
    }
    let exported = home.url.appendingPathComponent("export/all.ics")
    try FileManager.default.createDirectory(
      at: exported.deletingLastPathComponent(), withIntermediateDirectories: true)
    let export = try run("ekctl", ["export", "-o", exported.path], home: home, umask: 0o000)
    #expect(export.status == 0, "\(export)")
    // A command typed on a terminal goes into the REPL's history file.
    let outcome = try PseudoTerminal.run(
      BuildProducts.executable("loan-scheduler"), arguments: now, environment: home.environment,
      steps: [.after("loans> ", send: "loans\r"), .after("loans> ", send: "\u{04}")])
    #expect(outcome.ending == .exited(0), "\(outcome.shown)")

    var seen: [String: mode_t] = [:]
    let items = FileManager.default.enumerator(atPath: home.url.path)
    while let item = items?.nextObject() as? String {
      seen[item] = mode(home.url.appendingPathComponent(item).path)
    }
    for expected in [
      "Calendar.sqlite", "Privacy.sqlite", "loan-scheduler/loans.sqlite",
      "recipe-reminders/recipes.sqlite", "wedding-planner/wedding.sqlite",
      "state/OpenEventKit/loan-scheduler.history", "export/all.ics",
    ] {
      #expect(seen[expected] != nil, "\(expected) was not made: \(seen.keys.sorted())")
    }
    var isFolder: ObjCBool = false
    for (item, mode) in seen.sorted(by: { $0.key < $1.key }) where item != "export" {
      _ = FileManager.default.fileExists(
        atPath: home.url.appendingPathComponent(item).path, isDirectory: &isFolder)
      #expect(mode == (isFolder.boolValue ? 0o700 : 0o600), "\(item) is \(String(mode, radix: 8))")
    }
  }
}
