import Foundation
import GRDB

// Subscribed calendars (<doc:Sync#Subscribed-calendars>): the sync agent fetches each feed
// and calls these, one transaction each.

extension SyncStore {
  /// Every subscribed calendar, by position.
  package func subscriptions() throws -> [SubscriptionRecord] {
    try database.pool.read { db in try SubscriptionRows.all(db) }
  }

  /// Adds a subscribed calendar titled `title` with the feed's first content, in one
  /// transaction; returns its calendar's identifier and what was written.
  package func addSubscription(
    url: String, title: String, color: String?, refreshInterval: TimeInterval?,
    feed: FeedDocument
  ) throws -> (calendarId: String, replacement: FeedReplacement) {
    try database.write { db in
      try SubscriptionRows.add(
        db, url: url, title: title, color: color, refreshInterval: refreshInterval, feed: feed)
    }
  }

  /// Replaces a subscribed calendar's events with the feed's, in one transaction (one
  /// `EKEventStoreChanged` for every app); nil when the subscription is gone meanwhile.
  package func replaceSubscribedContent(calendarId: String, with feed: FeedDocument) throws
    -> FeedReplacement?
  {
    try database.write { db in
      guard
        try Bool.fetchOne(
          db, sql: "SELECT EXISTS (SELECT 1 FROM subscription WHERE calendarId = ?)",
          arguments: [calendarId]) == true
      else { return nil }
      return try SubscriptionRows.replace(db, calendarId: calendarId, with: feed)
    }
  }

  /// Removes a subscribed calendar with its events (the subscription row cascades).
  package func removeSubscription(calendarId: String) throws {
    try database.write { db in
      try RowWriter.writing(db, origin: .server) { rows in
        try rows.removeCalendar(id: calendarId)
      }
    }
  }

  /// How the fetches of the subscription of `calendarId` went (``FeedState``).
  package func feedState(calendarId: String) -> FeedState {
    FeedState.read(feedStateFile(calendarId: calendarId))
  }

  /// The file of ``feedState(calendarId:)``.
  package func feedStateFile(calendarId: String) -> URL {
    FeedState.file(in: subscriptionsFolder, calendarId: calendarId)
  }

  /// Whether a subscribed calendar is due at `now` (``FeedState/nextRefresh(refreshInterval:)``):
  /// what an app's `refreshSourcesIfNecessary()` asks the sync agent for, with the accounts.
  package func hasDueSubscriptions(now: Date) throws -> Bool {
    try subscriptions().contains {
      feedState(calendarId: $0.calendarId).nextRefresh(refreshInterval: $0.refreshInterval)
        <= now
    }
  }

  /// The folder `Subscriptions` (0700) beside the calendar database: how each feed's last
  /// fetches went, and the lock of its refresh.
  package var subscriptionsFolder: URL {
    location.calendarDatabase.deletingLastPathComponent()
      .appendingPathComponent("Subscriptions", isDirectory: true)
  }
}
