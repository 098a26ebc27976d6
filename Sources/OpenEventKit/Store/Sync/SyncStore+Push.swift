import Foundation
import GRDB

// Step 2 of a sync (the engine's `AccountSync+Push.swift`): what the outbox holds, what is
// kept of a calendar or resource to send, and, once the server answered, what it now has,
// recorded in the transaction that settles the outbox entries sent. Each `settle` deletes
// the entries of one resource (a nil `uid`: of the calendar itself) up to `seq`.

extension SyncStore {
  /// Puts in the outbox the items of the account's calendars that neither the server nor the
  /// outbox has (an older version could drop a new item when its name on the server was
  /// another UID's); returns them. Read first, so that a store with none writes nothing.
  package func recordUnsent(sourceId: String) throws -> [(calendarId: String, uid: String)] {
    func unsent(_ db: Database) throws -> [(calendarId: String, uid: String)] {
      let pending = Set(
        try OutboxEntry.pending(db, sourceId: sourceId).compactMap { entry in
          entry.uid.map { "\(entry.calendarId)\n\($0)" }
        })
      return try ResourceRows.withoutResource(db, sourceId: sourceId).filter {
        !pending.contains("\($0.calendarId)\n\($0.uid)")
      }
    }
    guard !(try database.pool.read(unsent)).isEmpty else { return [] }
    return try database.write { db in
      let found = try unsent(db)
      for item in found {
        try Outbox.recordUnsent(db, sourceId: sourceId, calendarId: item.calendarId, uid: item.uid)
      }
      return found
    }
  }

  /// The outbox entries of a source, oldest first.
  package func pendingOutbox(sourceId: String) async throws -> [OutboxEntry] {
    try await database.pool.read { db in
      try OutboxEntry.pending(db, sourceId: sourceId)
    }
  }

  /// Deletes the outbox entries one send settled.
  package func settle(sourceId: String, calendarId: String, uid: String?, upTo seq: Int64)
    throws
  {
    try database.write { db in
      try OutboxEntry.settle(db, sourceId: sourceId, calendarId: calendarId, uid: uid, upTo: seq)
    }
  }

  // MARK: Calendars

  /// A calendar to send and its collection, each nil when there is none.
  package func calendarState(calendarId: String) async throws
    -> (calendar: CalendarRecord?, collection: CollectionRecord?)
  {
    try await database.pool.read { db in
      (
        try CalendarRecord.fetchOne(db, key: calendarId),
        try CollectionRecord.fetchOne(db, key: calendarId)
      )
    }
  }

  /// Records the collection the server made for a calendar made here.
  package func recordMadeCollection(calendarId: String, href: String, components: String)
    throws
  {
    try database.write { db in
      try CollectionRecord(calendarId: calendarId, href: href, components: components)
        .insert(db)
    }
  }

  // MARK: Resources

  /// A resource to send: its calendar's collection, what the server had at the last sync,
  /// and its rows now as iCalendar text (nil when none is left: removed here).
  package func resourceState(calendarId: String, uid: String) async throws
    -> (collection: CollectionRecord?, resource: ResourceRecord?, document: Data?)
  {
    try await database.pool.read { db in
      (
        try CollectionRecord.fetchOne(db, key: calendarId),
        try ResourceRecord.fetchOne(db, key: ["calendarId": calendarId, "uid": uid]),
        try ResourceRows.document(db, calendarId: calendarId, uid: uid)
      )
    }
  }

  /// The collection of a calendar, or nil when it has none.
  package func collection(calendarId: String) async throws -> CollectionRecord? {
    try await database.pool.read { db in
      try CollectionRecord.fetchOne(db, key: calendarId)
    }
  }

  /// The title of a calendar, or nil when it is gone.
  package func calendarTitle(calendarId: String) async throws -> String? {
    try await database.pool.read { db in
      try CalendarRecord.fetchOne(db, key: calendarId)?.title
    }
  }

  /// Whether a resource of another UID than `uid` is at `href` in the collection at
  /// `collection` (``ResourceRows/isTaken(_:href:collection:by:)``).
  package func isTaken(href: String, collection: String, by uid: String) async throws -> Bool {
    try await database.pool.read { db in
      try ResourceRows.isTaken(db, href: href, collection: collection, by: uid)
    }
  }

  /// Forgets what the server had of a resource, its rows kept: the next push sends it anew.
  package func forgetResource(_ resource: ResourceRecord) throws {
    try database.write { db in _ = try resource.delete(db) }
  }

  /// Records what the server now has of a resource (sent, or the same as sent), and settles
  /// its entries.
  package func recordSent(
    calendarId: String, uid: String, href: String, etag: String?, data: Data,
    sourceId: String, upTo seq: Int64
  ) throws {
    try database.write { db in
      try ResourceRecord(calendarId: calendarId, uid: uid, href: href, etag: etag, data: data)
        .save(db)
      try OutboxEntry.settle(db, sourceId: sourceId, calendarId: calendarId, uid: uid, upTo: seq)
    }
  }

  /// Records that the server no longer has a resource removed here (its record, if any,
  /// goes), and settles its entries.
  package func recordRemoved(
    _ resource: ResourceRecord?, sourceId: String, calendarId: String, uid: String,
    upTo seq: Int64
  ) throws {
    try database.write { db in
      try resource?.delete(db)
      try OutboxEntry.settle(db, sourceId: sourceId, calendarId: calendarId, uid: uid, upTo: seq)
    }
  }

  /// Sets the ETag of a resource, once the server has said it.
  package func setETag(calendarId: String, uid: String, etag: String?) throws {
    try database.write { db in
      try ResourceRows.setETag(db, calendarId: calendarId, uid: uid, etag: etag)
    }
  }

  // MARK: Conflicts

  /// Settles a conflict in favour of the server's version of a resource, or of a version
  /// merged and sent: written into the calendar's rows as the server's, with the local
  /// version (`local`, when given) kept in "Conflicts" first. Returns the copy's identifier.
  package func settleApplying(
    _ server: ServerResource, keeping local: Data?, calendarId: String, kind: EKEntityType,
    sourceId: String, uid: String, upTo seq: Int64
  ) throws -> String? {
    try database.write { db -> String? in
      let copy = try local.map { try ConflictCopies.keep($0, db) }
      _ = try ResourceRows.apply([server], db, calendarId: calendarId, kind: kind)
      try OutboxEntry.settle(db, sourceId: sourceId, calendarId: calendarId, uid: uid, upTo: seq)
      return copy ?? nil
    }
  }

  /// Settles a conflict with a resource the server removed while it changed here: its rows
  /// go, as the server's change, with the local version (`local`, when given) kept in
  /// "Conflicts" first. Returns the copy's identifier.
  package func settleRemoving(
    href: String, keeping local: Data?, calendarId: String, sourceId: String, uid: String,
    upTo seq: Int64
  ) throws -> String? {
    try database.write { db -> String? in
      let copy = try local.map { try ConflictCopies.keep($0, db) }
      try ResourceRows.remove(href: href, db, calendarId: calendarId)
      try ResourceRows.removeRows(db, calendarId: calendarId, uid: uid)
      try OutboxEntry.settle(db, sourceId: sourceId, calendarId: calendarId, uid: uid, upTo: seq)
      return copy ?? nil
    }
  }
}
