import Foundation
import GRDB

// Step 3 of a sync (the engine's `AccountSync+Pull.swift`): what is kept of each collection,
// and the server's changes written in, a batch per transaction, the place a pull got to
// recorded last.

extension SyncStore {
  /// The calendars of a source that are collections, with their collections, by position.
  package func collections(ofSource sourceId: String) async throws
    -> [(calendar: CalendarRecord, collection: CollectionRecord)]
  {
    try await database.pool.read { db in
      try CollectionRecord.ofSource(db, sourceId: sourceId)
    }
  }

  /// The ETag of each resource of a calendar, by href (nil when the server gave none): only
  /// these, since the documents kept beside them are not needed to compare.
  package func etags(calendarId: String) async throws -> [String: String?] {
    try await database.pool.read { db in
      try ResourceRows.etags(db, calendarId: calendarId)
    }
  }

  /// The UIDs of a calendar with local changes not yet sent: a pull leaves them for the push.
  package func pendingUIDs(sourceId: String, calendarId: String) async throws -> Set<String> {
    try await database.pool.read { db in
      Set(
        try OutboxEntry.pending(db, sourceId: sourceId).filter { $0.calendarId == calendarId }
          .compactMap(\.uid))
    }
  }

  /// Writes a batch of the server's resources into a calendar of `kind`, in one transaction
  /// (``ResourceRows/apply(_:_:calendarId:kind:skipping:)``).
  package func applyFetched(
    _ resources: [ServerResource], calendarId: String, kind: EKEntityType,
    skipping pending: Set<String>
  ) throws -> ResourceRows.Applied {
    try database.write { db in
      try ResourceRows.apply(resources, db, calendarId: calendarId, kind: kind, skipping: pending)
    }
  }

  /// Removes the resources the server no longer has (but those in `pending`), then records
  /// where the pull got to: the sync token or the CTag, each kept when nil. Returns how many
  /// were removed.
  package func finishPull(
    calendarId: String, removed: [String], skipping pending: Set<String>, token: String?,
    ctag: String?
  ) throws -> Int {
    try database.write { db -> Int in
      var count = 0
      for href in removed {
        if try ResourceRows.remove(href: href, db, calendarId: calendarId, skipping: pending) != nil
        {
          count += 1
        }
      }
      // Recorded last: a sync killed before this point reads the same changes again, and
      // writing them again changes nothing.
      try CollectionRecord.recordPulled(db, calendarId: calendarId, token: token, ctag: ctag)
      return count
    }
  }
}
