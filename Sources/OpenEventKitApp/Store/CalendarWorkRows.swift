import Foundation
import GRDB
import OpenEventKit

// The SQL of the kit's table of work (``CalendarWork``): its migration, its rows written,
// read and deleted. The rest of the pattern is in CalendarWork.swift.
extension CalendarWork {
  /// Deletes the work's row: done, or repaired.
  func forget(_ db: Database) throws {
    try db.execute(sql: "DELETE FROM calendarWork WHERE id = ?", arguments: [id])
  }
}

extension AppDatabase {
  /// The work begun and not finished by a process that has ended: one stopped half way
  /// through it. (Work of another process of the app still running is left to it; this
  /// process's own is its commands' leftovers, as they run one after another.)
  ///
  /// ``AppSession`` repairs it; an app rarely reads it itself.
  ///
  /// ```swift
  /// for work in try database.unfinishedWork() {
  ///   print(work.purpose, work.direction.rawValue, work.items.count, "items")
  /// }
  /// ```
  ///
  /// - Returns: The work, oldest first.
  /// - Throws: GRDB's `DatabaseError` when the table cannot be read.
  public func unfinishedWork() throws -> [CalendarWork] {
    try queue.read { db in
      try Row.fetchAll(db, sql: "SELECT * FROM calendarWork ORDER BY id").compactMap { row in
        guard let direction = CalendarWork.Direction(rawValue: row["direction"]),
          let entityType = EKEntityType(rawValue: row["entityType"])
        else { return nil }
        return CalendarWork(
          id: row["id"], purpose: row["purpose"], direction: direction, entityType: entityType,
          items: Self.identifiers(row["items"]), calendars: Self.identifiers(row["calendars"]),
          reference: row["reference"], process: row["process"])
      }.filter { $0.process == ProcessMark.current || !ProcessMark.isRunning($0.process) }
    }
  }

  /// The kit's table of work, made by its migration after the app's own.
  static func registerWorkMigration(_ migrator: inout DatabaseMigrator) {
    migrator.registerMigration("OpenEventKitApp calendar work") { db in
      try db.create(table: "calendarWork") { table in
        table.autoIncrementedPrimaryKey("id")
        table.column("purpose", .text).notNull()
        table.column("direction", .text).notNull()
        table.column("entityType", .integer).notNull()
        table.column("items", .text).notNull()  // a JSON array of identifiers
        table.column("calendars", .text).notNull()
        table.column("reference", .text)
        table.column("process", .text).notNull()  // ProcessMark
      }
    }
  }

  static func insertWork(
    _ purpose: String, _ direction: CalendarWork.Direction, _ entityType: EKEntityType,
    items: [String], calendars: [String], reference: String?, in db: Database
  ) throws -> CalendarWork {
    try db.execute(
      sql: """
        INSERT INTO calendarWork
          (purpose, direction, entityType, items, calendars, reference, process)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        """,
      arguments: [
        purpose, direction.rawValue, entityType.rawValue, try json(items), try json(calendars),
        reference, ProcessMark.current,
      ])
    return CalendarWork(
      id: db.lastInsertedRowID, purpose: purpose, direction: direction, entityType: entityType,
      items: items, calendars: calendars, reference: reference, process: ProcessMark.current)
  }

  private static func json(_ identifiers: [String]) throws -> String {
    String(decoding: try JSONEncoder().encode(identifiers), as: UTF8.self)
  }

  private static func identifiers(_ text: String) -> [String] {
    (try? JSONDecoder().decode([String].self, from: Data(text.utf8))) ?? []
  }
}
