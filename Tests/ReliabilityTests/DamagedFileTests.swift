import Foundation
import GRDB
import TestSupport
import Testing

/// Damaged and hostile files: each gives one clear error naming the file, a non-zero exit,
/// and leaves the person's data as it was.
@Suite struct DamagedFileTests {
  /// A home with a store holding one event, made by ekctl.
  static func populatedHome() throws -> TemporaryHome {
    let home = try TemporaryHome()
    let file = home.url.appendingPathComponent("one.ics")
    try """
    BEGIN:VCALENDAR\r
    VERSION:2.0\r
    PRODID:-//Test//Damaged//EN\r
    BEGIN:VEVENT\r
    UID:one@test\r
    DTSTAMP:20260101T000000Z\r
    DTSTART:20260310T090000Z\r
    DURATION:PT1H\r
    SUMMARY:Dentist\r
    END:VEVENT\r
    END:VCALENDAR\r

    """.write(to: file, atomically: true, encoding: .utf8)
    let imported = try run("ekctl", ["import", file.path], home: home)
    #expect(imported.status == 0, "\(imported)")
    return home
  }

  static let march = ["events", "--from", "2026-03-01", "--to", "2026-04-01"]

  /// One line of error: the file's path and the words given; no SQL, no `Error Domain`.
  static func expectOneClearError(_ finished: Finished, naming path: String?, _ words: String) {
    #expect(finished.status != 0, "\(finished)")
    #expect(
      path.map(finished.output.contains) ?? true, "\(finished)")
    #expect(finished.output.contains(words), "\(finished)")
    #expect(
      !finished.output.contains("SELECT") && !finished.output.contains("INSERT")
        && !finished.output.contains("Error Domain"), "\(finished)")
  }

  @Test(arguments: ["garbage", "truncated"])
  func aDamagedCalendarDatabaseIsLeftAsItIs(damage: String) throws {
    let home = try Self.populatedHome()
    let database = home.calendarDatabase
    // The store as one file, then damaged: random bytes, or the first page only.
    _ = try run("ekctl", ["calendars"], home: home)
    try DatabaseQueue(path: database.path).writeWithoutTransaction { db in
      try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
    }
    for suffix in ["-wal", "-shm"] {
      try? FileManager.default.removeItem(atPath: database.path + suffix)
    }
    let whole = try #require(bytes(database))
    let damaged =
      damage == "garbage"
      ? Data((0..<whole.count).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) })
      : whole.prefix(4096) + Data(repeating: 0xA5, count: 4096)
    try damaged.write(to: database)

    let finished = try run("ekctl", Self.march, home: home)
    if damage == "garbage" {
      Self.expectOneClearError(finished, naming: database.path, "not a database")
      #expect(finished.output.contains("mv \(database.path) \(database.path).damaged"))
    } else {
      // A store cut short may still open: what is asked of it then fails, clearly.
      Self.expectOneClearError(finished, naming: nil, "damaged")
    }
    #expect(bytes(database) == damaged, "the damaged file was changed")
  }

  /// An app asking for access to a store that cannot be opened is told why, and no decision
  /// is recorded: the person would grant access to nothing.
  @Test func anAppAskingForAccessToADamagedStoreRecordsNothing() throws {
    let home = try TemporaryHome()
    try Data(repeating: 0x42, count: 8192).write(to: home.calendarDatabase)
    let session = try run(
      "loan-scheduler", ["--now", "2026-03-01T10:00"], home: home,
      input: "new Claire 100 0 3 daily 2026-03-02\ny\nquit\n")
    #expect(session.output.contains("not a database"), "\(session)")
    let decisions = try run("ekctl", ["privacy", "list"], home: home)
    #expect(decisions.output == "No app has asked for access yet.\n", "\(decisions)")
  }

  /// A damaged Privacy.sqlite grants nothing and resets nothing on its own; ekctl says what
  /// to do, and `ekctl privacy reset` moves it aside (kept) so that apps ask again.
  @Test func aDamagedPrivacyDatabaseFailsClosedUntilThePersonResetsIt() throws {
    let home = try Self.populatedHome()
    #expect(
      try run(
        "ekctl", ["privacy", "set", "--app", "org.x", "--entity", "events", "full"], home: home
      ).status == 0)
    let privacy = home.url.appendingPathComponent("Privacy.sqlite")
    for suffix in ["-wal", "-shm"] {
      try? FileManager.default.removeItem(atPath: privacy.path + suffix)
    }
    let garbage = Data("not a database at all, just words".utf8)
    try garbage.write(to: privacy)

    let listed = try run("ekctl", ["privacy", "list"], home: home)
    Self.expectOneClearError(listed, naming: privacy.path, "ekctl privacy reset")
    let one = try run("ekctl", ["privacy", "reset", "--app", "org.x"], home: home)
    Self.expectOneClearError(one, naming: privacy.path, "not a database")
    #expect(bytes(privacy) == garbage)

    // An app is refused, with the reason.
    let session = try run(
      "loan-scheduler", ["--now", "2026-03-01T10:00"], home: home,
      input: "new Claire 100 0 3 daily 2026-03-02\ny\nquit\n")
    #expect(session.output.contains("Privacy.sqlite"), "\(session)")

    let reset = try run("ekctl", ["privacy", "reset"], home: home)
    #expect(reset.status == 0 && reset.output.contains("Privacy.sqlite.damaged-"), "\(reset)")
    let aside = try FileManager.default.contentsOfDirectory(atPath: home.url.path)
      .filter { $0.hasPrefix("Privacy.sqlite.damaged-") }
    #expect(aside.count == 1)
    #expect(bytes(home.url.appendingPathComponent(aside[0])) == garbage)
    #expect(
      try run("ekctl", ["privacy", "list"], home: home).output
        == "No app has asked for access yet.\n")
    // The calendar itself was never touched.
    #expect(try run("ekctl", Self.march, home: home).output.contains("Dentist"))
  }

  /// A store a newer version migrated further is not opened: this version would not know
  /// what the newer one added.
  @Test func aStoreFromANewerVersionIsNotTouched() throws {
    let home = try Self.populatedHome()
    try DatabaseQueue(path: home.calendarDatabase.path).write { db in
      try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99-from-the-future')")
    }
    let finished = try run("ekctl", Self.march, home: home)
    Self.expectOneClearError(finished, naming: home.calendarDatabase.path, "a newer version")
    #expect(finished.output.contains("v99-from-the-future"))
    let stillThere = try DatabaseQueue(path: home.calendarDatabase.path).read { db in
      try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")
    }
    #expect(stillThere.contains("v99-from-the-future"))
  }

  /// An app's own database from a newer version of the app is not touched either.
  @Test func anAppDatabaseFromANewerVersionIsNotTouched() throws {
    let home = try TemporaryHome()
    #expect(try run("loan-scheduler", [], home: home, input: "loans\nquit\n").status == 0)
    let loans = home.url.appendingPathComponent("loan-scheduler/loans.sqlite")
    try DatabaseQueue(path: loans.path).write { db in
      try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('loans v9')")
    }
    let finished = try run("loan-scheduler", [], home: home, input: "loans\nquit\n")
    Self.expectOneClearError(finished, naming: loans.path, "a newer version of the app")
    #expect(finished.output.contains("loans v9"))
  }

  /// `ekctl export -o` writes 0600 whole or not at all: over a file readable by others, and
  /// into a folder that is not there (one clear error, no partial file left).
  @Test func anExportIsPrivateAndWholeOrNothing() throws {
    let home = try Self.populatedHome()
    let file = home.url.appendingPathComponent("calendar.ics")
    try Data("an older export\n".utf8).write(to: file)
    chmod(file.path, 0o644)
    let written = try run("ekctl", ["export", "-o", file.path], home: home)
    #expect(written.status == 0, "\(written)")
    #expect(mode(file.path) == 0o600)
    #expect(String(decoding: bytes(file) ?? Data(), as: UTF8.self).contains("SUMMARY:Dentist"))

    let missing = home.url.appendingPathComponent("no such folder/calendar.ics")
    let refused = try run("ekctl", ["export", "-o", missing.path], home: home)
    Self.expectOneClearError(refused, naming: missing.path, "No such file or directory")
    let left = try FileManager.default.contentsOfDirectory(atPath: home.url.path)
    #expect(!left.contains { $0.hasSuffix(".part") }, "\(left)")
  }

  /// Calendar.sqlite as a symbolic link, dangling or to another file: refused before SQLite
  /// sees it, so no file is created at the target and the other file is not written.
  @Test(arguments: [false, true])
  func aSymbolicLinkIsRefused(toAFile: Bool) throws {
    let home = try TemporaryHome()
    let target = home.url.appendingPathComponent("elsewhere.txt")
    let content = Data("a person's notes\n".utf8)
    if toAFile { try content.write(to: target) }
    try FileManager.default.createSymbolicLink(
      atPath: home.calendarDatabase.path, withDestinationPath: target.path)
    let finished = try run("ekctl", ["calendars"], home: home)
    Self.expectOneClearError(finished, naming: home.calendarDatabase.path, "symbolic link")
    #expect(bytes(target) == (toAFile ? content : nil))
    #expect(!FileManager.default.fileExists(atPath: target.path + "-wal"))
  }

  /// Run as a person (not root): a read-only folder, and read-only database files, each
  /// refused with what to do; a read-only `-shm` left by an older version is repaired.
  @Test func readOnlyFoldersAndFiles() throws {
    let home = try Self.populatedHome()
    Person.own(home.url)
    let folder = home.url.path
    let database = home.calendarDatabase.path
    #expect(try run("ekctl", Self.march, home: home, asPerson: true).output.contains("Dentist"))

    chmod(folder, 0o500)
    var finished = try run("ekctl", Self.march, home: home, asPerson: true)
    chmod(folder, 0o700)
    Self.expectOneClearError(finished, naming: database, "chmod u+wx \(folder)")

    chmod(database, 0o400)
    finished = try run("ekctl", Self.march, home: home, asPerson: true)
    Self.expectOneClearError(finished, naming: database, "chmod 600 \(database)")
    #expect(mode(database + "-shm").map { $0 & 0o200 != 0 } ?? true, "a read-only -shm was left")

    chmod(database, 0o600)
    if FileManager.default.fileExists(atPath: database + "-shm") { chmod(database + "-shm", 0o400) }
    finished = try run("ekctl", Self.march, home: home, asPerson: true)
    #expect(finished.status == 0 && finished.output.contains("Dentist"), "\(finished)")
  }

  /// A full disk: the import is refused in words (not the INSERT), what was committed before
  /// stays and the store opens, nothing of the refused import is left, and the space the
  /// failed transaction took in the WAL is given back; once there is room, the same import
  /// goes in whole. The disk is a ``SmallDisk`` of 3 MB, which needs no right to mount one.
  @Test func aFullDiskRefusesTheImportAndGivesTheSpaceBack() throws {
    let disk = try SmallDisk(bytes: 3 << 20)
    let home = try TemporaryHome()
    let database = disk.folder.url.appendingPathComponent("Calendar.sqlite").path
    let onTheDisk = { (arguments: [String]) in
      try Started(
        "ekctl", arguments + ["--db", database], home: home, environment: disk.environment
      )
      .finish()
    }
    let small = home.url.appendingPathComponent("one.ics")
    try Self.ics(count: 1).write(to: small, atomically: true, encoding: .utf8)
    #expect(try onTheDisk(["import", small.path]).status == 0)
    let large = home.url.appendingPathComponent("large.ics")
    try Self.ics(count: 20_000).write(to: large, atomically: true, encoding: .utf8)

    let finished = try onTheDisk(["import", large.path])
    Self.expectOneClearError(finished, naming: nil, "the disk is full")
    #expect(!finished.output.contains("INSERT") && !finished.output.contains("SQLite"))
    let wal = (try? FileManager.default.attributesOfItem(atPath: database + "-wal")[.size]) as? Int
    #expect((wal ?? 0) < 64 * 1024, "the WAL kept \(wal ?? 0) bytes")
    print("full disk: \(disk.used) of \(disk.bytes) bytes used after the refused import")
    let listing = ["events", "--from", "2026-01-01", "--to", "2027-01-01"]
    let events = try onTheDisk(listing)
    #expect(events.status == 0 && events.output.contains("Event 0 "), "\(events)")
    #expect(!events.output.contains("Event 1 "))
    let integrity = try DatabaseQueue(path: database).read { db in
      try String.fetchAll(db, sql: "PRAGMA integrity_check")
    }
    #expect(integrity == ["ok"])

    // Room again (the same folder, no limit): the import goes in whole.
    let again = try run("ekctl", ["import", large.path, "--db", database], home: home)
    #expect(again.status == 0, "\(again)")
    let all = try run("ekctl", listing + ["--db", database], home: home)
    #expect(all.output.contains("Event 19999 "), "\(all.output.suffix(300))")
  }

  /// A file of `count` one-hour events in 2026.
  static func ics(count: Int) -> String {
    var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Test//Full//EN\r\n"
    for index in 0..<count {
      let month = 1 + index % 12
      let day = 1 + index % 28
      text += "BEGIN:VEVENT\r\nUID:full-\(index)@test\r\nDTSTAMP:20260101T000000Z\r\n"
      text += "DTSTART:2026\(month < 10 ? "0" : "")\(month)\(day < 10 ? "0" : "")\(day)T100000Z\r\n"
      text += "DURATION:PT1H\r\nSUMMARY:Event \(index) with some words to take up space\r\n"
      text += "END:VEVENT\r\n"
    }
    return text + "END:VCALENDAR\r\n"
  }
}
