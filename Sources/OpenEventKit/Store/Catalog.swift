import GRDB

/// What a store keeps in memory between changes: sources, calendars and settings.
struct Catalog: Sendable {
  var sources: [SourceRecord] = []
  var calendars: [CalendarRecord] = []
  var settings: [String: String] = [:]

  init() {}

  init(_ db: Database) throws {
    sources = try SourceRecord.fetchAll(db, sql: "SELECT * FROM source ORDER BY position")
    calendars = try CalendarRecord.fetchAll(db, sql: "SELECT * FROM calendar ORDER BY position")
    for row in try Row.fetchAll(db, sql: "SELECT key, value FROM meta") {
      settings[row["key"]] = row["value"]
    }
  }
}
