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
///
/// Every href a server gives is taken only inside the collection it was asked of, on the
/// account's server, and only when listed or asked for; the rest are logged and ignored, and
/// nothing is ever sent outside the collection (<doc:Sync#What-is-synced>).
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
    try recordUnsent()
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

  /// Puts in the outbox the items of the account's calendars that neither the server nor the
  /// outbox has: an older version could drop a new item when its name on the server was
  /// another UID's, and later syncs said "up to date". Nothing made here stays unsent.
  private func recordUnsent() throws {
    let sourceId = account.sourceId
    func unsent(_ db: Database) throws -> [(calendarId: String, uid: String)] {
      let pending = Set(
        try OutboxEntry.pending(db, sourceId: sourceId).compactMap { entry in
          entry.uid.map { "\(entry.calendarId)\n\($0)" }
        })
      return try ResourceRows.withoutResource(db, sourceId: sourceId).filter {
        !pending.contains("\($0.calendarId)\n\($0.uid)")
      }
    }
    guard !(try database.pool.read(unsent)).isEmpty else { return }
    let found = try database.write { db in
      let found = try unsent(db)
      for item in found {
        try Outbox.recordUnsent(db, sourceId: sourceId, calendarId: item.calendarId, uid: item.uid)
      }
      return found
    }
    for item in found {
      Log.sync.notice("\(account.name): \(item.uid) was never sent to the server; sending it")
    }
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
      if let href = entry.href ?? state.1?.href, try inHome(href) {
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
      if try inHome(collection.href) {
        try await client.updateCalendar(
          try url(collection.href), displayName: calendar.title, color: calendar.color)
      }
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
    var resource = state.1
    let local = state.2
    if let stored = resource, !(try isMember(stored.href, of: collection)) {
      // Kept by an older version from a server's answer naming a path outside the
      // collection: nothing is sent there. The item is sent anew, or its removal is done.
      Log.sync.warning(
        "\(account.name): \(uid) was kept at \(stored.href), outside \(collection.href); nothing is sent there"
      )
      try database.write { db in _ = try stored.delete(db) }
      resource = nil
    }
    var href = resource?.href ?? ""
    do {
      if let local, let resource {
        let etag = try await client.put(try url(href), data: local, ifMatch: resource.etag)
        try await recordSent(
          calendarId: calendarId, uid: uid, href: href, etag: etag, data: local, upTo: seq)
        report.sent += 1
      } else if let local {
        switch try await putNew(local, uid: uid, in: collection) {
        case .sent(let to, let etag):
          href = to
          try await recordSent(
            calendarId: calendarId, uid: uid, href: to, etag: etag, data: local, upTo: seq)
          report.sent += 1
        case .taken(let at):
          // The server has this UID there already: settled below as any 412 is.
          href = at
          throw CalDAVError.preconditionFailed
        }
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

  /// Where a resource new to the server went, or the name where the server has its UID
  /// already (sent before a sync was stopped, or by another client): a conflict.
  private enum NewResource {
    case sent(href: String, etag: String?)
    case taken(href: String)
  }

  /// Sends a resource the server has never had from here, to the first of its names
  /// (``ResourceNames``) that no other UID holds, here or on the server: two UIDs of one
  /// safe name (`team/meeting`, `team_meeting`) both reach it, and neither passes for a
  /// conflict of the other. Past those names, a random one.
  private func putNew(_ data: Data, uid: String, in collection: CollectionRecord) async throws
    -> NewResource
  {
    let names = ResourceNames.candidates(uid: uid) + [Identifier.make()]
    for href in names.map({ ResourceNames.href(collection: collection.href, name: $0) }) {
      let taken = try await database.pool.read { db in
        try ResourceRows.isTaken(db, href: href, collection: collection.href, by: uid)
      }
      if taken { continue }
      do {
        return .sent(
          href: href, etag: try await client.put(try url(href), data: data, ifMatch: nil))
      } catch CalDAVError.preconditionFailed {
        let there = try await fetch(href, in: collection)
        if let there, Self.uid(there.data) != uid { continue }
        return .taken(href: href)
      }
    }
    throw SyncError(.server, "the server took no name for \(uid) in \(collection.href)")
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
    let fetched = try await fetch(href, in: collection)
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
      let members = changes.changed.filter { accept($0.url, in: collectionURL) }
      changed = members.filter { etags[$0.url.href] != .some($0.etag) || $0.etag == nil }
        .map(\.url.href)
      removed = changes.removed.filter { accept($0, in: collectionURL) }.map(\.href)
      if full {
        // A listing from no token names every member: the others are gone.
        let listed = Set(members.map(\.url.href))
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
      let resources = try asked(batch, of: fetched, in: collectionURL)
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
    let listed = try await client.etags(collection).filter { accept($0.url, in: collection) }
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

  /// A server URL from a stored href (a path on the account's server, never another's).
  private func url(_ href: String) throws -> URL {
    guard let base = URL(string: account.homeURL),
      let url = URL(string: href, relativeTo: base)?.absoluteURL, Origin(url) == Origin(base)
    else { throw SyncError(.store, "the account \(account.name) has a damaged href \(href)") }
    return url
  }

  /// Whether a stored href is a member of a collection (``CalDAVClient/isMember(_:of:)``).
  private func isMember(_ href: String, of collection: CollectionRecord) throws -> Bool {
    guard let member = try? url(href) else { return false }
    return CalDAVClient.isMember(member, of: try url(collection.href))
  }

  /// Whether a stored collection href is in the account's calendar home; logged when not.
  private func inHome(_ href: String) throws -> Bool {
    if let collection = try? url(href), CalDAVClient.isMember(collection, of: try home) {
      return true
    }
    Log.sync.warning(
      "\(account.name): the calendar \(href) is outside \(account.homeURL); nothing is sent to it")
    return false
  }

  /// Whether an href a server listed is a member of the collection listed; logged when not.
  private func accept(_ url: URL, in collection: URL) -> Bool {
    if CalDAVClient.isMember(url, of: collection) { return true }
    Log.sync.warning(
      "\(account.name): the server listed \(CalDAVClient.shown(url)) for \(collection.href), outside it; ignored"
    )
    return false
  }

  /// The resources of a multiget answer that were asked for (`hrefs`), each under the href
  /// asked, however the server wrote it (`%40` for `@`); once each. Any other is logged and
  /// ignored: a server cannot slip in a resource the sync did not ask for.
  private func asked(
    _ hrefs: [String], of fetched: [(url: URL, etag: String?, data: Data)], in collection: URL
  ) throws -> [ServerResource] {
    var wanted: [String: String] = [:]
    for href in hrefs {
      if let key = CalDAVClient.memberKey(try url(href)) { wanted[key] = href }
    }
    var resources: [ServerResource] = []
    for resource in fetched {
      guard let key = CalDAVClient.memberKey(resource.url),
        let href = wanted.removeValue(forKey: key)
      else {
        Log.sync.warning(
          "\(account.name): the server answered \(CalDAVClient.shown(resource.url)) for \(collection.href), which was not asked for; ignored"
        )
        continue
      }
      resources.append(ServerResource(href: href, etag: resource.etag, data: resource.data))
    }
    return resources
  }

  /// The server's version of one resource of a collection, or nil when it has none.
  private func fetch(_ href: String, in collection: CollectionRecord) async throws
    -> ServerResource?
  {
    let collectionURL = try url(collection.href)
    let fetched = try await client.multiget(collectionURL, [try url(href)])
    return try asked([href], of: fetched, in: collectionURL).first
  }

  /// The UID of a resource's first component.
  static func uid(_ data: Data) -> String? {
    guard let document = try? ICalendarDocument(parsing: [UInt8](data)) else { return nil }
    return document.calendars.flatMap(\.components).lazy.compactMap {
      $0.property("UID")?.textValue
    }.first
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
