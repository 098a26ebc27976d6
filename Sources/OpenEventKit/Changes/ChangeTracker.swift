import Foundation

/// What other apps did to the items an app cares about: the tracker keeps those items as
/// they were when the app last looked (a *snapshot*, made by the app: a state per key), and
/// after the store changes, compares. An OpenEventKit addition (docs/ObservingChanges.md):
/// on Apple's platforms each app writes this itself; here `ekctl watch` and the samples share
/// it.
///
/// `EKEventStoreChanged` says only that something changed (its `userInfo` is nil), and comes
/// on a background queue about a tenth of a second after a commit, the app's own included. So
/// the observer only raises a flag and tells ``onStoreChanged``; ``changes()`` snapshots and
/// compares when asked, on the app's own thread, and only when the flag is up.
///
/// The app's own commands change items too, and those changes are not news to the person.
/// After a command, ``settle()`` takes what the app sees as the new reference; the keys the
/// command ``claim(_:)``ed are its own, and any other difference found then was made by
/// another app while the command ran (while the person answered a form, say).
///
/// ```swift
/// let tracker = ChangeTracker<String, Date> { store in store.calendarItemStamps() }
/// tracker.start(with: store)
/// …
/// for change in tracker.changes() { print(change.key, change.before == nil ? "added" : "changed") }
/// ```
public final class ChangeTracker<Key: Hashable & Comparable, State: Equatable>: @unchecked Sendable
{
  /// One item's difference: `before` is nil for an item that appeared, `after` for one that
  /// went.
  public struct Change {
    public let key: Key
    public let before: State?
    public let after: State?
  }

  /// Called on the notification's queue each time the store changed: where a program that
  /// shows changes as they happen (`ekctl watch`) schedules ``changes()``.
  public var onStoreChanged: (@Sendable () -> Void)? {
    get { flag.onRaise }
    set { flag.onRaise = newValue }
  }

  private let snapshot: (EKEventStore) -> [Key: State]
  private var store: EKEventStore?
  private var seen: [Key: State] = [:]
  private var claims: [(Key) -> Bool] = []
  private let flag = StoreChangedFlag()
  private var observer: (any NSObjectProtocol)?

  /// A tracker of the states `snapshot` reads from a store.
  public init(snapshot: @escaping (EKEventStore) -> [Key: State]) {
    self.snapshot = snapshot
  }

  deinit {
    if let observer { NotificationCenter.default.removeObserver(observer) }
  }

  /// Starts watching `store`: its items as they are now are the reference.
  public func start(with store: EKEventStore) {
    guard self.store == nil else { return }
    self.store = store
    observer = NotificationCenter.default.addObserver(
      forName: .EKEventStoreChanged, object: store, queue: nil
    ) { [flag] _ in flag.raise() }
    seen = snapshot(store)
  }

  /// Whether ``start(with:)`` was called.
  public var isStarted: Bool { store != nil }

  /// What changed since the app last looked, in key order; empty (and no snapshot made) when
  /// the store posted no change meanwhile.
  public func changes() -> [Change] {
    guard let store, flag.lower() else { return [] }
    let now = snapshot(store)
    defer { seen = now }
    return differences(to: now)
  }

  /// Marks the keys that `matches` as the running command's own: ``settle()`` does not
  /// report them.
  public func claim(_ matches: @escaping (Key) -> Bool) {
    claims.append(matches)
  }

  /// After one of the app's commands: takes what the app sees now as the reference, and
  /// returns the differences outside the command's claims: another app's, made while the
  /// command ran.
  public func settle() -> [Change] {
    let claims = self.claims
    self.claims = []
    guard let store else { return [] }
    _ = flag.lower()
    let now = snapshot(store)
    defer { seen = now }
    return differences(to: now).filter { change in !claims.contains { $0(change.key) } }
  }

  private func differences(to now: [Key: State]) -> [Change] {
    Set(seen.keys).union(now.keys).sorted().compactMap { key in
      let before = seen[key]
      let after = now[key]
      return before == after ? nil : Change(key: key, before: before, after: after)
    }
  }
}

/// The flag `EKEventStoreChanged` raises, on its queue, for the tracker's thread to lower.
private final class StoreChangedFlag: @unchecked Sendable {
  private let lock = NSLock()
  private var raised = false
  private var callback: (@Sendable () -> Void)?

  var onRaise: (@Sendable () -> Void)? {
    get { lock.withLock { callback } }
    set { lock.withLock { callback = newValue } }
  }

  func raise() {
    lock.withLock { raised = true }
    onRaise?()
  }

  /// Lowers the flag; whether it was raised.
  func lower() -> Bool {
    lock.withLock {
      defer { raised = false }
      return raised
    }
  }
}
