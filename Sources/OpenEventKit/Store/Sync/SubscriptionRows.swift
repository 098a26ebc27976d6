import Foundation
import GRDB

/// A subscribed calendar: a calendar of the Subscribed Calendars source whose events come
/// from an .ics feed (<doc:Sync#Subscribed-calendars>), with the feed's URL and how often the
/// person asked for it to be fetched. How the last fetches went is not here but in a file of
/// the sync agent's beside the database: recording a fetch that changed nothing must not be a
/// commit, which every app would take for a change (`EKEventStoreChanged`).
package struct SubscriptionRecord: Sendable, Equatable {
  package var calendarId: String
  /// `https://` (a `webcal://` URL as given becomes it), or `http://` to this machine.
  package var url: String
  /// The interval the person gave (`--refresh`), in seconds; nil: the feed's, or the default.
  package var refreshInterval: TimeInterval?
  /// The calendar's title and colour (`#RRGGBB`).
  package var title: String
  package var color: String
}

/// What a refresh did to a subscribed calendar's rows.
package struct FeedReplacement: Sendable, Equatable {
  /// Events of UIDs and RECURRENCE-IDs the calendar did not hold.
  package var added = 0
  /// Events written again under their identifiers: matched by UID and RECURRENCE-ID.
  package var kept = 0
  /// Events the feed no longer has.
  package var removed = 0
}

/// The `subscription` table, and the writes of a subscribed calendar: made, refreshed,
/// removed, each in the caller's transaction. Every row write goes through ``RowWriter`` as
/// the server's (nothing for an outbox: the calendar has no account).
enum SubscriptionRows {
  static func createTable(_ db: Database) throws {
    try db.create(table: "subscription") { t in
      t.primaryKey("calendarId", .text).references("calendar", onDelete: .cascade)
      t.column("url", .text).notNull()
      t.column("refreshInterval", .double)  // seconds, as the person gave it; NULL: the feed's
    }
  }

  static func all(_ db: Database) throws -> [SubscriptionRecord] {
    try Row.fetchAll(
      db,
      sql: """
        SELECT subscription.calendarId, url, refreshInterval, title, color
        FROM subscription JOIN calendar ON calendar.id = subscription.calendarId
        ORDER BY calendar.position
        """
    ).map {
      SubscriptionRecord(
        calendarId: $0[0], url: $0[1], refreshInterval: $0[2], title: $0[3], color: $0[4])
    }
  }

  /// Makes the calendar, its subscription row and its first content; returns its identifier.
  /// The calendar is read-only for apps (`allowsContentModifications` false) and immutable
  /// (its title and colour are the subscription's), as the store's Holidays are.
  static func add(
    _ db: Database, url: String, title: String, color: String?, refreshInterval: TimeInterval?,
    feed: FeedDocument
  ) throws -> (calendarId: String, replacement: FeedReplacement) {
    guard
      let sourceId = try String.fetchOne(
        db, sql: "SELECT id FROM source WHERE type = ? ORDER BY position LIMIT 1",
        arguments: [EKSourceType.subscribed.rawValue])
    else {
      throw EKError(.calendarHasNoSource, "The store has no Subscribed Calendars source.")
    }
    let position = try CalendarRecord.nextPosition(db)
    let calendar = CalendarRecord(
      id: Identifier.make(), sourceId: sourceId, title: title, type: .subscription,
      color: color ?? CalendarRecord.color(forPosition: position), entityMask: .event,
      allowsContentModifications: false, isSubscribed: true, isImmutable: true,
      availabilityMask: [.busy, .free, .tentative, .unavailable], position: position)
    try RowWriter.writing(db, origin: .server) { rows in try rows.insert(calendar) }
    try db.execute(
      sql: "INSERT INTO subscription (calendarId, url, refreshInterval) VALUES (?, ?, ?)",
      arguments: [calendar.id, url, refreshInterval])
    return (calendar.id, try replace(db, calendarId: calendar.id, with: feed))
  }

  /// Replaces the calendar's events with the feed's: an event of a UID (and RECURRENCE-ID)
  /// the calendar holds is written again under its identifier, as an import of the same
  /// file again does (``ImportWriter``), so that the identifiers an app recorded still find
  /// it; the others are added, and the rows the feed no longer has removed. The caller's
  /// one transaction holds it all: a reader sees the old content or the new.
  static func replace(_ db: Database, calendarId: String, with feed: FeedDocument) throws
    -> FeedReplacement
  {
    try RowWriter.writing(db, origin: .server) { rows in
      let summary = try ImportWriter(calendarId: calendarId).write(
        events: feed.events, reminders: [], to: &rows)
      let written = rows.writtenIds
      var replacement = FeedReplacement(
        added: summary.eventsAdded, kept: summary.eventsUpdated, removed: 0)
      let present = try String.fetchAll(
        db, sql: "SELECT id FROM item WHERE calendarId = ?", arguments: [calendarId])
      for id in present where !written.contains(id) {
        try rows.removeItem(id: id)
        replacement.removed += 1
      }
      return replacement
    }
  }
}
