import Foundation
import GRDB
import TestSupport
import Testing

@testable import OpenEventKit

/// The calendar database file: where it lives, how it is created, what a new one holds, and
/// how several connections share it.
@Suite struct CalendarDatabaseTests {
  @Test func locationFollowsTheEnvironment() {
    #expect(
      StoreLocation.current(environment: ["OPENEVENTKIT_HOME": "/tmp/oek", "HOME": "/home/a"])
        .calendarDatabase.path == "/tmp/oek/Calendar.sqlite")
    #expect(
      StoreLocation.current(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/a"])
        .calendarDatabase.path == "/data/OpenEventKit/Calendar.sqlite")
    // A relative XDG_DATA_HOME is ignored, as the XDG specification says.
    #expect(
      StoreLocation.current(environment: ["XDG_DATA_HOME": "data", "HOME": "/home/a"])
        .calendarDatabase.path == "/home/a/.local/share/OpenEventKit/Calendar.sqlite")
    #expect(
      StoreLocation.current(environment: ["HOME": "/home/a"]).privacyDatabase.path
        == "/home/a/.local/share/OpenEventKit/Privacy.sqlite")
  }

  @Test func aNewDatabaseIsPrivateAndInWALMode() throws {
    let temporary = try TemporaryFolder()
    let location = StoreLocation(folder: temporary.url.appendingPathComponent("store"))
    let database = try CalendarDatabase(location: location)
    let attributes = try FileManager.default.attributesOfItem(atPath: database.path)
    #expect((attributes[.posixPermissions] as? Int).map { $0 & 0o777 } == 0o600)
    let folder = try FileManager.default.attributesOfItem(atPath: location.folder.path)
    #expect((folder[.posixPermissions] as? Int).map { $0 & 0o777 } == 0o700)
    let mode = try database.pool.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }
    #expect(mode == "wal")
  }

  /// Readers map the file on a local disk (a month query's rows without a system call each);
  /// where the file system cannot be told, nothing is mapped.
  @Test func everyConnectionReadsThroughAMemoryMapOnALocalDisk() throws {
    let temporary = try TemporaryFolder()
    #expect(CalendarDatabase.mayMap(folder: temporary.url.path))
    #expect(!CalendarDatabase.mayMap(folder: temporary.url.appendingPathComponent("none").path))
    let database = try CalendarDatabase(location: StoreLocation(folder: temporary.url))
    let sql = "PRAGMA mmap_size"
    let reader = try database.pool.read { try Int.fetchOne($0, sql: sql) }
    let writer = try database.pool.write { try Int.fetchOne($0, sql: sql) }
    #expect(reader == CalendarDatabase.mappedSize)
    #expect(writer == CalendarDatabase.mappedSize)
  }

  /// Rows are read column by column through SQLite's C interface (`ColumnReader`): every
  /// column comes back as written, NULL as nil and an empty text as empty, and a value another
  /// program stored with another type reads as SQLite converts it.
  @Test func aRowReadsBackAsItWasWritten() throws {
    let temporary = try TemporaryFolder()
    let database = try CalendarDatabase(location: StoreLocation(folder: temporary.url))
    let calendarId = try #require(
      try database.pool.read {
        try String.fetchOne(
          $0, sql: "SELECT value FROM meta WHERE key = ?",
          arguments: [DefaultContent.Key.defaultEventCalendar])
      })
    let full = ItemRecord(
      id: "full", calendarId: calendarId, kind: .reminder, uid: "uid@example.org",
      title: "Café 日本 🎉", location: "", notes: "line one\nline two", url: "https://example.org",
      createdAt: 1_700_000_000.5, modifiedAt: -1.25, timeZone: "Europe/Paris", isAllDay: true,
      startReading: -62_135_596_800, endReading: 253_402_300_799, startKey: 0, endKey: -1,
      availability: 3, status: 2, recurrenceRules: "FREQ=DAILY", recurrenceDates: "20260101",
      exceptionDates: "20260102", seriesEndKey: Int.max, structuredLocation: "{}",
      alarms: "[]", participants: "[]", startComponents: "{}", dueComponents: "{}",
      dueKey: Int.min, isCompleted: true, completedAt: 0.125, priority: 9, sequence: 4,
      extra: "X-A:b", seriesId: nil, recurrenceId: "20260103", detachedDates: "20260104")
    let empty = ItemRecord(
      id: "empty", calendarId: calendarId, kind: .event, uid: nil, title: nil, location: nil,
      notes: nil, url: nil, createdAt: 0, modifiedAt: 0, timeZone: nil, isAllDay: false,
      startReading: nil, endReading: nil, startKey: nil, endKey: nil, availability: 0,
      status: 0, recurrenceRules: nil, recurrenceDates: nil, exceptionDates: nil,
      seriesEndKey: nil, structuredLocation: nil, alarms: nil, participants: nil,
      startComponents: nil, dueComponents: nil, dueKey: nil, isCompleted: false,
      completedAt: nil, priority: 0, sequence: 0, extra: nil, seriesId: nil, recurrenceId: nil,
      detachedDates: nil)
    try database.write { db in
      try RowWriter.writing(db) { rows in
        try rows.insert(full)
        try rows.insert(empty)
      }
    }
    try database.pool.read { (db: Database) throws in
      #expect(try ItemRows.item(db, id: "full") == full)
      #expect(try ItemRows.item(db, id: "empty") == empty)
      #expect(try ItemRows.item(db, id: "none") == nil)
    }
    // Another program's values: a number where text belongs, text where a number does.
    try database.pool.write { db in
      try db.execute(
        sql: "UPDATE item SET title = 42, priority = '7', completedAt = 3 WHERE id = 'empty'")
    }
    let changed = try database.pool.read { try ItemRows.item($0, id: "empty") }
    #expect(changed?.title == "42")
    #expect(changed?.priority == 7)
    #expect(changed?.completedAt == 3)
  }

  /// A row SQLite fails to produce is GRDB's error with the message, SQL and arguments, and
  /// leaves the statement ready for the next use (a cached statement is used again).
  @Test func aFailingRowReadIsAnErrorAndTheStatementStaysUsable() throws {
    let temporary = try TemporaryFolder()
    let database = try CalendarDatabase(location: StoreLocation(folder: temporary.url))
    try database.pool.read { (db: Database) throws in
      let statement = try db.cachedStatement(sql: "SELECT abs(?)")
      let error = #expect(throws: DatabaseError.self) {
        try statement.forEachRow(in: db, arguments: [Int64.min]) { _ in }
      }
      #expect(error?.resultCode == .SQLITE_ERROR)
      #expect(error?.message?.contains("integer overflow") == true)
      #expect(error?.sql == "SELECT abs(?)")
      var read: [Int] = []
      try statement.forEachRow(in: db, arguments: [-5]) { read.append($0.integer(0)) }
      #expect(read == [5])
    }
  }

  @Test func aNewDatabaseHoldsTheDefaultCalendarsAndHolidays() throws {
    let temporary = try TemporaryFolder()
    let database = try CalendarDatabase(location: StoreLocation(folder: temporary.url))
    try database.pool.read { (db: Database) throws in
      let calendars = try Row.fetchAll(
        db,
        sql:
          "SELECT title, entityMask, allowsContentModifications, isSubscribed FROM calendar ORDER BY position"
      )
      #expect(calendars.map { $0["title"] as String } == ["Calendar", "Reminders", "Holidays"])
      #expect(calendars.map { $0["entityMask"] as Int } == [1, 2, 1])
      #expect(calendars.map { $0["allowsContentModifications"] as Bool } == [true, true, false])
      #expect(calendars.map { $0["isSubscribed"] as Bool } == [false, false, true])
      let holidays = try String.fetchAll(
        db,
        sql: """
          SELECT item.title FROM item JOIN calendar ON calendar.id = item.calendarId
          WHERE calendar.title = 'Holidays' AND item.recurrenceRules = 'FREQ=YEARLY'
          ORDER BY item.startKey
          """)
      #expect(holidays == ["New Year's Day", "International Workers' Day", "Christmas Day"])
      let defaults = try String.fetchAll(
        db,
        sql:
          "SELECT title FROM calendar WHERE id IN (SELECT value FROM meta WHERE key LIKE 'default%') ORDER BY position"
      )
      #expect(defaults == ["Calendar", "Reminders"])
    }
  }

  @Test func openingAgainMigratesOnceAndKeepsTheData() throws {
    let temporary = try TemporaryFolder()
    let location = StoreLocation(folder: temporary.url)
    let first = try CalendarDatabase(location: location)
    let identifier = try first.pool.read {
      try String.fetchOne($0, sql: "SELECT value FROM meta WHERE key = 'storeIdentifier'")
    }
    let second = try CalendarDatabase(location: location)
    let (calendars, again) = try second.pool.read { db in
      (
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM calendar"),
        try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'storeIdentifier'")
      )
    }
    #expect(calendars == 3)
    #expect(again == identifier)
  }

  /// Opening takes a short way when the file has exactly the known migrations; a file with as
  /// many, one of them unknown in place of a known one, is still a newer version's, left alone.
  @Test func asManyMigrationsWithAnUnknownOneIsANewerVersion() throws {
    let temporary = try TemporaryFolder()
    let location = StoreLocation(folder: temporary.url)
    try CalendarDatabase(location: location).pool.close()
    let queue = try DatabaseQueue(path: location.calendarDatabase.path)
    let last = try #require(CalendarSchema.migrator.migrations.last)
    try queue.write { db in
      try db.execute(
        sql: "UPDATE grdb_migrations SET identifier = 'v99 from the future' WHERE identifier = ?",
        arguments: [last])
    }
    try queue.close()
    #expect {
      _ = try CalendarDatabase(location: location)
    } throws: { error in
      "\(error)".contains("a newer version") && "\(error)".contains("v99 from the future")
    }
    let applied = try DatabaseQueue(path: location.calendarDatabase.path).read { db in
      try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")
    }
    #expect(applied.contains("v99 from the future") && !applied.contains(last))
  }

  /// The privacy database, opened as the store's side databases are, is refused as the store
  /// is when a newer version migrated it further, and left as it was.
  @Test func aPrivacyDatabaseFromANewerVersionIsNotTouched() throws {
    let temporary = try TemporaryFolder()
    let location = StoreLocation(folder: temporary.url)
    try PrivacyDatabase(location: location).queue.close()
    try DatabaseQueue(path: location.privacyDatabase.path).write { db in
      try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('privacy v9')")
    }
    #expect {
      _ = try PrivacyDatabase(location: location)
    } throws: { error in
      (error as? EKError)?.code == .internalFailure
        && "\(error)".contains("cannot open the privacy database \(location.privacyDatabase.path)")
        && "\(error)".contains("a newer version") && "\(error)".contains("privacy v9")
    }
    let applied = try DatabaseQueue(path: location.privacyDatabase.path).read { db in
      try PrivacyDatabase.migrator.appliedIdentifiers(db)
    }
    #expect(applied == Set(PrivacyDatabase.migrator.migrations + ["privacy v9"]))
  }

  /// A table named as GRDB's list of migrations that GRDB did not make (no `identifier`): the
  /// store says which file and why, and changes nothing.
  @Test func aMigrationsTableGRDBDidNotMakeIsAClearError() throws {
    let temporary = try TemporaryFolder()
    let location = StoreLocation(folder: temporary.url)
    try DatabaseQueue(path: location.calendarDatabase.path).write { db in
      try db.execute(sql: "CREATE TABLE grdb_migrations (name TEXT)")
      try db.execute(sql: "INSERT INTO grdb_migrations (name) VALUES ('v1')")
    }
    #expect {
      _ = try CalendarDatabase(location: location)
    } throws: { error in
      (error as? EKError)?.code == .internalFailure
        && "\(error)".contains(
          "cannot open the calendar database \(location.calendarDatabase.path)")
        && "\(error)".contains("no such column: identifier")
    }
    let (tables, names) = try DatabaseQueue(path: location.calendarDatabase.path).read { db in
      (
        try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'"),
        try String.fetchAll(db, sql: "SELECT name FROM grdb_migrations")
      )
    }
    #expect(tables == ["grdb_migrations"] && names == ["v1"])
  }

  @Test func twoConnectionsWriteAtOnceWithoutLockErrors() async throws {
    let temporary = try TemporaryFolder()
    let location = StoreLocation(folder: temporary.url)
    let databases = [
      try CalendarDatabase(location: location), try CalendarDatabase(location: location),
    ]
    try await withThrowingTaskGroup(of: Void.self) { group in
      for (index, database) in databases.enumerated() {
        group.addTask {
          for n in 0..<100 {
            try await database.pool.write { db in
              try db.execute(
                sql: "INSERT INTO meta (key, value) VALUES (?, ?)",
                arguments: ["k\(index)-\(n)", "v"])
            }
          }
        }
      }
      try await group.waitForAll()
    }
    let count = try await databases[0].pool.read {
      try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM meta WHERE key LIKE 'k%'")
    }
    #expect(count == 200)
  }

  @Test func aFileThatIsNotADatabaseIsAnEKErrorAndIsLeftAlone() throws {
    let temporary = try TemporaryFolder()
    let location = StoreLocation(folder: temporary.url)
    let text = Data("not a database, keep me".utf8)
    try text.write(to: location.calendarDatabase)
    #expect(throws: EKError.self) { try CalendarDatabase(location: location) }
    #expect(try Data(contentsOf: location.calendarDatabase) == text)
  }

  @Test func anUnusableLocationIsAnEKError() throws {
    let temporary = try TemporaryFolder()
    let blocker = temporary.url.appendingPathComponent("file")
    try Data("x".utf8).write(to: blocker)
    // A folder cannot be made inside a regular file.
    #expect(throws: EKError.self) {
      try CalendarDatabase(location: StoreLocation(folder: blocker.appendingPathComponent("store")))
    }
  }
}
