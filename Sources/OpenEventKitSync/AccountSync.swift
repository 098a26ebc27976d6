import CalDAV
import Foundation
import ICalendar
import OpenEventKit

/// One sync of one CalDAV account (OpenEventKit's article Sync), in this order:
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
///    (RFC 6578), asked for the members' data too when it lists only changes or the calendar
///    is new here (a new calendar is first asked by one `calendar-query` of every resource
///    under the token read before it), or where the server lacks it the CTag and an ETag
///    listing; changed resources the answer did not bring fetched with `calendar-multiget`,
///    and written as the server's in batches, those the answer brought while it is read.
///
/// The sync talks to the server and decides; what it reads and records goes through
/// `SyncStore`, one transaction a call, and its writes through `RowWriter` like any commit,
/// so stores of every process see them and post `EKEventStoreChanged`. The steps are in
/// `AccountSync+Calendars.swift`, `+Push.swift` and `+Pull.swift`.
///
/// Every href a server gives is taken only inside the collection it was asked of, on the
/// account's server, and only when listed or asked for; the rest are logged and ignored, and
/// nothing is ever sent outside the collection (OpenEventKit's article Sync, "What is
/// synced").
struct AccountSync {
  let store: SyncStore
  let account: AccountRecord
  let client: CalDAVClient
  var report: SyncReport
  /// Called with (done, total) while resources come in, for a progress bar.
  let progress: (@Sendable (Int, Int) -> Void)?

  /// Resources fetched per `calendar-multiget`, and written per transaction (also those the
  /// sync report brought): what a sync stopped half way has written stays, and the next one
  /// does not fetch it again (its ETag is the server's).
  static let batchSize = CalDAVClient.multigetBatchSize

  init(
    store: SyncStore, account: AccountRecord, client: CalDAVClient,
    progress: (@Sendable (Int, Int) -> Void)?
  ) {
    self.store = store
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

  // MARK: Helpers

  /// The account's calendar home, where calendars made here are made.
  var home: URL {
    get throws {
      guard let url = URL(string: account.homeURL) else {
        throw SyncError(.store, "the account \(account.name) has a damaged calendar home")
      }
      return url
    }
  }

  /// A server URL from a stored href (a path on the account's server, never another's).
  func url(_ href: String) throws -> URL {
    guard let base = URL(string: account.homeURL),
      let url = URL(string: href, relativeTo: base)?.absoluteURL, Origin(url) == Origin(base)
    else { throw SyncError(.store, "the account \(account.name) has a damaged href \(href)") }
    return url
  }

  /// Whether a stored href is a member of a collection (``CalDAVClient/isMember(_:of:)``).
  func isMember(_ href: String, of collection: CollectionRecord) throws -> Bool {
    guard let member = try? url(href) else { return false }
    return CalDAVClient.isMember(member, of: try url(collection.href))
  }

  /// Whether a stored collection href is in the account's calendar home; logged when not.
  func inHome(_ href: String) throws -> Bool {
    if let collection = try? url(href), CalDAVClient.isMember(collection, of: try home) {
      return true
    }
    Log.sync.warning(
      "\(account.name): the calendar \(href) is outside \(account.homeURL); nothing is sent to it")
    return false
  }

  /// Whether an href a server listed is a member of the collection listed; logged when not.
  func accept(_ url: URL, in collection: URL) -> Bool {
    if CalDAVClient.isMember(url, of: collection) { return true }
    Log.sync.warning(
      "\(account.name): the server listed \(CalDAVClient.shown(url)) for \(collection.href), outside it; ignored"
    )
    return false
  }

  /// The resources of a multiget answer that were asked for (`hrefs`), each under the href
  /// asked, however the server wrote it (`%40` for `@`); once each. Any other is logged and
  /// ignored: a server cannot slip in a resource the sync did not ask for.
  func asked(
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
  func fetch(_ href: String, in collection: CollectionRecord) async throws
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
