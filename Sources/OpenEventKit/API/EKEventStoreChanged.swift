import Foundation

extension Notification.Name {
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// Posted, with the store as its object, after the calendar database changed: a commit by
  /// this store, another store, or another process. Commits are gathered: those made within
  /// about a tenth of a second of each other post once, and every commit is posted within a
  /// second. It is posted on a background queue (Apple's posts on the main actor; observe with
  /// `queue: .main` where that matters). Fetched objects may then be stale: `refresh()` them,
  /// or fetch again.
  ///
  /// See <doc:ObservingChanges#The-notification>.
  public static let EKEventStoreChanged = Notification.Name("EKEventStoreChangedNotification")
}

extension EKEventStore {
  /// The store's changes as an asynchronous sequence: one element per `EKEventStoreChanged`
  /// notification, for code that prefers `for await` to notification observers.
  ///
  /// ```swift
  /// for await _ in store.changes { print("The calendars changed: fetch again.") }
  /// ```
  ///
  /// An OpenEventKit addition. Changes that arrive while the loop body runs are gathered into one
  /// element. See <doc:ObservingChanges>.
  public var changes: AsyncStream<Void> { changeStreams.makeStream() }
}
