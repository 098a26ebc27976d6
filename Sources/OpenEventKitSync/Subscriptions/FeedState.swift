import Foundation
import OpenEventKit
import OpenEventKitPaths

/// How a subscribed calendar's fetches went: the validators and digest of the content the
/// store holds, the feed's own interval, when it was last asked, last refreshed, and why the
/// last try failed. A JSON file per subscription in the `Subscriptions` folder beside the
/// database (`SyncStore.subscriptionsFolder`), replaced whole (written aside, then renamed),
/// and not a table: a fetch that found nothing new is then no commit, and no app is woken by
/// an `EKEventStoreChanged` for it.
///
/// Lost or unreadable, it is as if never fetched: the next refresh asks without validators
/// and writes the same events again under the same identifiers.
struct FeedState: Codable, Equatable, Sendable {
  /// The `ETag` and `Last-Modified` the store's content came with.
  var etag: String?
  var lastModified: String?
  /// SHA-256 of that content, hex: a feed that answers 200 with the same bytes (no
  /// validators) is not written again.
  var digest: String?
  /// The feed's own `REFRESH-INTERVAL` or `X-PUBLISHED-TTL`, in seconds.
  var feedInterval: TimeInterval?
  /// When the feed was last asked, whatever came of it.
  var lastAttempt: Date?
  /// When the feed last answered with content the store now holds, or 304.
  var lastRefresh: Date?
  /// Why the last try failed; nil once one succeeds.
  var lastError: String?

  /// The file of the subscription of `calendarId` in `folder`.
  static func file(in folder: URL, calendarId: String) -> URL {
    folder.appendingPathComponent("\(calendarId).json")
  }

  /// The state kept in `file`, or a new one when there is none or it cannot be read.
  static func read(_ file: URL) -> FeedState {
    guard let data = try? Data(contentsOf: file),
      let state = try? decoder.decode(FeedState.self, from: data)
    else { return FeedState() }
    return state
  }

  /// Replaces the file (mode 0600 in a 0700 folder) with this state.
  func write(to file: URL) throws(SyncError) {
    do {
      try DataLocation.preparePrivateFile(file, ownFolder: true)
      try Self.encoder.encode(self).write(to: file, options: .atomic)
    } catch {
      throw SyncError(.store, "cannot write \(file.path): \(error)")
    }
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
