import Foundation
import GRDB
import OpenEventKit
import OpenEventKitApp

/// The plan, in the app's own database (`wedding.sqlite` in its data folder, the kit's
/// ``AppDatabase``): the day, the venue and its zone, each item with its event's identifier,
/// and the last copy of the Wedding calendar, which `restore` puts back.
final class WeddingDatabase: Sendable {
  /// The kit's database, where the work of putting a new item's event on the calendar is
  /// recorded too (CrashSafety.swift).
  let app: AppDatabase
  let queue: DatabaseQueue

  init(_ database: AppDatabase) {
    app = database
    queue = database.queue
  }

  static func registerMigrations(_ migrator: inout DatabaseMigrator) {
    migrator.registerMigration("plan") { db in
      try db.create(table: "wedding") { table in
        table.primaryKey("id", .integer).check { $0 == 1 }
        table.column("day", .text).notNull()
        table.column("venue", .text).notNull()
        table.column("zone", .text).notNull()
      }
      try db.create(table: "item") { table in
        table.autoIncrementedPrimaryKey("id")
        table.column("kind", .text).notNull()
        table.column("vendor", .text)
        table.column("place", .text)
        table.column("state", .text).notNull()
        table.column("eventIdentifier", .text)
        table.column("start", .double)
      }
      // The Wedding calendar as an iCalendar file, taken whenever the app has seen it.
      try db.create(table: "calendarCopy") { table in
        table.primaryKey("id", .integer).check { $0 == 1 }
        table.column("ics", .blob).notNull()
      }
    }
  }

  // MARK: The day

  func wedding() throws -> Wedding? {
    try queue.read { db in
      guard let row = try Row.fetchOne(db, sql: "SELECT day, venue, zone FROM wedding") else {
        return nil
      }
      return Wedding(
        day: row["day"], venue: row["venue"],
        zone: TimeZone(identifier: row["zone"]) ?? TimeZone.current)
    }
  }

  func setWedding(_ wedding: Wedding) throws {
    try queue.write { db in
      try db.execute(
        sql: "INSERT OR REPLACE INTO wedding (id, day, venue, zone) VALUES (1, ?, ?, ?)",
        arguments: [wedding.day, wedding.venue, wedding.zone.identifier])
    }
  }

  // MARK: Items

  func items() throws -> [PlanItem] {
    try queue.read { db in
      try Row.fetchAll(db, sql: "SELECT * FROM item ORDER BY id").map(Self.item)
    }
  }

  /// Item N, as `plan` numbers them (by their identifier in the database).
  func item(_ number: String) throws -> PlanItem {
    guard let id = Int64(number), let item = try items().first(where: { $0.id == id }) else {
      throw WeddingError("There is no item \(number) in the plan; 'plan' lists them.")
    }
    return item
  }

  /// The live item of a kind the app gives a meaning to (the day, the ceremony, the
  /// fittings): the last one not cancelled.
  func item(kind: String) throws -> PlanItem? {
    try items().last { $0.kind == kind && $0.state != .cancelled }
  }

  /// Saves an item (CrashSafety.swift also finishes the work of a new one in the same
  /// transaction).
  func save(_ item: PlanItem) throws {
    try queue.write { db in try Self.update(item, in: db) }
  }

  static func update(_ item: PlanItem, in db: Database) throws {
    try db.execute(
      sql: """
        UPDATE item SET kind = ?, vendor = ?, place = ?, state = ?, eventIdentifier = ?,
        start = ? WHERE id = ?
        """,
      arguments: [
        item.kind, item.vendor, item.place, item.state.rawValue, item.eventIdentifier,
        item.start?.timeIntervalSince1970, item.id,
      ])
  }

  private static func item(_ row: Row) -> PlanItem {
    PlanItem(
      id: row["id"], kind: row["kind"], vendor: row["vendor"], place: row["place"],
      state: PlanItem.State(rawValue: row["state"]) ?? .planned,
      eventIdentifier: row["eventIdentifier"],
      start: (row["start"] as Double?).map(Date.init(timeIntervalSince1970:)))
  }

  // MARK: The calendar's copy

  func calendarCopy() throws -> Data? {
    try queue.read { db in try Data.fetchOne(db, sql: "SELECT ics FROM calendarCopy") }
  }

  func setCalendarCopy(_ ics: Data) throws {
    try queue.write { db in
      try db.execute(
        sql: "INSERT OR REPLACE INTO calendarCopy (id, ics) VALUES (1, ?)", arguments: [ics])
    }
  }
}
