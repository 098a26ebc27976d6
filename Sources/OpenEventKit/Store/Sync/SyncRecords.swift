import Foundation
import GRDB

// The rows CalDAV sync keeps beside the items ("v2 sync" in CalendarSchema).

/// One row of `account`: a CalDAV source's server and user.
package struct AccountRecord: Hashable, Sendable, Codable, FetchableRecord, PersistableRecord {
  package static let databaseTableName = "account"

  package var sourceId: String
  /// The name the person gave it (`ekctl account add --name`), unique ignoring case.
  package var name: String
  /// The URL as the person gave it.
  package var url: String
  /// The calendar home discovery found: where calendars of this account are made.
  package var homeURL: String
  package var user: String
  package var lastSync: Double?
  package var lastError: String?
}

/// One row of `collection`: a calendar that is a collection on its account's server.
package struct CollectionRecord: Hashable, Sendable, Codable, FetchableRecord, PersistableRecord {
  package static let databaseTableName = "collection"

  package var calendarId: String
  package var href: String
  package var syncToken: String?
  package var ctag: String?
  /// The components the server takes, comma-separated: `VEVENT`, `VTODO`.
  package var components: String
}

/// One row of `resource`: a UID's resource on the server as of the last sync.
package struct ResourceRecord: Hashable, Sendable, Codable, FetchableRecord, PersistableRecord {
  package static let databaseTableName = "resource"

  var calendarId: String
  var uid: String
  package var href: String
  package var etag: String?
  /// The resource's iCalendar text as the server had it.
  package var data: Data?

  /// Saves the record, inserted or updated where its calendar and UID are, by one statement
  /// compiled once a connection (an upsert): a sync writes one a resource.
  func write(_ db: Database) throws {
    try db.cachedStatement(
      sql: """
        INSERT INTO resource (calendarId, uid, href, etag, data) VALUES (?, ?, ?, ?, ?)
        ON CONFLICT (calendarId, uid)
        DO UPDATE SET href = excluded.href, etag = excluded.etag, data = excluded.data
        """
    ).execute(arguments: [calendarId, uid, href, etag, data])
  }
}

/// One row of `outbox`: a local change not yet sent (``Outbox``).
package struct OutboxEntry: Hashable, Sendable, Codable, FetchableRecord, PersistableRecord {
  package static let databaseTableName = "outbox"

  package var seq: Int64?
  var sourceId: String
  package var calendarId: String
  /// The resource's UID; nil for a change of the calendar itself.
  package var uid: String?
  var change: String
  /// A removed calendar's collection.
  package var href: String?

  /// The entries of a source, oldest first.
  static func pending(_ db: Database, sourceId: String) throws -> [OutboxEntry] {
    try fetchAll(
      db, sql: "SELECT * FROM outbox WHERE sourceId = ? ORDER BY seq", arguments: [sourceId])
  }

  /// How many entries of a source wait to be sent.
  static func count(_ db: Database, sourceId: String) throws -> Int {
    try Int.fetchOne(
      db, sql: "SELECT COUNT(*) FROM outbox WHERE sourceId = ?", arguments: [sourceId]) ?? 0
  }

  /// Deletes the entries of one resource (or, with a nil `uid`, of the calendar itself) up
  /// to `seq`: what one send settled.
  static func settle(
    _ db: Database, sourceId: String, calendarId: String, uid: String?, upTo seq: Int64
  ) throws {
    try db.execute(
      sql: """
        DELETE FROM outbox WHERE sourceId = ? AND calendarId = ? AND uid IS ? AND seq <= ?
        """,
      arguments: [sourceId, calendarId, uid, seq])
  }

  /// Deletes every entry of a calendar.
  static func discard(_ db: Database, sourceId: String, calendarId: String) throws {
    try db.execute(
      sql: "DELETE FROM outbox WHERE sourceId = ? AND calendarId = ?",
      arguments: [sourceId, calendarId])
  }
}

extension CalendarRecord {
  /// The calendars of CalDAV sources, by identifier, with their source.
  static func syncedSources(_ db: Database) throws -> [String: String] {
    var found: [String: String] = [:]
    // Every write transaction of the API asks (``Outbox``): the statement is cached, and its
    // rows read through SQLite's C interface (GRDB's cursor and rows were most of a query
    // that finds nothing). The accounts are read first (SQLite keeps a CROSS JOIN's order):
    // most stores have none, and their calendars are then not read at all.
    try db.cachedStatement(
      sql: """
        SELECT calendar.id, calendar.sourceId
        FROM account CROSS JOIN calendar ON calendar.sourceId = account.sourceId
        """
    ).forEachRow(in: db, arguments: []) { row in
      if let id = row.text(0), let sourceId = row.text(1) { found[id] = sourceId }
    }
    return found
  }
}

extension ItemRows {
  /// Which resource a row belongs to: its calendar, its UID (a detached row keeps its
  /// series'), and whether it is a detached occurrence.
  static func resourceKey(_ db: Database, id: String) throws
    -> (calendarId: String, uid: String, isDetached: Bool)?
  {
    guard
      let row = try Row.fetchOne(
        db,
        sql: "SELECT calendarId, COALESCE(uid, id), seriesId IS NOT NULL FROM item WHERE id = ?",
        arguments: [id])
    else { return nil }
    return (row[0], row[1], row[2])
  }
}

extension CollectionRecord {
  /// Records where a pull got to: the sync token or the CTag, each kept when nil.
  static func recordPulled(_ db: Database, calendarId: String, token: String?, ctag: String?)
    throws
  {
    try db.execute(
      sql: """
        UPDATE collection SET syncToken = COALESCE(?, syncToken), ctag = COALESCE(?, ctag)
        WHERE calendarId = ?
        """,
      arguments: [token, ctag, calendarId])
  }

  /// The calendars of a source that are collections, with their collections, by position.
  static func ofSource(_ db: Database, sourceId: String) throws
    -> [(calendar: CalendarRecord, collection: CollectionRecord)]
  {
    let calendars = try CalendarRecord.fetchAll(
      db, sql: "SELECT * FROM calendar WHERE sourceId = ? ORDER BY position",
      arguments: [sourceId])
    return try calendars.compactMap { calendar in
      try CollectionRecord.fetchOne(db, key: calendar.id).map { (calendar, $0) }
    }
  }
}
