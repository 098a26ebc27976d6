import AsyncHTTPClient
import CalDAV
import Crypto
import Foundation
import Logging
import OpenEventKit

/// The subscribed calendars of a calendar database (`ekctl subscribe`, `ekctl
/// subscriptions`, the sync agent's refreshes): read-only calendars of type `.subscription`
/// fed from an .ics URL (OpenEventKit's article Sync, "Subscribed calendars").
///
/// A refresh asks the feed conditionally (``FeedFetch``), reads what came as an import does
/// (`FeedDocument`), and replaces the calendar's events in one transaction that keeps the
/// identifiers of the events it still has. A feed that fails leaves the events as they were
/// and its reason in ``Subscription/lastError``. One refresh of a feed at a time, across
/// processes (`SyncLock` on its file beside its state).
package final class CalendarSubscriptions: Sendable {
  let store: SyncStore
  let deadline: Duration

  /// Each fetch and what came of it, at `debug`.
  static let log = Logger(label: "org.openeventkit.subscriptions")

  init(store: SyncStore, deadline: Duration = FeedFetch.defaultDeadline) {
    self.store = store
    self.deadline = deadline
  }

  /// The subscriptions of the calendar database file at `databaseFile` (created when
  /// missing); `deadline` bounds each fetch, its whole answer included.
  package convenience init(
    databaseFile: URL, deadline: Duration = FeedFetch.defaultDeadline
  ) throws {
    self.init(store: try SyncStore(databaseFile: databaseFile), deadline: deadline)
  }

  /// A subscribed calendar as `ekctl subscriptions` shows it.
  package struct Subscription: Sendable, Equatable {
    package var calendarIdentifier: String
    package var title: String
    package var color: String
    package var url: String
    /// The person's `--refresh`, in seconds.
    package var refreshInterval: TimeInterval?
    /// How its fetches went.
    package var state: FeedState

    /// The interval in force: the person's, else the feed's, else a day
    /// (`FeedState.interval(refreshInterval:)`).
    package var interval: TimeInterval { state.interval(refreshInterval: refreshInterval) }

    /// When it is next due (`FeedState.nextRefresh(refreshInterval:)`); `distantPast` when
    /// never tried.
    package var nextRefresh: Date { state.nextRefresh(refreshInterval: refreshInterval) }

    /// The feed's own interval, in seconds, as last read.
    package var feedInterval: TimeInterval? { state.feedInterval }
    package var lastAttempt: Date? { state.lastAttempt }
    package var lastRefresh: Date? { state.lastRefresh }
    package var lastError: String? { state.lastError }
  }

  /// What one refresh did.
  package enum Outcome: Sendable, Equatable {
    /// The events were replaced.
    case replaced(FeedReplacement)
    /// The feed answered 304, or the same bytes as before: nothing was written.
    case unchanged
    /// Another process is refreshing it now.
    case busy
    /// The feed failed; the events are as they were. The reason is recorded too.
    case failed(String)
  }

  // MARK: Listing

  /// Every subscription, by position, with how its fetches went.
  package func subscriptions() throws(SyncError) -> [Subscription] {
    let records: [SubscriptionRecord]
    do {
      records = try store.subscriptions()
    } catch {
      throw SyncError(translating: error)
    }
    return records.map { record in
      Subscription(
        calendarIdentifier: record.calendarId, title: record.title, color: record.color,
        url: record.url, refreshInterval: record.refreshInterval,
        state: store.feedState(calendarId: record.calendarId))
    }
  }

  /// The subscription titled `name` (ignoring case).
  package func subscription(named name: String) throws(SyncError) -> Subscription {
    let all = try subscriptions()
    if let found = all.first(where: { $0.title.lowercased() == name.lowercased() }) {
      return found
    }
    let known = all.map { "\"\($0.title)\"" }.joined(separator: ", ")
    throw SyncError(
      .noSuchSubscription,
      "no subscribed calendar is called \"\(name)\""
        + (all.isEmpty ? "; there is none" : "; there are \(known)"))
  }

  // MARK: Subscribing

  /// Subscribes to the feed at `url`: fetches it, and adds a read-only calendar of its
  /// events titled `name` (else the feed's `X-WR-CALNAME`, else the URL's host). Nothing is
  /// added when the feed fails.
  ///
  /// - Parameters:
  ///   - url: `webcal://` or `https://` (`http://` to this machine).
  ///   - color: `#RRGGBB`; nil: the next of the palette.
  ///   - refreshInterval: Seconds between refreshes; nil: the feed's, or a day.
  package func subscribe(
    url text: String, name: String?, color: String?, refreshInterval: TimeInterval?
  ) async throws(SyncError) -> (Subscription, FeedReplacement) {
    let url = try FeedFetch.normalized(text)
    let existing = try subscriptions()
    if let same = existing.first(where: { $0.url == url.absoluteString }) {
      throw SyncError(
        .subscriptionExists, "\(FeedFetch.shown(url)) is subscribed already, as \"\(same.title)\"")
    }
    let fetched = try await withClient { client throws(SyncError) in
      try await client.get(url, etag: nil, lastModified: nil)
    }
    guard case .content(let body, let etag, let lastModified) = fetched else {
      throw SyncError(.server, "\(FeedFetch.shown(url)) answered 304 to a request for it")
    }
    let feed: FeedDocument
    do {
      feed = try FeedDocument(parsing: body)
    } catch {
      throw SyncError(.server, "\(FeedFetch.shown(url)) sent \(error)")
    }
    let title = (name ?? feed.name ?? url.host(percentEncoded: false) ?? "Subscription")
    if let same = existing.first(where: { $0.title.lowercased() == title.lowercased() }) {
      throw SyncError(
        .subscriptionExists,
        "a subscribed calendar is called \"\(same.title)\" already; choose another with --name")
    }
    let added: (calendarId: String, replacement: FeedReplacement)
    do {
      added = try store.addSubscription(
        url: url.absoluteString, title: title, color: color, refreshInterval: refreshInterval,
        feed: feed)
    } catch {
      throw SyncError(translating: error)
    }
    let now = Date()
    let state = FeedState(
      etag: etag, lastModified: lastModified, digest: Self.digest(body),
      feedInterval: feed.refreshInterval, lastAttempt: now, lastRefresh: now)
    try write(state, calendarId: added.calendarId)
    return (try subscription(calendarId: added.calendarId), added.replacement)
  }

  /// Removes the subscribed calendar titled `name` (ignoring case) and its events.
  package func unsubscribe(named name: String) throws(SyncError) -> Subscription {
    let found = try subscription(named: name)
    do {
      try store.removeSubscription(calendarId: found.calendarIdentifier)
    } catch {
      throw SyncError(translating: error)
    }
    try? FileManager.default.removeItem(
      at: store.feedStateFile(calendarId: found.calendarIdentifier))
    try? FileManager.default.removeItem(at: lockFile(found.calendarIdentifier))
    return found
  }

  // MARK: Refreshing

  /// Refreshes the subscriptions due at `now` (or every one, `all`), one after the other;
  /// each outcome by subscription.
  package func refresh(all: Bool = false, now: Date = Date()) async throws(SyncError)
    -> [(Subscription, Outcome)]
  {
    var outcomes: [(Subscription, Outcome)] = []
    for subscription in try subscriptions() where all || subscription.nextRefresh <= now {
      outcomes.append((subscription, await refresh(subscription)))
    }
    return outcomes
  }

  /// When the next subscription is due; nil when there is none.
  package func nextDue() -> Date? {
    ((try? subscriptions()) ?? []).map(\.nextRefresh).min()
  }

  /// Refreshes one subscription: asks its feed, and replaces its events when they changed.
  /// Never throws: a failure is recorded with the subscription, and returned.
  package func refresh(_ subscription: Subscription) async -> Outcome {
    let id = subscription.calendarIdentifier
    let lock: SyncLock
    do {
      lock = try SyncLock(
        file: lockFile(id),
        busy: "the subscription \"\(subscription.title)\" is being refreshed by another process")
    } catch {
      return error.code == .busy ? .busy : .failed(error.message)
    }
    defer { lock.release() }
    var state = store.feedState(calendarId: id)
    state.lastAttempt = Date()
    let outcome: Outcome
    do {
      outcome = try await fetchAndReplace(subscription, state: &state)
      state.lastError = nil
      state.lastRefresh = state.lastAttempt
    } catch {
      Self.log.debug("\(subscription.title): \(error.message)")
      state.lastError = error.message
      outcome = .failed(error.message)
    }
    do {
      try write(state, calendarId: id)
    } catch {
      return .failed(error.message)
    }
    return outcome
  }

  private func fetchAndReplace(_ subscription: Subscription, state: inout FeedState)
    async throws(SyncError) -> Outcome
  {
    let url = try FeedFetch.normalized(subscription.url)
    let (etag, lastModified) = (state.etag, state.lastModified)
    let answer = try await withClient { client throws(SyncError) in
      try await client.get(url, etag: etag, lastModified: lastModified)
    }
    guard case .content(let body, let etag, let lastModified) = answer else { return .unchanged }
    let digest = Self.digest(body)
    if digest == state.digest {
      // The same bytes without a 304: nothing to write, and so no change for any app.
      (state.etag, state.lastModified) = (etag, lastModified)
      return .unchanged
    }
    let feed: FeedDocument
    do {
      feed = try FeedDocument(parsing: body)
    } catch {
      throw SyncError(.server, "\(FeedFetch.shown(url)) sent \(error)")
    }
    let replacement: FeedReplacement?
    do {
      replacement = try store.replaceSubscribedContent(
        calendarId: subscription.calendarIdentifier, with: feed)
    } catch {
      throw SyncError(translating: error)
    }
    guard let replacement else {
      throw SyncError(.noSuchSubscription, "\"\(subscription.title)\" was unsubscribed meanwhile")
    }
    // Recorded only now: the validators and digest are those of what the store holds.
    state.etag = etag
    state.lastModified = lastModified
    state.digest = digest
    state.feedInterval = feed.refreshInterval
    return .replaced(replacement)
  }

  // MARK: Parts

  private func subscription(calendarId: String) throws(SyncError) -> Subscription {
    guard let found = try subscriptions().first(where: { $0.calendarIdentifier == calendarId })
    else { throw SyncError(.noSuchSubscription, "the subscription is gone meanwhile") }
    return found
  }

  private func write(_ state: FeedState, calendarId: String) throws(SyncError) {
    let file = store.feedStateFile(calendarId: calendarId)
    do {
      try state.write(to: file)
    } catch {
      throw SyncError(.store, "cannot write \(file.path): \(error)")
    }
  }

  private func lockFile(_ calendarId: String) -> URL {
    store.subscriptionsFolder.appendingPathComponent("\(calendarId).lock")
  }

  /// Runs `body` with a fetcher on an HTTP client of its own, shut down after.
  private func withClient<T: Sendable>(
    _ body: (FeedFetch) async throws(SyncError) -> T
  ) async throws(SyncError) -> T {
    // The deadline bounds the whole answer (FeedFetch); the read timeout, past it, only
    // stands behind it, so that a silent feed is always said the deadline's way.
    var configuration = HTTPClient.Configuration(
      tlsConfiguration: CalDAVClient.tlsConfiguration(), redirectConfiguration: .disallow,
      timeout: .init(
        connect: .seconds(10), read: .seconds(Int64(deadline.components.seconds) + 30)))
    configuration.connectionPool.retryConnectionEstablishment = false
    let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    let result: Result<T, SyncError>
    do {
      result = .success(try await body(FeedFetch(http: http, deadline: deadline)))
    } catch {
      result = .failure(error)
    }
    try? await http.shutdown()
    return try result.get()
  }

  static func digest(_ data: Data) -> String {
    SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
  }
}
