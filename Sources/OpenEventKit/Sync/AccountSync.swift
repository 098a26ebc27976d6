import CalDAV
import Foundation
import GRDB
import ICalendar

/// One sync of one CalDAV account (<doc:Sync>), in this order:
///
/// 1. The server's calendars: new collections become calendars here, collections gone from
///    the server take their calendars with them (a local change not yet sent in one is kept in
///    "Conflicts" first), names, colours and read-only states follow the server.
/// 2. The outbox, oldest first: calendars made (MKCALENDAR) and removed (DELETE), then each
///    changed resource sent whole (PUT with `If-Match`, or `If-None-Match: *` for a new one)
///    or removed (DELETE with `If-Match`). A 412 is a conflict, merged or settled in the
///    server's favour with the local version kept as a copy. An entry leaves the outbox in
///    the transaction that records what the server now has, so a sync killed half way sends
///    again what it had not recorded, and the server's ETag tells a repeat from a conflict.
/// 3. Each collection's changes since the last sync: `sync-collection` from the stored token
///    (RFC 6578), or where the server lacks it the CTag and an ETag listing; changed resources
///    fetched with `calendar-multiget` in batches and written as the server's.
///
/// Writes go through ``RowWriter`` like any commit, so stores of every process see them and
/// post `EKEventStoreChanged`.
struct AccountSync {
  let database: CalendarDatabase
  let account: AccountRecord
  let client: CalDAVClient
  var report: SyncReport
  /// Called with (done, total) while resources come in, for a progress bar.
  let progress: (@Sendable (Int, Int) -> Void)?

  /// Resources fetched per `calendar-multiget`, and written per transaction: what a sync
  /// stopped half way has written stays, and the next one does not fetch it again (its
  /// ETag is the server's).
  static let batchSize = CalDAVClient.multigetBatchSize

  init(
    database: CalendarDatabase, account: AccountRecord, client: CalDAVClient,
    progress: (@Sendable (Int, Int) -> Void)?
  ) {
    self.database = database
    self.account = account
    self.client = client
    self.progress = progress
    report = SyncReport(account: account.name)
  }

  mutating func run() async throws -> SyncReport {
    try await refreshCalendars()
    try await push()
    try await pull()
    return report
  }

  // MARK: Calendars

  private var home: URL {
    get throws {
      guard let url = URL(string: account.homeURL) else {
        throw SyncError(.store, "the account \(account.name) has a damaged calendar home")
      }
      return url
    }
  }

  /// Step 1: the server's collections against the calendars here.
  private mutating func refreshCalendars() async throws {
    // Collections of journals alone have nothing an EventKit calendar holds.
    let remote = try await client.calendars(home: home).filter {
      !$0.components.isDisjoint(with: ["VEVENT", "VTODO"])
    }
    let account = self.account
    let changes = try database.write { db -> [String] in
      var changes: [String] = []
      // Calendars made here and not sent yet have no collection: the push makes it.
      let known = try CollectionRecord.ofSource(db, sourceId: account.sourceId)
      // Collections of calendars removed here: the push removes them.
      let removedHere = Set(
        try OutboxEntry.pending(db, sourceId: account.sourceId).filter {
          $0.uid == nil && $0.change == Outbox.Change.removed.rawValue
        }.compactMap(\.href))
      for calendar in remote where !removedHere.contains(calendar.url.href) {
        let path = calendar.url.href
        let mine = known.filter { $0.collection.href == path }
        let name = calendar.url.lastPathComponent
        if mine.isEmpty, try Self.adoptMadeHere(db, name: name, href: path, account) {
          // Made by a sync killed before it recorded so.
          continue
        }
        if mine.isEmpty {
          try AccountRows.addCalendar(db, ServerCalendar(calendar), sourceId: account.sourceId)
          changes.append("added \(calendar.displayName ?? path)")
          continue
        }
        for entry in mine {
          var record = entry.calendar
          record.title = calendar.displayName ?? record.title
          if let color = calendar.color.flatMap(CalendarRecord.normalizedColor) {
            record.color = color
          }
          record.allowsContentModifications = !calendar.isReadOnly
          if record != entry.calendar {
            try RowWriter.writing(db, origin: .server) { rows in try rows.save(record) }
          }
        }
      }
      let remotePaths = Set(remote.map(\.url.href))
      for entry in known where !remotePaths.contains(entry.collection.href) {
        try Self.keepUnsent(db, calendarId: entry.calendar.id, sourceId: account.sourceId)
        try RowWriter.writing(db, origin: .server) { rows in
          try rows.removeCalendar(id: entry.calendar.id)
        }
        changes.append("removed \(entry.calendar.title)")
      }
      return changes
    }
    report.calendarChanges += changes
  }

  /// Links a collection named after a calendar of the account that has none yet: the push
  /// made it, and was stopped before recording it. True when it did.
  private static func adoptMadeHere(
    _ db: Database, name: String, href: String, _ account: AccountRecord
  ) throws -> Bool {
    guard let calendar = try CalendarRecord.fetchOne(db, key: name),
      calendar.sourceId == account.sourceId,
      try CollectionRecord.fetchOne(db, key: name) == nil
    else { return false }
    let component = calendar.entityMask.contains(.event) ? "VEVENT" : "VTODO"
    try CollectionRecord(calendarId: name, href: href, components: component).insert(db)
    return true
  }

  /// Copies the resources of a calendar with local changes not yet sent into "Conflicts",
  /// before the calendar goes because the server removed its collection.
  private static func keepUnsent(_ db: Database, calendarId: String, sourceId: String) throws {
    let pending = try OutboxEntry.pending(db, sourceId: sourceId).filter {
      $0.calendarId == calendarId && $0.uid != nil
    }
    for uid in Set(pending.compactMap(\.uid)) {
      if let data = try ResourceRows.document(db, calendarId: calendarId, uid: uid) {
        _ = try ConflictCopies.keep(data, db)
      }
    }
    try OutboxEntry.discard(db, sourceId: sourceId, calendarId: calendarId)
  }

  // MARK: Push

  /// Step 2: the outbox, oldest first.
  private mutating func push() async throws {
    let sourceId = account.sourceId
    let entries = try await database.pool.read { db in
      try OutboxEntry.pending(db, sourceId: sourceId)
    }
    // Every entry of a resource (or calendar) read now is settled by one send, at the place
    // of its first entry: a calendar is made before the items made in it.
    var last: [String: Int64] = [:]
    for entry in entries { last[Self.key(entry)] = max(last[Self.key(entry)] ?? 0, entry.seq ?? 0) }
    var done = Set<String>()
    for entry in entries {
      let key = Self.key(entry)
      guard done.insert(key).inserted, let upTo = last[key] else { continue }
      if let uid = entry.uid {
        try await pushResource(calendarId: entry.calendarId, uid: uid, upTo: upTo)
      } else {
        try await pushCalendar(entry, upTo: upTo)
      }
    }
  }

  private static func key(_ entry: OutboxEntry) -> String {
    "\(entry.calendarId)\n\(entry.uid ?? "")"
  }

  private mutating func pushCalendar(_ entry: OutboxEntry, upTo seq: Int64) async throws {
    let sourceId = account.sourceId
    let calendarId = entry.calendarId
    let state = try await database.pool.read { db in
      (
        try CalendarRecord.fetchOne(db, key: calendarId),
        try CollectionRecord.fetchOne(db, key: calendarId)
      )
    }
    switch (state.0, state.1) {
    case (nil, _):
      // Removed here: remove the collection, if it was ever made.
      if let href = entry.href ?? state.1?.href {
        try await client.deleteCollection(try url(href))
        report.calendarChanges.append("removed on the server: \(href)")
      }
    case (let calendar?, nil):
      // Made here: make the collection.
      let component = calendar.entityMask.contains(.event) ? "VEVENT" : "VTODO"
      // Named after the calendar: a sync killed after the server made it finds it again
      // (see refreshCalendars) instead of making a second.
      let made = try await client.makeCalendar(
        home: home, name: calendarId, displayName: calendar.title, color: calendar.color,
        components: [component])
      try database.write { db in
        try CollectionRecord(calendarId: calendarId, href: made.href, components: component)
          .insert(db)
      }
      report.calendarChanges.append("made on the server: \(calendar.title)")
    case (let calendar?, let collection?):
      try await client.updateCalendar(
        try url(collection.href), displayName: calendar.title, color: calendar.color)
    }
    try database.write { db in
      try OutboxEntry.settle(db, sourceId: sourceId, calendarId: calendarId, uid: nil, upTo: seq)
    }
  }

  private mutating func pushResource(calendarId: String, uid: String, upTo seq: Int64)
    async throws
  {
    let sourceId = account.sourceId
    let state = try await database.pool.read { db in
      (
        try CollectionRecord.fetchOne(db, key: calendarId),
        try ResourceRecord.fetchOne(db, key: ["calendarId": calendarId, "uid": uid]),
        try ResourceRows.document(db, calendarId: calendarId, uid: uid)
      )
    }
    guard let collection = state.0 else {
      // The calendar is gone (its removal sends the collection's) or was never synced.
      try database.write { db in
        try OutboxEntry.settle(db, sourceId: sourceId, calendarId: calendarId, uid: uid, upTo: seq)
      }
      return
    }
    let resource = state.1
    let local = state.2
    let href = resource?.href ?? Self.newHref(collection: collection.href, uid: uid)
    do {
      if let local {
        let etag = try await client.put(try url(href), data: local, ifMatch: resource?.etag)
        try await recordSent(
          calendarId: calendarId, uid: uid, href: href, etag: etag, data: local, upTo: seq)
        report.sent += 1
      } else if let resource {
        try await client.delete(try url(resource.href), ifMatch: resource.etag)
        try database.write { db in
          try resource.delete(db)
          try OutboxEntry.settle(
            db, sourceId: sourceId, calendarId: calendarId, uid: uid, upTo: seq)
        }
        report.sentRemovals += 1
      } else {
        // Made and removed between two syncs: nothing to send.
        try database.write { db in
          try OutboxEntry.settle(
            db, sourceId: sourceId, calendarId: calendarId, uid: uid, upTo: seq)
        }
      }
    } catch CalDAVError.preconditionFailed {
      try await resolveConflict(
        calendarId: calendarId, uid: uid, href: href, base: resource?.data, local: local,
        upTo: seq)
    } catch CalDAVError.notFound where local == nil {
      // Already gone from the server.
      try database.write { db in
        try resource?.delete(db)
        try OutboxEntry.settle(db, sourceId: sourceId, calendarId: calendarId, uid: uid, upTo: seq)
      }
    }
  }

  /// Records what the server now has of a resource sent, and settles its entries.
  private func recordSent(
    calendarId: String, uid: String, href: String, etag: String?, data: Data, upTo seq: Int64
  ) async throws {
    // A server that gives no ETag for a PUT (RFC 4791 §5.3.4 allows it): ask for it.
    var etag = etag
    if etag == nil { etag = try await client.etag(try url(href)) }
    let sourceId = account.sourceId
    try database.write { [etag] db in
      try ResourceRecord(calendarId: calendarId, uid: uid, href: href, etag: etag, data: data)
        .save(db)
      try OutboxEntry.settle(db, sourceId: sourceId, calendarId: calendarId, uid: uid, upTo: seq)
    }
  }

  /// A 412: the server's version changed since the last sync. Merged when the two sides
  /// changed different properties; otherwise the server's wins and the local version is kept
  /// in "Conflicts".
  private mutating func resolveConflict(
    calendarId: String, uid: String, href: String, base: Data?, local: Data?, upTo seq: Int64
  ) async throws {
    let sourceId = account.sourceId
    let collection = try await database.pool.read { db in
      try CollectionRecord.fetchOne(db, key: calendarId)
    }
    guard let collection else { return }
    let fetched = try await client.multiget(try url(collection.href), [try url(href)]).first
    let kind: EKEntityType = collection.components == "VTODO" ? .reminder : .event
    let calendarTitle = try await database.pool.read { db in
      try CalendarRecord.fetchOne(db, key: calendarId)?.title ?? ""
    }
    guard let server = fetched else {
      // Removed on the server while changed here: the server wins; the local version is
      // kept as a copy.
      let copy = try database.write { db -> String? in
        let copy = try local.map { try ConflictCopies.keep($0, db) }
        try ResourceRows.remove(href: href, db, calendarId: calendarId)
        try Self.removeRows(db, calendarId: calendarId, uid: uid)
        try OutboxEntry.settle(db, sourceId: sourceId, calendarId: calendarId, uid: uid, upTo: seq)
        return copy ?? nil
      }
      report.conflicts.append(
        SyncReport.Conflict(
          title: Self.title(local) ?? uid, calendarTitle: calendarTitle,
          resolution: .serverWon(copyIdentifier: copy), properties: ["removed on the server"]))
      return
    }
    let resolved = server.data
    switch ResourceMerge.merge(base: base, local: local ?? Data(), server: resolved) {
    case .same:
      try database.write { db in
        try ResourceRecord(
          calendarId: calendarId, uid: uid, href: href, etag: server.etag, data: server.data
        ).save(db)
        try OutboxEntry.settle(db, sourceId: sourceId, calendarId: calendarId, uid: uid, upTo: seq)
      }
    case .merged(let merged) where local != nil:
      let etag = try await client.put(try url(href), data: merged, ifMatch: server.etag)
      let stored = ServerResource(href: href, etag: etag, data: merged)
      try database.write { db in
        _ = try ResourceRows.apply([stored], db, calendarId: calendarId, kind: kind)
        try OutboxEntry.settle(db, sourceId: sourceId, calendarId: calendarId, uid: uid, upTo: seq)
      }
      if etag == nil {
        let fresh = try await client.etag(try url(href))
        try database.write { db in
          try ResourceRows.setETag(db, calendarId: calendarId, uid: uid, etag: fresh)
        }
      }
      report.sent += 1
      report.conflicts.append(
        SyncReport.Conflict(
          title: Self.title(merged) ?? uid, calendarTitle: calendarTitle, resolution: .merged,
          properties: []))
    case .merged, .conflict:
      // Changed differently on both sides (or removed here and changed there): the server's
      // version wins; the local one is kept.
      var properties: [String] = ["removed here"]
      if case .conflict(let clashing) = ResourceMerge.merge(
        base: base, local: local ?? Data(), server: resolved)
      {
        properties = clashing
      }
      let serverResource = ServerResource(href: href, etag: server.etag, data: server.data)
      let copy = try database.write { db -> String? in
        let copy = try local.map { try ConflictCopies.keep($0, db) }
        _ = try ResourceRows.apply([serverResource], db, calendarId: calendarId, kind: kind)
        try OutboxEntry.settle(db, sourceId: sourceId, calendarId: calendarId, uid: uid, upTo: seq)
        return copy ?? nil
      }
      report.conflicts.append(
        SyncReport.Conflict(
          title: Self.title(server.data) ?? uid, calendarTitle: calendarTitle,
          resolution: .serverWon(copyIdentifier: copy),
          properties: local == nil ? ["removed here"] : properties))
    }
  }

  private static func removeRows(_ db: Database, calendarId: String, uid: String) throws {
    try RowWriter.writing(db, origin: .server) { rows in
      for row in try ItemRows.resource(db, calendarId: calendarId, uid: uid)
      where row.seriesId == nil {
        try rows.removeItem(id: row.id)
      }
    }
  }

  // MARK: Pull

  /// Step 3: each collection's changes since the last sync.
  private mutating func pull() async throws {
    let sourceId = account.sourceId
    let collections = try await database.pool.read { db in
      try CollectionRecord.ofSource(db, sourceId: sourceId)
    }
    for entry in collections {
      do {
        try await pull(
          entry.collection, kind: entry.calendar.entityMask.contains(.event) ? .event : .reminder)
      } catch CalDAVError.notFound {
        // Removed from the server since the calendars were read: the next sync's first step
        // removes it here.
        continue
      }
    }
  }

  private mutating func pull(_ collection: CollectionRecord, kind: EKEntityType) async throws {
    let calendarId = collection.calendarId
    let sourceId = account.sourceId
    let collectionURL = try url(collection.href)
    // Only the hrefs and ETags: the documents kept beside them are not needed to compare.
    let etags = try await database.pool.read { db in
      try ResourceRows.etags(db, calendarId: calendarId)
    }

    var changed: [String] = []
    var removed: [String] = []
    var token: String?
    var ctag: String?
    do {
      var full = collection.syncToken == nil
      var changes: SyncCollectionChanges
      do {
        changes = try await client.syncCollection(collectionURL, token: collection.syncToken)
      } catch CalDAVError.invalidSyncToken {
        // The token expired (or the server lost it): start again from none, which lists
        // every member with its ETag.
        changes = try await client.syncCollection(collectionURL, token: nil)
        full = true
      }
      changed = changes.changed.filter { etags[$0.url.href] != .some($0.etag) || $0.etag == nil }
        .map(\.url.href)
      removed = changes.removed.map(\.href)
      if full {
        // A listing from no token names every member: the others are gone.
        let listed = Set(changes.changed.map(\.url.href))
        removed += etags.keys.filter { !listed.contains($0) }.sorted()
      }
      token = changes.token
    } catch CalDAVError.unsupported {
      // No sync-collection: the CTag says whether anything changed.
      let current = try await client.ctag(collectionURL)
      if current != nil, current == collection.ctag { return }
      (changed, removed) = try await listing(collectionURL, etags: etags)
      ctag = current
    }
    // Resources with local changes still unsent (a push that failed) wait for the next push.
    let pending = try await database.pool.read { db in
      Set(
        try OutboxEntry.pending(db, sourceId: sourceId).filter { $0.calendarId == calendarId }
          .compactMap(\.uid))
    }
    var done = 0
    progress?(0, changed.count)
    var start = 0
    while start < changed.count {
      let batch = Array(changed[start..<min(start + Self.batchSize, changed.count)])
      let fetched = try await client.multiget(collectionURL, try batch.map(url))
      let resources = fetched.map {
        ServerResource(href: $0.url.href, etag: $0.etag, data: $0.data)
      }
      let applied = try database.write { db in
        try ResourceRows.apply(resources, db, calendarId: calendarId, kind: kind, skipping: pending)
      }
      report.received += applied.written.count
      report.unreadable += applied.unreadable.map { "\($0.href): \($0.reason)" }
      done += batch.count
      progress?(done, changed.count)
      start += Self.batchSize
    }
    let removedCount = try database.write { [removed, token, ctag] db -> Int in
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
    report.receivedRemovals += removedCount
  }

  /// Changed and removed resources from a full ETag listing.
  private func listing(_ collection: URL, etags: [String: String?]) async throws
    -> (changed: [String], removed: [String])
  {
    let listed = try await client.etags(collection)
    var seen = Set<String>()
    var changed: [String] = []
    for entry in listed {
      let path = entry.url.href
      seen.insert(path)
      if etags[path] != .some(entry.etag) || entry.etag == nil { changed.append(path) }
    }
    let removed = etags.keys.filter { !seen.contains($0) }.sorted()
    return (changed, removed)
  }

  // MARK: Helpers

  /// A server URL from a stored href (a path on the account's server).
  private func url(_ href: String) throws -> URL {
    guard let base = URL(string: account.homeURL), let url = URL(string: href, relativeTo: base)
    else { throw SyncError(.store, "the account \(account.name) has a damaged href \(href)") }
    return url.absoluteURL
  }

  /// Where a new resource goes: its UID, made safe for a path, in its collection.
  static func newHref(collection: String, uid: String) -> String {
    let safe = uid.unicodeScalars.map { scalar -> String in
      CharacterSet.alphanumerics.contains(scalar) && scalar.isASCII
        || "-_.@".unicodeScalars.contains(scalar)
        ? String(scalar) : "_"
    }.joined()
    let name = safe.isEmpty || safe.count > 120 ? Identifier.make() : safe
    return (collection.hasSuffix("/") ? collection : collection + "/") + name + ".ics"
  }

  /// The SUMMARY of a resource's first component.
  static func title(_ data: Data?) -> String? {
    guard let data, let document = try? ICalendarDocument(parsing: [UInt8](data)) else {
      return nil
    }
    return document.calendars.flatMap(\.components).lazy.compactMap {
      $0.property("SUMMARY")?.textValue
    }.first
  }
}

extension URL {
  /// The href the store keeps for a server URL: its path, percent-encoded as the server
  /// writes it, so that it makes the URL again against the account's server.
  var href: String { path(percentEncoded: true) }
}
