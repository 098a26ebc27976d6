import CalDAV
import Foundation
import OpenEventKit

extension AccountSync {
  /// Step 3: each collection's changes since the last sync.
  mutating func pull() async throws {
    let sourceId = account.sourceId
    for entry in try await store.collections(ofSource: sourceId) {
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
    let etags = try await store.etags(calendarId: calendarId)

    var changed: [String] = []
    var removed: [String] = []
    // Resources the sync report brought whole, by href: written from it, not fetched.
    var listed: [String: ServerResource] = [:]
    var token: String?
    var ctag: String?
    do {
      var full = collection.syncToken == nil
      var changes: SyncCollectionChanges
      // The report is asked for the members' calendar data too where what it lists is what
      // the pull fetches: the changes since a token, or every member of a calendar that has
      // none here yet (a first sync). One request then does what the listing and a multiget
      // of each batch did. A listing from no token into a calendar that has resources asks
      // only ETags: most members are unchanged, and their data would come for nothing.
      do {
        changes = try await client.syncCollection(
          collectionURL, token: collection.syncToken,
          calendarData: collection.syncToken != nil || etags.isEmpty)
      } catch CalDAVError.invalidSyncToken {
        // The token expired (or the server lost it): start again from none, which lists
        // every member with its ETag.
        changes = try await client.syncCollection(
          collectionURL, token: nil, calendarData: etags.isEmpty)
        full = true
      }
      let members = changes.changed.filter { accept($0.url, in: collectionURL) }
      let fresh = members.filter { etags[$0.url.href] != .some($0.etag) || $0.etag == nil }
      changed = fresh.map(\.url.href)
      for member in fresh {
        // Only with the ETag it came with: written without one, the next sync would fetch
        // it again.
        guard let etag = member.etag, let data = changes.data[member.url] else { continue }
        listed[member.url.href] = ServerResource(href: member.url.href, etag: etag, data: data)
      }
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
    let pending = try await store.pendingUIDs(sourceId: sourceId, calendarId: calendarId)
    var done = 0
    progress?(0, changed.count)
    let batches = stride(from: 0, to: changed.count, by: Self.batchSize).map {
      Array(changed[$0..<min($0 + Self.batchSize, changed.count)])
    }
    // The next batch is asked for while this one is read and written, so that the server
    // answers while the client works: at most one answer waits. The batches are still
    // written in order, each whole in its own transaction, so a sync stopped half way keeps
    // what it wrote, and the next one fetches the rest. Resources the report brought are
    // not asked for; a batch of them alone asks nothing.
    let client = self.client
    func ask(_ index: Int) -> Task<[(url: URL, etag: String?, data: Data)], any Error>? {
      guard index < batches.count else { return nil }
      let urls: [URL]
      do {
        urls = try batches[index].filter { listed[$0] == nil }.map(url)
      } catch {
        // Said when this batch's turn comes, after the one before is written.
        return Task { throw error }
      }
      if urls.isEmpty { return Task { [] } }
      return Task { try await client.multiget(collectionURL, urls) }
    }
    var next = ask(0)
    defer { next?.cancel() }
    for index in batches.indices {
      guard let asking = next else { break }
      let fetched = try await withTaskCancellationHandler {
        try await asking.value
      } onCancel: {
        asking.cancel()
      }
      next = ask(index + 1)
      let batch = batches[index]
      // The report's resources of this batch (let go of once written), and those fetched.
      let fetchedHrefs = batch.filter { listed[$0] == nil }
      let brought = batch.compactMap { listed.removeValue(forKey: $0) }
      let resources = try brought + asked(fetchedHrefs, of: fetched, in: collectionURL)
      let applied = try store.applyFetched(
        resources, calendarId: calendarId, kind: kind, skipping: pending)
      report.received += applied.written.count
      report.unreadable += applied.unreadable.map { "\($0.href): \($0.reason)" }
      done += batch.count
      progress?(done, changed.count)
    }
    // Where the pull got to is recorded last: a sync killed before then reads the same
    // changes again, and writing them again changes nothing.
    report.receivedRemovals += try store.finishPull(
      calendarId: calendarId, removed: removed, skipping: pending, token: token, ctag: ctag)
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
}
