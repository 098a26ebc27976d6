import CalDAV
import Foundation
import OpenEventKit
import Synchronization

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

    // Resources with local changes still unsent (a push that failed) wait for the next push.
    let pending = try await store.pendingUIDs(sourceId: sourceId, calendarId: calendarId)
    var changed: [String] = []
    var removed: [String] = []
    var token: String?
    var ctag: String?
    // What the sync report brought with its data, written as its answer is read.
    let written = WrittenFromReport()
    do {
      var full = collection.syncToken == nil
      var changes: SyncCollectionChanges
      // The report is asked for the members' calendar data too where what it lists is what
      // the pull fetches: the changes since a token, or every member of a calendar that has
      // none here yet (a first sync). One request then does what the listing and a multiget
      // of each batch did, and its resources are written in batches while its answer is
      // read (a first sync of 100,000 events is one answer of about 90 MB from Radicale,
      // never held whole). A listing from no token into a calendar that has resources asks
      // only ETags: most members are unchanged, and their data would come for nothing.
      let deliver = write(
        into: collection, kind: kind, known: etags, skipping: pending, written: written)
      var withData = collection.syncToken != nil || etags.isEmpty
      // A calendar's first sync into an empty calendar here lists every member with its data
      // by one calendar-query, its token read first (``CalDAVClient/firstListing``): Radicale
      // answers it in a fifth of the sync report's time at 100,000 events. Refused, or where
      // the collection has no token, the sync report does it; a query refused with 400
      // (Radicale over its 10,000 events a report) has the report asked without the data,
      // which would be refused alike.
      var first: SyncCollectionChanges?
      if collection.syncToken == nil, etags.isEmpty {
        do {
          first = try await client.firstListing(collectionURL, deliver: deliver)
        } catch let error as CalDAVError where Self.fallsBackToTheReport(error) {
          Log.sync.debug(
            "\(account.name): \(collection.href) listed by its sync report: \(error)")
          if case .server(400, _, _) = error { withData = false }
        }
      }
      do {
        if let first {
          changes = first
        } else {
          changes = try await client.syncCollection(
            collectionURL, token: collection.syncToken, calendarData: withData,
            deliver: withData ? deliver : nil)
        }
      } catch CalDAVError.invalidSyncToken {
        // The token expired (or the server lost it): start again from none, which lists
        // every member with its ETag.
        changes = try await client.syncCollection(
          collectionURL, token: nil, calendarData: etags.isEmpty,
          deliver: etags.isEmpty ? deliver : nil)
        full = true
      }
      let members = changes.changed.filter { accept($0.url, in: collectionURL) }
      let fresh = members.filter { etags[$0.url.href] != .some($0.etag) || $0.etag == nil }
      // Those the report brought are written; the others are fetched.
      let done = written.hrefs
      changed = fresh.map(\.url.href).filter { !done.contains($0) }
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
    let tally = written.tally
    report.received += tally.received
    report.unreadable += tally.unreadable
    // Progress counts what the report brought as done.
    var done = tally.hrefs.count
    let total = done + changed.count
    progress?(done, total)
    let batches = stride(from: 0, to: changed.count, by: Self.batchSize).map {
      Array(changed[$0..<min($0 + Self.batchSize, changed.count)])
    }
    // The next batch is asked for while this one is read and written, so that the server
    // answers while the client works: at most one answer waits. The batches are still
    // written in order, each whole in its own transaction, so a sync stopped half way keeps
    // what it wrote, and the next one fetches the rest. Resources the report brought are
    // written already and not among them.
    let client = self.client
    func ask(_ index: Int) -> Task<[(url: URL, etag: String?, data: Data)], any Error>? {
      guard index < batches.count else { return nil }
      let urls: [URL]
      do {
        urls = try batches[index].map(url)
      } catch {
        // Said when this batch's turn comes, after the one before is written.
        return Task { throw error }
      }
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
      let resources = try asked(batch, of: fetched, in: collectionURL)
      let applied = try store.applyFetched(
        resources, calendarId: calendarId, kind: kind, skipping: pending)
      report.received += applied.written.count
      report.unreadable += applied.unreadable.map { "\($0.href): \($0.reason)" }
      done += batch.count
      progress?(done, total)
    }
    // Where the pull got to is recorded last: a sync killed before then reads the same
    // changes again, and writing them again changes nothing.
    report.receivedRemovals += try store.finishPull(
      calendarId: calendarId, removed: removed, skipping: pending, token: token, ctag: ctag)
  }

  /// Whether a first listing by calendar-query that failed so is done by the sync report
  /// instead: a refusal or an answer that cannot be used, not a failure of the connection or
  /// of the credentials, which the report would meet too.
  static func fallsBackToTheReport(_ error: CalDAVError) -> Bool {
    switch error {
    case .server, .unsupported, .answerTooLarge, .malformed, .unreadableXML, .notFound,
      .preconditionFailed:
      return true
    case .unauthorized, .unreachable, .insecure, .credentialsInURL, .otherOrigin,
      .untrustedCertificate, .invalidSyncToken, .uidConflict:
      return false
    }
  }

  /// What a sync report's answer hands over while it is read (``CalDAVClient/syncCollection(_:token:calendarData:deliver:)``):
  /// each batch written as the server's in one transaction, as the multigets' are, but only
  /// the members of the collection, with an ETag, and changed from what `known` holds; the
  /// others are left for the fetch after the report.
  func write(
    into collection: CollectionRecord, kind: EKEntityType, known etags: [String: String?],
    skipping pending: Set<String>, written: WrittenFromReport
  ) -> @Sendable ([(url: URL, etag: String?, data: Data)]) async throws -> Void {
    let sync = self
    let calendarId = collection.calendarId
    return { brought in
      let collectionURL = try sync.url(collection.href)
      var resources: [ServerResource] = []
      var hrefs: [String] = []
      for member in brought where sync.accept(member.url, in: collectionURL) {
        // Only with the ETag it came with: written without one, the next sync would fetch
        // it again.
        guard let etag = member.etag, etags[member.url.href] != .some(etag) else { continue }
        resources.append(ServerResource(href: member.url.href, etag: etag, data: member.data))
        hrefs.append(member.url.href)
      }
      guard !resources.isEmpty else { return }
      try Task.checkCancellation()
      let applied = try sync.store.applyFetched(
        resources, calendarId: calendarId, kind: kind, skipping: pending)
      written.add(
        hrefs, received: applied.written.count,
        unreadable: applied.unreadable.map { "\($0.href): \($0.reason)" })
    }
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

/// What a pull wrote from its sync report while the report's answer was read.
final class WrittenFromReport: Sendable {
  struct Tally {
    /// The hrefs written (or left for a pending local change), not to be fetched again.
    var hrefs: Set<String> = []
    var received = 0
    var unreadable: [String] = []
  }

  private let state = Mutex(Tally())

  func add(_ hrefs: [String], received: Int, unreadable: [String]) {
    state.withLock {
      $0.hrefs.formUnion(hrefs)
      $0.received += received
      $0.unreadable += unreadable
    }
  }

  var tally: Tally { state.withLock { $0 } }
  var hrefs: Set<String> { state.withLock { $0.hrefs } }
}
