import Foundation
import GRDB

/// What alarm agents have done, kept in `Alarms.sqlite` (mode 0600, beside `Calendar.sqlite`):
/// one row per firing that was delivered, missed, snoozed or dismissed, so that every agent
/// of the user — and the next one after a restart — fires each alarm once.
///
/// A separate file from the calendar database: an agent's records are not the person's
/// calendar, are not synced, and writing them does not post `EKEventStoreChanged` to every
/// app.
final class AlarmLedgerDatabase: Sendable {
  let queue: DatabaseQueue
  let path: String

  init(location: StoreLocation) throws(EKError) {
    let file = location.folder.appendingPathComponent("Alarms.sqlite")
    try location.prepare(file)
    path = file.path
    do {
      queue = try location.openSideDatabase(
        file, label: "OpenEventKit.Alarms", migrator: AlarmLedgerDatabase.migrator,
        what: "alarm ledger")
    } catch {
      throw DatabaseFailure.opening("alarm ledger", path: path, error)
    }
  }

  static var migrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1") { db in
      try db.create(table: "firing") { t in
        t.primaryKey("id", .text)  // AlarmFiring.id
        t.column("state", .text).notNull()  // AlarmLedger.State
        t.column("fireDate", .double).notNull()
        t.column("snoozedUntil", .double)
        t.column("recordedAt", .double).notNull()
        t.column("firing", .text).notNull()  // the firing as JSON (FiringColumn)
      }
      try db.create(index: "firing_snoozed", on: "firing", columns: ["snoozedUntil"])
      try db.create(table: "meta") { t in
        t.primaryKey("key", .text)
        t.column("value", .double).notNull()
      }
    }
    // Rows are let go by age and, past a number, oldest first (`prune`).
    migrator.registerMigration("v2 fireDate") { db in
      try db.create(index: "firing_fireDate", on: "firing", columns: ["fireDate"])
    }
    return migrator
  }

  // MARK: Rows

  struct Row {
    var firing: AlarmFiring
    var state: String
    var snoozedUntil: Double?
    var recordedAt: Double
  }

  static func row(_ db: Database, id: String) throws -> Row? {
    try GRDB.Row.fetchOne(
      db, sql: "SELECT firing, state, snoozedUntil, recordedAt FROM firing WHERE id = ?",
      arguments: [id]
    ).flatMap(Self.row)
  }

  /// The ids of these firings that have a row.
  static func recorded(_ db: Database, ids: [String]) throws -> Set<String> {
    var found = Set<String>()
    for chunk in stride(from: 0, to: ids.count, by: 500) {
      let part = Array(ids[chunk..<min(ids.count, chunk + 500)])
      let marks = part.map { _ in "?" }.joined(separator: ",")
      found.formUnion(
        try String.fetchAll(
          db, sql: "SELECT id FROM firing WHERE id IN (\(marks))",
          arguments: StatementArguments(part)))
    }
    return found
  }

  static func record(
    _ db: Database, _ firing: AlarmFiring, state: String, snoozedUntil: Double? = nil,
    at now: Double
  ) throws {
    try db.execute(
      sql: """
        INSERT INTO firing (id, state, fireDate, snoozedUntil, recordedAt, firing)
        VALUES (?, ?, ?, ?, ?, ?)
        ON CONFLICT(id) DO UPDATE SET state = excluded.state,
          snoozedUntil = excluded.snoozedUntil, recordedAt = excluded.recordedAt
        """,
      arguments: [
        firing.id, state, firing.fireDate.timeIntervalSince1970, snoozedUntil, now,
        FiringColumn.text(firing),
      ])
  }

  /// Snoozed firings whose time has come, by it.
  static func snoozesDue(_ db: Database, at now: Double) throws -> [Row] {
    try GRDB.Row.fetchAll(
      db,
      sql: """
        SELECT firing, state, snoozedUntil, recordedAt FROM firing
        WHERE state = 'snoozed' AND snoozedUntil <= ? ORDER BY snoozedUntil, id
        """,
      arguments: [now]
    ).compactMap(Self.row)
  }

  /// When the next snooze ends after `now`.
  static func nextSnooze(_ db: Database, after now: Double) throws -> Double? {
    try Double.fetchOne(
      db,
      sql: "SELECT MIN(snoozedUntil) FROM firing WHERE state = 'snoozed' AND snoozedUntil > ?",
      arguments: [now])
  }

  /// Deletes the rows of firings before `cutoff` (and of snoozes that ended before it), then
  /// the oldest rows of fired and missed firings before `since` while more than `most` rows
  /// remain.
  static func prune(_ db: Database, before cutoff: Double, keeping most: Int, since: Double)
    throws
  {
    try db.execute(
      sql: """
        DELETE FROM firing WHERE fireDate < ? AND (snoozedUntil IS NULL OR snoozedUntil < ?)
        """,
      arguments: [cutoff, cutoff])
    let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM firing") ?? 0
    guard count > most else { return }
    try db.execute(
      sql: """
        DELETE FROM firing WHERE id IN (
          SELECT id FROM firing WHERE fireDate < ? AND state IN ('fired', 'missed')
          ORDER BY fireDate LIMIT ?)
        """,
      arguments: [since, count - most])
  }

  static func meta(_ db: Database, _ key: String) throws -> Double? {
    try Double.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [key])
  }

  static func setMeta(_ db: Database, _ key: String, _ value: Double) throws {
    try db.execute(
      sql: "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", arguments: [key, value])
  }

  private static func row(_ row: GRDB.Row) -> Row? {
    guard let firing = FiringColumn.firing(row[0]) else { return nil }
    return Row(firing: firing, state: row[1], snoozedUntil: row[2], recordedAt: row[3])
  }
}

/// A firing as the ledger keeps it: JSON of its fields, so that a snoozed one can be delivered
/// again when the item has changed or gone since. Written by ``JSONWriter`` with the members
/// in the order `JSONEncoder` wrote them, read by `JSONDecoder`.
struct FiringColumn: Decodable, JSONColumnValue {
  var fireDate: Double
  var offset: Double?
  var absoluteDate: Double?
  var entityType: UInt
  var calendarItemIdentifier: String
  var occurrenceDate: Double?
  var title: String
  var location: String?
  var startDate: Double?
  var endDate: Double?
  var isAllDay: Bool
  var calendarIdentifier: String
  var calendarTitle: String

  static func text(_ firing: AlarmFiring) -> String {
    var column = FiringColumn(
      fireDate: firing.fireDate.timeIntervalSince1970, entityType: firing.entityType.rawValue,
      calendarItemIdentifier: firing.calendarItemIdentifier,
      occurrenceDate: firing.occurrenceDate?.timeIntervalSince1970, title: firing.title,
      location: firing.location, startDate: firing.startDate?.timeIntervalSince1970,
      endDate: firing.endDate?.timeIntervalSince1970, isAllDay: firing.isAllDay,
      calendarIdentifier: firing.calendarIdentifier, calendarTitle: firing.calendarTitle)
    switch firing.trigger {
    case .relative(let offset): column.offset = offset
    case .absolute(let date): column.absoluteDate = date.timeIntervalSince1970
    }
    return JSONColumn.text(column) ?? "{}"
  }

  func write(to json: inout JSONWriter) {
    func number(_ key: StaticString, _ value: Double?) {
      guard let value else { return }
      json.key(key)
      json.number(value)
    }
    func string(_ key: StaticString, _ value: String?) {
      guard let value else { return }
      json.member(key, value)
    }
    json.beginObject()
    number("fireDate", fireDate)
    number("offset", offset)
    number("absoluteDate", absoluteDate)
    json.member("entityType", Int(entityType))
    string("calendarItemIdentifier", calendarItemIdentifier)
    number("occurrenceDate", occurrenceDate)
    string("title", title)
    string("location", location)
    number("startDate", startDate)
    number("endDate", endDate)
    json.member("isAllDay", isAllDay)
    string("calendarIdentifier", calendarIdentifier)
    string("calendarTitle", calendarTitle)
    json.endObject()
  }

  static func firing(_ text: String?) -> AlarmFiring? {
    guard let text, let column = try? JSONDecoder().decode(Self.self, from: Data(text.utf8))
    else { return nil }
    let date = { (seconds: Double?) in seconds.map(Date.init(timeIntervalSince1970:)) }
    return AlarmFiring(
      fireDate: Date(timeIntervalSince1970: column.fireDate),
      trigger: column.absoluteDate.map { .absolute(Date(timeIntervalSince1970: $0)) }
        ?? .relative(column.offset ?? 0),
      entityType: EKEntityType(rawValue: column.entityType) ?? .event,
      calendarItemIdentifier: column.calendarItemIdentifier,
      occurrenceDate: date(column.occurrenceDate), title: column.title,
      location: column.location, startDate: date(column.startDate),
      endDate: date(column.endDate), isAllDay: column.isAllDay,
      calendarIdentifier: column.calendarIdentifier, calendarTitle: column.calendarTitle)
  }
}
