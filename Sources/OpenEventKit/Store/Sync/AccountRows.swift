import Foundation
import GRDB

/// A calendar collection as discovery found it on a server (RFC 4791 §5.2).
package struct ServerCalendar: Hashable, Sendable {
  var href: String
  var title: String
  /// `#RRGGBB`, or nil when the server gives none.
  var color: String?
  /// The components it takes: `VEVENT`, `VTODO`.
  var components: Set<String>
  var isReadOnly: Bool

  package init(
    href: String, title: String, color: String?, components: Set<String>, isReadOnly: Bool
  ) {
    self.href = href
    self.title = title
    self.color = color
    self.components = components
    self.isReadOnly = isReadOnly
  }
}

/// Adding and removing CalDAV accounts: a source of type `.calDAV` with a calendar for each
/// collection (two for a collection that takes both events and to-dos, since an EventKit
/// calendar holds events or reminders), written as the server's (nothing for the outbox).
enum AccountRows {
  /// Adds an account and its calendars in one transaction; returns the source's identifier.
  static func add(
    _ db: Database, name: String, url: String, homeURL: String, user: String,
    calendars: [ServerCalendar]
  ) throws -> String {
    let sourceId = Identifier.make()
    let position = (try Int.fetchOne(db, sql: "SELECT MAX(position) FROM source") ?? 0) + 1
    try db.execute(
      sql: """
        INSERT INTO source (id, title, type, allowsCalendarAddDelete, position)
        VALUES (?, ?, ?, 1, ?)
        """,
      arguments: [sourceId, name, EKSourceType.calDAV.rawValue, position])
    try AccountRecord(sourceId: sourceId, name: name, url: url, homeURL: homeURL, user: user)
      .insert(db)
    for calendar in calendars {
      try addCalendar(db, calendar, sourceId: sourceId)
    }
    return sourceId
  }

  /// Adds the calendars of one collection found on the server (by discovery or a later
  /// sync): one for its events, one for its to-dos.
  static func addCalendar(_ db: Database, _ found: ServerCalendar, sourceId: String) throws {
    try RowWriter.writing(db, origin: .server) { rows in
      for (component, mask) in [("VEVENT", EKEntityMask.event), ("VTODO", .reminder)]
      where found.components.contains(component) {
        let position = try CalendarRecord.nextPosition(db)
        let calendar = CalendarRecord(
          id: Identifier.make(), sourceId: sourceId, title: found.title, type: .calDAV,
          color: found.color ?? CalendarRecord.color(forPosition: position), entityMask: mask,
          allowsContentModifications: !found.isReadOnly,
          availabilityMask: mask == .event ? [.busy, .free, .tentative, .unavailable] : [],
          position: position)
        try rows.insert(calendar)
        try CollectionRecord(
          calendarId: calendar.id, href: found.href, components: component
        ).insert(db)
      }
    }
  }

  /// Removes an account with everything of it kept here: its source, calendars, items and
  /// unsent changes.
  static func remove(_ db: Database, sourceId: String) throws {
    try db.execute(sql: "DELETE FROM outbox WHERE sourceId = ?", arguments: [sourceId])
    // The calendars, items, collections, resources and the account row go with the source.
    try db.execute(sql: "DELETE FROM source WHERE id = ?", arguments: [sourceId])
  }

  /// Every account, by name (ignoring case).
  static func all(_ db: Database) throws -> [AccountRecord] {
    try AccountRecord.fetchAll(db, sql: "SELECT * FROM account ORDER BY name COLLATE NOCASE")
  }

  /// Records how a sync of the account ended: the time of a sync that completed, or why one
  /// failed (the last completed sync is kept).
  static func recordSync(_ db: Database, sourceId: String, failure: String?) throws {
    if let failure {
      try db.execute(
        sql: "UPDATE account SET lastError = ? WHERE sourceId = ?", arguments: [failure, sourceId])
    } else {
      try db.execute(
        sql: "UPDATE account SET lastSync = ?, lastError = NULL WHERE sourceId = ?",
        arguments: [Date().timeIntervalSince1970, sourceId])
    }
  }

  /// The account named `name` (ignoring case).
  static func account(_ db: Database, named name: String) throws -> AccountRecord? {
    try AccountRecord.fetchOne(
      db, sql: "SELECT * FROM account WHERE name = ? COLLATE NOCASE", arguments: [name])
  }
}
