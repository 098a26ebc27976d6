import Foundation
import GRDB
import OpenEventKit
import TestSupport
import Testing

/// Writers stopped dead at a moment the test names, not at a random delay that may land
/// before or after the write: `OPENEVENTKIT_CRASH_AFTER=KIND:N` (OpenEventKit's
/// `CrashPoint`, debug builds only) sends the writer SIGKILL right after its Nth commit, or
/// its Nth item row written inside a transaction. Each test asserts the store as that moment
/// must leave it: exactly the transactions committed before, whole, and nothing of the one
/// under way; SQLite's checks pass and the next program opens it.
@Suite struct CrashPointTests {
  /// Runs `executable` with the crash point `point`; records an issue unless it was killed
  /// there (a build without the hook, or a point never reached, ends on its own).
  static func stopped(
    at point: String, _ executable: String, _ arguments: [String], home: TemporaryHome
  ) throws {
    let finished = try Started(
      executable, arguments, home: home, environment: [CrashPoint.variable: point]
    ).finish()
    #expect(finished.status == SIGKILL, "\(CrashPoint.variable)=\(point): \(finished)")
  }

  /// Six batched commits of 1,000 events (the store helper's `rounds`), stopped right after
  /// the Nth commit: exactly N rounds are in the store, whole, and the log the writer kept
  /// says it was stopped before writing "committed" for the Nth.
  @Test(arguments: [1, 4])
  func aBatchedWriterStoppedRightAfterItsNthCommit(commits: Int) throws {
    let home = try CrashTests.home()
    _ = try home.ekctl(["calendars"])
    let log = home.url.appendingPathComponent("rounds.log").path
    let start = Date()
    try Self.stopped(
      at: "commit:\(commits)", "oek-store-helper", ["rounds", home.url.path, log, "6", "1000"],
      home: home)
    print("commit:\(commits): stopped after \(Date().timeIntervalSince(start)) s")
    let context = "stopped after commit \(commits)"
    try CrashTests.checkIntegrity(home, after: context)
    let found = try CrashTests.rounds(in: home, log: log, context: context)
    #expect(found.staged == commits && found.committed == commits - 1, "\(context): \(found)")
    #expect(try Self.events(titled: "Round %", in: home) == commits * 1_000, "\(context)")
  }

  /// The same writer stopped half way through writing its third round's rows: the two
  /// rounds before are there whole, nothing of the third.
  @Test func aBatchedWriterStoppedHalfWayThroughACommit() throws {
    let home = try CrashTests.home()
    _ = try home.ekctl(["calendars"])
    let log = home.url.appendingPathComponent("rounds.log").path
    try Self.stopped(
      at: "row:2500", "oek-store-helper", ["rounds", home.url.path, log, "6", "1000"], home: home)
    let context = "stopped at row 2500"
    try CrashTests.checkIntegrity(home, after: context)
    let found = try CrashTests.rounds(in: home, log: log, context: context)
    #expect(found.staged == 3 && found.committed == 2, "\(context): \(found)")
    #expect(try Self.events(titled: "Round %", in: home) == 2_000, "\(context)")
  }

  /// `ekctl import` of 20,000 events, one transaction: stopped after its first row, half
  /// way, or after its last row but before the commit, it leaves none; stopped right after
  /// the commit, all.
  @Test(arguments: ["row:1", "row:10000", "row:20000", "commit:1"])
  func anImportStopped(at point: String) throws {
    let events = 20_000
    let file = try TemporaryFolder(prefix: "CrashPointImport")
    let ics = file.url.appendingPathComponent("big.ics")
    try Data(CrashTests.manyEvents(events).utf8).write(to: ics)
    let home = try CrashTests.home()
    _ = try home.ekctl(["calendars"])
    try Self.stopped(
      at: point, "ekctl", ["import", ics.path, "--calendar", "Imported"], home: home)
    try CrashTests.checkIntegrity(home, after: point)
    let expected = point.hasPrefix("commit") ? events : 0
    #expect(try CrashTests.count(importedIn: home) == expected, "\(point)")
  }

  /// The events whose title is LIKE `pattern`.
  static func events(titled pattern: String, in home: TemporaryHome) throws -> Int {
    let queue = try DatabaseQueue(path: home.calendarDatabase.path)
    defer { try? queue.close() }
    return try queue.read { db in
      try Int.fetchOne(
        db, sql: "SELECT COUNT(*) FROM item WHERE title LIKE ?", arguments: [pattern])
        ?? 0
    }
  }
}
