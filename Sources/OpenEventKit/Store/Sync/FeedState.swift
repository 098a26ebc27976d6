import Foundation
import OpenEventKitPaths

/// How a subscribed calendar's fetches went (<doc:Sync#Subscribed-calendars>): the validators
/// and digest of the content the store holds, the feed's own interval, when it was last asked,
/// last refreshed, and why the last try failed; and from these, when it is next due. A JSON
/// file per subscription in the `Subscriptions` folder beside the database
/// (`SyncStore.subscriptionsFolder`), replaced whole (written aside, then renamed), and not a
/// table: a fetch that found nothing new is then no commit, and no app is woken by an
/// `EKEventStoreChanged` for it.
///
/// Lost or unreadable, it is as if never fetched: the next refresh asks without validators
/// and writes the same events again under the same identifiers.
///
/// Here rather than beside the fetching (OpenEventKitSync) because an app's
/// `refreshSourcesIfNecessary()` asks the sync agent for the feeds that are due, by the same
/// rule the agent refreshes them by.
package struct FeedState: Codable, Equatable, Sendable {
  /// The `ETag` and `Last-Modified` the store's content came with.
  package var etag: String?
  package var lastModified: String?
  /// SHA-256 of that content, hex: a feed that answers 200 with the same bytes (no
  /// validators) is not written again.
  package var digest: String?
  /// The feed's own `REFRESH-INTERVAL` or `X-PUBLISHED-TTL`, in seconds.
  package var feedInterval: TimeInterval?
  /// When the feed was last asked, whatever came of it.
  package var lastAttempt: Date?
  /// When the feed last answered with content the store now holds, or 304.
  package var lastRefresh: Date?
  /// Why the last try failed; nil once one succeeds.
  package var lastError: String?

  package init(
    etag: String? = nil, lastModified: String? = nil, digest: String? = nil,
    feedInterval: TimeInterval? = nil, lastAttempt: Date? = nil, lastRefresh: Date? = nil,
    lastError: String? = nil
  ) {
    self.etag = etag
    self.lastModified = lastModified
    self.digest = digest
    self.feedInterval = feedInterval
    self.lastAttempt = lastAttempt
    self.lastRefresh = lastRefresh
    self.lastError = lastError
  }

  // MARK: When it is due

  /// How often a feed is fetched when neither the person (`--refresh`) nor the feed says.
  package static let defaultInterval: TimeInterval = 86_400
  /// The shortest interval a feed may ask for: a feed cannot make the agent poll it more
  /// often than this (the person's `--refresh` can).
  package static let shortestFeedInterval: TimeInterval = 60
  /// The longest wait before a failed feed is tried again, whatever its interval.
  package static let longestRetry: TimeInterval = 3_600

  /// The interval in force: the person's (`refreshInterval`), else the feed's (at least
  /// ``shortestFeedInterval``), else ``defaultInterval``.
  package func interval(refreshInterval: TimeInterval?) -> TimeInterval {
    refreshInterval ?? feedInterval.map { max($0, Self.shortestFeedInterval) }
      ?? Self.defaultInterval
  }

  /// When it is next due: an interval after the last try, or sooner after a failure (at most
  /// ``longestRetry``); `distantPast` when never tried.
  package func nextRefresh(refreshInterval: TimeInterval?) -> Date {
    guard let lastAttempt else { return .distantPast }
    let interval = interval(refreshInterval: refreshInterval)
    return lastAttempt.addingTimeInterval(
      lastError == nil ? interval : min(interval, Self.longestRetry))
  }

  // MARK: The file

  /// The file of the subscription of `calendarId` in `folder`.
  package static func file(in folder: URL, calendarId: String) -> URL {
    folder.appendingPathComponent("\(calendarId).json")
  }

  /// The state kept in `file`, or a new one when there is none or it cannot be read.
  package static func read(_ file: URL) -> FeedState {
    guard let data = try? Data(contentsOf: file),
      let state = try? decoder.decode(FeedState.self, from: data)
    else { return FeedState() }
    return state
  }

  /// Replaces the file (mode 0600 in a 0700 folder) with this state.
  package func write(to file: URL) throws {
    try DataLocation.preparePrivateFile(file, ownFolder: true)
    try Self.encoder.encode(self).write(to: file, options: .atomic)
    // The file written aside had the process's umask.
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
  }

  private static let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .secondsSince1970
    encoder.outputFormatting = [.sortedKeys]
    return encoder
  }()

  private static let decoder: JSONDecoder = {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .secondsSince1970
    return decoder
  }()
}
