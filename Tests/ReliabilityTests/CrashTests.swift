import Foundation
import GRDB
import OpenEventKit
import TestSupport
import Testing

/// Writers killed with SIGKILL at random moments, as a crash, an out-of-memory kill or a
/// power button stops a program: after each kill the database passes SQLite's own checks
/// (`PRAGMA integrity_check`, `foreign_key_check`), the next program opens it and works, and
/// each transaction the writer began is in the store whole or not at all.
///
/// Each test first runs its writer to the end once, to learn how long it takes (T), then
/// kills it after a random delay between 0.2 T and 1.2 T, run after run: most kills land
/// while it writes, a few after it ended. Each delay is drawn from a seed the test prints
/// (``TestSeed``; `OPENEVENTKIT_TEST_SEED` replays it). What each run came to is printed, for
/// docs/Reliability.md. CrashPointTests stops the same writers at named moments instead.
@Suite struct CrashTests {
  static func home() throws -> TemporaryHome {
    let home = try TemporaryHome()
    for entity in ["events", "reminders"] {
      try home.decide("full", app: "org.openeventkit.store-helper", entity: entity)
    }
    return home
  }

  /// `ekctl import` of a 20,000-event file: one transaction, so the file's events are all
  /// there or none.
  @Test func importKilledAtRandom() throws {
    var random = TestSeed("importKilledAtRandom")
    let events = 20_000
    let file = try TemporaryFolder(prefix: "CrashImport")
    let ics = file.url.appendingPathComponent("big.ics")
    try Data(Self.manyEvents(events).utf8).write(to: ics)
    let command = ["import", ics.path, "--calendar", "Imported"]

    let reference = try Self.home()
    let took = try Self.timed { try run("ekctl", command, home: reference) }
    #expect(took.finished.status == 0, "\(took.finished)")
    #expect(try Self.count(importedIn: reference) == events)

    var outcomes: [Int: Int] = [:]
    var killed = 0
    for _ in 0..<Scale.rounds(short: 4, full: 70) {
      let home = try Self.home()
      _ = try home.ekctl(["calendars"])  // the store exists; the kill hits the import
      let delay = Self.delay(took.seconds, using: &random)
      let writer = try Started("ekctl", command, home: home)
      if writer.kill(after: delay) { killed += 1 }
      _ = writer.finish()
      try Self.checkIntegrity(home, after: "import killed after \(delay) s")
      let found = try Self.count(importedIn: home)
      #expect(found == 0 || found == events, "import killed after \(delay) s left \(found)")
      outcomes[found, default: 0] += 1
    }
    print(
      "crash: import of \(events) in \(took.seconds) s: \(killed) runs killed; "
        + "\(outcomes[0] ?? 0) left none, \(outcomes[events] ?? 0) all")
  }

  /// A batched `commit()` of 1,000 events, round after round: each round the writer logged
  /// as staged is there whole or not at all, each it logged as committed is there whole, and
  /// nothing else is.
  @Test func batchedCommitKilledAtRandom() throws {
    var random = TestSeed("batchedCommitKilledAtRandom")
    let rounds = 6
    let size = 1_000
    let reference = try Self.home()
    let referenceLog = reference.url.appendingPathComponent("rounds.log").path
    let took = try Self.timed {
      try run(
        "oek-store-helper", ["rounds", reference.url.path, referenceLog, "\(rounds)", "\(size)"],
        home: reference)
    }
    #expect(took.finished.status == 0, "\(took.finished)")
    #expect(try Self.rounds(in: reference, log: referenceLog).committed == rounds)

    var killedMidway = 0
    var killed = 0
    for _ in 0..<Scale.rounds(short: 8, full: 70) {
      let home = try Self.home()
      _ = try home.ekctl(["calendars"])
      let log = home.url.appendingPathComponent("rounds.log").path
      let delay = Self.delay(took.seconds, using: &random)
      let writer = try Started(
        "oek-store-helper", ["rounds", home.url.path, log, "\(rounds)", "\(size)"], home: home)
      if writer.kill(after: delay) { killed += 1 }
      _ = writer.finish()
      let context = "writer killed after \(delay) s"
      try Self.checkIntegrity(home, after: context)
      let found = try Self.rounds(in: home, log: log, context: context)
      if found.staged > found.committed { killedMidway += 1 }
    }
    print(
      "crash: \(rounds) batched commits of \(size) in \(took.seconds) s: \(killed) runs killed, "
        + "\(killedMidway) of them between a round's staging and the end of its commit")
  }

  /// `ekctl rm --span future` from the middle of a daily series with hundreds of detached
  /// occurrences: afterwards the calendar shows the series as it was, or as cut, never in
  /// between.
  @Test func spanRemovalKilledAtRandom() throws {
    var random = TestSeed("spanRemovalKilledAtRandom")
    let template = try Self.home()
    let ics = template.url.appendingPathComponent("series.ics")
    let detached = Array(stride(from: 1, to: 3_000, by: 3))
    try Data(DailySeries.ics(days: 3_000, detached: detached).utf8).write(to: ics)
    let imported = try run("ekctl", ["import", ics.path, "--calendar", "Daily"], home: template)
    #expect(imported.status == 0, "\(imported)")
    // One file to copy for each run: the WAL folded into it.
    let queue = try DatabaseQueue(path: template.calendarDatabase.path)
    _ = try queue.writeWithoutTransaction { try $0.checkpoint(.truncate) }
    try queue.close()
    let series = try #require(
      template.store().calendarItems(withExternalIdentifier: DailySeries.uid).first?
        .calendarItemIdentifier)
    let cut = ISO8601DateFormatter().string(from: DailySeries.instance(1_500))
    let command = ["rm", series, "--span", "future", "--occurrence", cut]
    let listing = ["events", "--from", "2026-01-01", "--to", "2035-01-01", "--calendar", "Daily"]

    func copy() throws -> TemporaryHome {
      let home = try TemporaryHome()
      for name in ["Calendar.sqlite", "Privacy.sqlite"] {
        try FileManager.default.copyItem(
          at: template.url.appendingPathComponent(name), to: home.url.appendingPathComponent(name))
      }
      return home
    }
    let before = try run("ekctl", listing, home: template).output
    let reference = try copy()
    let took = try Self.timed { try run("ekctl", command, home: reference) }
    #expect(took.finished.status == 0, "\(took.finished)")
    let after = try run("ekctl", listing, home: reference).output
    #expect(before != after)

    var outcomes = ["before": 0, "after": 0]
    var killed = 0
    for _ in 0..<Scale.rounds(short: 8, full: 70) {
      let home = try copy()
      let delay = Self.delay(took.seconds, using: &random)
      let writer = try Started("ekctl", command, home: home)
      if writer.kill(after: delay) { killed += 1 }
      _ = writer.finish()
      try Self.checkIntegrity(home, after: "rm killed after \(delay) s")
      let now = try run("ekctl", listing, home: home).output
      #expect(now == before || now == after, "rm killed after \(delay) s: a state in between")
      outcomes[now == before ? "before" : "after", default: 0] += 1
    }
    print(
      "crash: span removal in \(took.seconds) s: \(killed) runs killed; "
        + "\(outcomes["before"]!) as before, \(outcomes["after"]!) as cut")
  }

  // MARK: Checks

  /// SQLite's own checks of the calendar database, then a program that opens it and works.
  static func checkIntegrity(_ home: TemporaryHome, after context: String) throws {
    let queue = try DatabaseQueue(path: home.calendarDatabase.path)
    let (integrity, foreignKeys) = try queue.read { db in
      (
        try String.fetchAll(db, sql: "PRAGMA integrity_check"),
        try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").count
      )
    }
    try queue.close()
    #expect(integrity == ["ok"], "\(context)")
    #expect(foreignKeys == 0, "\(context)")
    let next = try run("ekctl", ["calendars"], home: home)
    #expect(next.status == 0, "\(context): \(next)")
  }

  /// The events of ``manyEvents(_:)`` in the store.
  static func count(importedIn home: TemporaryHome) throws -> Int {
    let queue = try DatabaseQueue(path: home.calendarDatabase.path)
    defer { try? queue.close() }
    return try queue.read { db in
      try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item WHERE uid LIKE 'crash-%'") ?? 0
    }
  }

  /// Checks each round in the writer's log against the store (whole or absent when staged,
  /// whole when committed, nothing unlogged), and counts them.
  static func rounds(in home: TemporaryHome, log: String, context: String = "")
    throws -> (staged: Int, committed: Int)
  {
    let lines = (try? String(contentsOfFile: log, encoding: .utf8))?.split(separator: "\n") ?? []
    var staged: [Int: [String]] = [:]
    var committed: Set<Int> = []
    for line in lines {
      let words = line.split(separator: " ").map(String.init)
      guard words.count >= 2, let round = Int(words[1]) else { continue }
      if words[0] == "staged" { staged[round] = Array(words.dropFirst(2)) }
      if words[0] == "committed" { committed.insert(round) }
    }
    let queue = try DatabaseQueue(path: home.calendarDatabase.path)
    defer { try? queue.close() }
    try queue.read { db in
      var logged = 0
      for (round, identifiers) in staged {
        // A line cut by the kill has fewer identifiers: only whole lines are counted.
        guard identifiers.count == 1_000 else { continue }
        let present =
          try Int.fetchOne(
            db, sql: "SELECT COUNT(*) FROM item WHERE id IN (SELECT value FROM json_each(?))",
            arguments: [String(decoding: try JSONEncoder().encode(identifiers), as: UTF8.self)])
          ?? 0
        #expect(present == 0 || present == 1_000, "\(context): round \(round) has \(present)")
        if committed.contains(round) {
          #expect(present == 1_000, "\(context): round \(round) committed, \(present) there")
        }
        logged += present
      }
      let all = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item WHERE title LIKE 'Round %'")
      #expect(all == logged, "\(context): \(all ?? 0) events, \(logged) of logged rounds")
    }
    return (staged.count, committed.count)
  }

  // MARK: Making and timing

  /// An iCalendar file of `count` one-hour events, UIDs `crash-N@openeventkit.test`.
  static func manyEvents(_ count: Int) -> String {
    var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//OpenEventKit//Crash tests//EN"]
    for index in 0..<count {
      let day = 1 + index % 28
      let hour = index / 28 % 24
      let month = 1 + index / (28 * 24) % 12
      let year = 2030 + index / (28 * 24 * 12)
      let stamp = String(format: "%04d%02d%02dT%02d0000Z", year, month, day, hour)
      lines += [
        "BEGIN:VEVENT", "UID:crash-\(index)@openeventkit.test", "DTSTAMP:20260101T000000Z",
        "DTSTART:\(stamp)", "DURATION:PT1H", "SUMMARY:Imported \(index)", "END:VEVENT",
      ]
    }
    lines.append("END:VCALENDAR")
    return lines.joined(separator: "\r\n") + "\r\n"
  }

  /// A random moment to kill a writer that takes `seconds` when left alone.
  static func delay(_ seconds: Double, using random: inout TestSeed) -> Double {
    Double.random(in: 0.2 * seconds...1.2 * seconds, using: &random)
  }

  /// Runs `body`, with how long it took.
  static func timed(_ body: () throws -> Finished) throws -> (finished: Finished, seconds: Double) {
    let start = Date()
    let finished = try body()
    return (finished, Date().timeIntervalSince(start))
  }
}
