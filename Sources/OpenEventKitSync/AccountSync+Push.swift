import CalDAV
import Foundation
import OpenEventKit

extension AccountSync {
  /// Step 2: the outbox, oldest first.
  mutating func push() async throws {
    let sourceId = account.sourceId
    try recordUnsent()
    let entries = try await store.pendingOutbox(sourceId: sourceId)
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
    for item in try store.recordUnsent(sourceId: account.sourceId) {
      Log.sync.notice("\(account.name): \(item.uid) was never sent to the server; sending it")
    }
  }

  private mutating func pushCalendar(_ entry: OutboxEntry, upTo seq: Int64) async throws {
    let sourceId = account.sourceId
    let calendarId = entry.calendarId
    let state = try await store.calendarState(calendarId: calendarId)
    switch (state.calendar, state.collection) {
    case (nil, _):
      // Removed here: remove the collection, if it was ever made.
      if let href = entry.href ?? state.collection?.href, try inHome(href) {
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
      try store.recordMadeCollection(calendarId: calendarId, href: made.href, components: component)
      report.calendarChanges.append("made on the server: \(calendar.title)")
    case (let calendar?, let collection?):
      if try inHome(collection.href) {
        try await client.updateCalendar(
          try url(collection.href), displayName: calendar.title, color: calendar.color)
      }
    }
    try store.settle(sourceId: sourceId, calendarId: calendarId, uid: nil, upTo: seq)
  }

  private mutating func pushResource(calendarId: String, uid: String, upTo seq: Int64)
    async throws
  {
    let sourceId = account.sourceId
    let state = try await store.resourceState(calendarId: calendarId, uid: uid)
    guard let collection = state.collection else {
      // The calendar is gone (its removal sends the collection's) or was never synced.
      try store.settle(sourceId: sourceId, calendarId: calendarId, uid: uid, upTo: seq)
      return
    }
    var resource = state.resource
    let local = state.document
    if let stored = resource, !(try isMember(stored.href, of: collection)) {
      // Kept by an older version from a server's answer naming a path outside the
      // collection: nothing is sent there. The item is sent anew, or its removal is done.
      Log.sync.warning(
        "\(account.name): \(uid) was kept at \(stored.href), outside \(collection.href); nothing is sent there"
      )
      try store.forgetResource(stored)
      resource = nil
    }
    var href = resource?.href ?? ""
    do {
      if let local, let resource {
        let etag = try await client.put(try url(href), data: local, ifMatch: resource.etag)
        CrashPoint.put.passed()
        try await recordSent(
          calendarId: calendarId, uid: uid, href: href, etag: etag, data: local, upTo: seq)
        report.sent += 1
      } else if let local {
        switch try await putNew(local, uid: uid, in: collection) {
        case .sent(let to, let etag):
          CrashPoint.put.passed()
          href = to
          try await recordSent(
            calendarId: calendarId, uid: uid, href: to, etag: etag, data: local, upTo: seq)
          report.sent += 1
        case .taken(let at):
          // The server has this UID there already: settled below as any 412 is.
          href = at
          throw CalDAVError.preconditionFailed
        case .heldElsewhere:
          throw CalDAVError.uidConflict
        }
      } else if let resource {
        try await client.delete(try url(resource.href), ifMatch: resource.etag)
        try store.recordRemoved(
          resource, sourceId: sourceId, calendarId: calendarId, uid: uid, upTo: seq)
        report.sentRemovals += 1
      } else {
        // Made and removed between two syncs: nothing to send.
        try store.settle(sourceId: sourceId, calendarId: calendarId, uid: uid, upTo: seq)
      }
    } catch CalDAVError.preconditionFailed {
      try await resolveConflict(
        calendarId: calendarId, uid: uid, href: href, base: resource?.data, local: local,
        upTo: seq)
    } catch CalDAVError.uidConflict where resource == nil {
      // Another resource on the server holds this UID, under a name the server does not say:
      // the server's version wins, as in any conflict, and comes in with this sync's pull;
      // the local one is kept as a copy in "Conflicts".
      let copy = try store.settleRemoving(
        href: href, keeping: local, calendarId: calendarId, sourceId: sourceId, uid: uid,
        upTo: seq)
      report.conflicts.append(
        SyncReport.Conflict(
          title: Self.title(local) ?? uid,
          calendarTitle: try await store.calendarTitle(calendarId: calendarId) ?? "",
          resolution: .serverWon(copyIdentifier: copy),
          properties: ["UID held by another resource on the server"]))
    } catch CalDAVError.notFound where local == nil {
      // Already gone from the server.
      try store.recordRemoved(
        resource, sourceId: sourceId, calendarId: calendarId, uid: uid, upTo: seq)
    }
  }

  /// Where a resource new to the server went, or the name where the server has its UID
  /// already (sent before a sync was stopped, or by another client): a conflict.
  private enum NewResource {
    case sent(href: String, etag: String?)
    case taken(href: String)
    /// The server holds the UID in a resource of another name, which it does not say.
    case heldElsewhere
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
      if try await store.isTaken(href: href, collection: collection.href, by: uid) { continue }
      do {
        return .sent(
          href: href, etag: try await client.put(try url(href), data: data, ifMatch: nil))
      } catch CalDAVError.preconditionFailed {
        let there = try await fetch(href, in: collection)
        if let there, Self.uid(there.data) != uid { continue }
        return .taken(href: href)
      } catch CalDAVError.uidConflict {
        // No other name would be taken either (CALDAV:no-uid-conflict, RFC 4791 §5.3.2.1).
        return .heldElsewhere
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
    try store.recordSent(
      calendarId: calendarId, uid: uid, href: href, etag: etag, data: data,
      sourceId: account.sourceId, upTo: seq)
  }

  /// A 412: the server's version changed since the last sync. Merged when the two sides
  /// changed different properties; otherwise the server's wins and the local version is kept
  /// in "Conflicts".
  private mutating func resolveConflict(
    calendarId: String, uid: String, href: String, base: Data?, local: Data?, upTo seq: Int64
  ) async throws {
    let sourceId = account.sourceId
    guard let collection = try await store.collection(calendarId: calendarId) else { return }
    let fetched = try await fetch(href, in: collection)
    let kind: EKEntityType = collection.components == "VTODO" ? .reminder : .event
    let calendarTitle = try await store.calendarTitle(calendarId: calendarId) ?? ""
    guard let server = fetched else {
      // Removed on the server while changed here: the server wins; the local version is
      // kept as a copy.
      let copy = try store.settleRemoving(
        href: href, keeping: local, calendarId: calendarId, sourceId: sourceId, uid: uid,
        upTo: seq)
      report.conflicts.append(
        SyncReport.Conflict(
          title: Self.title(local) ?? uid, calendarTitle: calendarTitle,
          resolution: .serverWon(copyIdentifier: copy), properties: ["removed on the server"]))
      return
    }
    let resolved = server.data
    switch ResourceMerge.merge(base: base, local: local ?? Data(), server: resolved) {
    case .same:
      try store.recordSent(
        calendarId: calendarId, uid: uid, href: href, etag: server.etag, data: server.data,
        sourceId: sourceId, upTo: seq)
    case .merged(let merged) where local != nil:
      let etag = try await client.put(try url(href), data: merged, ifMatch: server.etag)
      CrashPoint.put.passed()
      let stored = ServerResource(href: href, etag: etag, data: merged)
      _ = try store.settleApplying(
        stored, keeping: nil, calendarId: calendarId, kind: kind, sourceId: sourceId, uid: uid,
        upTo: seq)
      if etag == nil {
        let fresh = try await client.etag(try url(href))
        try store.setETag(calendarId: calendarId, uid: uid, etag: fresh)
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
      let copy = try store.settleApplying(
        serverResource, keeping: local, calendarId: calendarId, kind: kind, sourceId: sourceId,
        uid: uid, upTo: seq)
      report.conflicts.append(
        SyncReport.Conflict(
          title: Self.title(server.data) ?? uid, calendarTitle: calendarTitle,
          resolution: .serverWon(copyIdentifier: copy),
          properties: local == nil ? ["removed here"] : properties))
    }
  }
}
