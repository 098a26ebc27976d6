import Foundation

/// What other apps did to the items an app cares about: the tracker keeps those items as
/// they were when the app last looked (a *snapshot*, made by the app: a state per key), and
/// after the store changes, compares. An OpenEventKit addition (<doc:ObservingChanges>):
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
/// An app without access to an entity type sees none of its items, which does not mean they
/// were removed. So the tracker looks only while the app may read the entity types it was
/// made for, checked afresh before and after each snapshot; when it may not, it keeps its
/// reference, its claims and the store's change for later, and answers nil.
///
/// The tracker is not thread-safe beyond ``onStoreChanged``: make the calls to
/// ``start(with:)``, ``changes()``, ``claim(_:)`` and ``settle()`` on one thread or queue
/// (`ekctl watch` makes them on a serial queue of its own).
///
/// ```swift
/// // Every readable event and reminder, by identifier, with when it last changed.
/// let tracker = ChangeTracker<String, Date>(of: [.event, .reminder]) { store in
///   store.calendarItemStamps()
/// }
/// tracker.start(with: store)
/// // …
/// // Later, on the app's own thread (before a prompt, on a timer):
/// for change in tracker.changes() ?? [] {
///   let what = change.before == nil ? "added" : change.after == nil ? "removed" : "changed"
///   print(what, change.key)
/// }
///
/// // Around one of the app's own commands:
/// tracker.claim { $0 == event.calendarItemIdentifier }
/// try store.save(event, span: .thisEvent)
/// for change in tracker.settle() ?? [] { print("meanwhile, another app changed", change.key) }
/// ```
///
/// See <doc:ObservingChanges> for the notification it builds on, and
/// <doc:EventKitCompatibility> for the other additions.
public final class ChangeTracker<Key: Hashable & Comparable, State: Equatable>: @unchecked Sendable
{
  /// One item's difference: `before` is nil for an item that appeared, `after` for one that
  /// went.
  ///
  /// ```swift
  /// switch (change.before, change.after) {
  /// case (nil, _): print("added", change.key)
  /// case (_, nil): print("removed", change.key)
  /// default: print("changed", change.key)
  /// }
  /// ```
  public struct Change {
    /// The item's key, as the snapshot gave it.
    public let key: Key
    /// The item's state at the last look; nil when the item was not there (it was added).
    public let before: State?
    /// The item's state now; nil when the item is no longer there (it was removed, or moved
    /// out of what the snapshot reads).
    public let after: State?
  }

  /// Called on the notification's queue each time the store changed: where a program that
  /// shows changes as they happen (`ekctl watch`) schedules ``changes()``.
  ///
  /// It runs on a background queue, for the app's own commits too; it should only schedule
  /// work (call ``changes()`` on the app's thread), not read the store itself. Nil, the
  /// default, calls nothing: the app asks ``changes()`` when it chooses.
  ///
  /// ```swift
  /// let queue = DispatchQueue(label: "changes")  // the app's own serial queue
  /// tracker.onStoreChanged = { queue.async { print(tracker.changes() ?? []) } }
  /// ```
  public var onStoreChanged: (@Sendable () -> Void)? {
    get { flag.onRaise }
    set { flag.onRaise = newValue }
  }

  /// The entity types whose items the snapshot reads.
  public let entityTypes: Set<EKEntityType>
  private let snapshot: (EKEventStore) -> [Key: State]
  private var store: EKEventStore?
  /// What the app saw last; nil before the first look the app had access for.
  private var seen: [Key: State]?
  private var claims: [(Key) -> Bool] = []
  private let flag = StoreChangedFlag()
  private var observer: (any NSObjectProtocol)?

  /// A tracker of the states `snapshot` reads from a store's items of `entityTypes`.
  ///
  /// Nothing is read until ``start(with:)``.
  ///
  /// ```swift
  /// let tracker = ChangeTracker<String, Date>(of: [.event, .reminder]) { store in
  ///   store.calendarItemStamps()  // events and reminders alike
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - entityTypes: The entity types whose items `snapshot` reads. The tracker looks only
  ///     while the app has full access to every one of them, so that an item hidden by a
  ///     missing access is not taken for a removed one.
  ///   - snapshot: Reads the items the app cares about, as a state for each key (an item's
  ///     identifier and modification time, say, or the fields the app shows). It is called on
  ///     the thread that calls ``start(with:)``, ``changes()`` or ``settle()``.
  public init(
    of entityTypes: Set<EKEntityType>, snapshot: @escaping (EKEventStore) -> [Key: State]
  ) {
    self.entityTypes = entityTypes
    self.snapshot = snapshot
  }

  deinit {
    if let observer { NotificationCenter.default.removeObserver(observer) }
  }

  /// Starts watching `store`: its items as they are now are the reference.
  ///
  /// Observes `EKEventStoreChanged` from `store` from now on. A second call does nothing: a
  /// tracker watches one store for its lifetime. When the app may not read the items yet,
  /// the reference is the first snapshot it may take later.
  ///
  /// ```swift
  /// let tracker = ChangeTracker<String, Date>(of: [.event, .reminder]) { store in
  ///   store.calendarItemStamps()  // events and reminders alike
  /// }
  /// tracker.start(with: store)
  /// // Later, after another program saved: what changed since the start.
  /// for change in tracker.changes() ?? [] {
  ///   let what = change.before == nil ? "added" : change.after == nil ? "removed" : "changed"
  ///   print(change.key, what)
  /// }
  /// ```
  ///
  /// - Parameter store: The store whose items the tracker reads and whose changes it
  ///   observes.
  public func start(with store: EKEventStore) {
    guard self.store == nil else { return }
    self.store = store
    observer = NotificationCenter.default.addObserver(
      forName: .EKEventStoreChanged, object: store, queue: nil
    ) { [flag] _ in flag.raise() }
    seen = look(at: store)
  }

  /// Whether ``start(with:)`` was called.
  public var isStarted: Bool { store != nil }

  /// What changed since the app last looked, in key order (empty when nothing did); nil, and
  /// no snapshot made, when the store posted no change meanwhile, and nil when the app may
  /// not read the items now (the change is kept for a later call).
  ///
  /// What it finds becomes the reference for the next call. Nil also before
  /// ``start(with:)``.
  ///
  /// ```swift
  /// for change in tracker.changes() ?? [] { print(change.key) }
  /// ```
  ///
  /// - Returns: The differences since the last look, or nil when there was no look to make.
  public func changes() -> [Change]? {
    guard let store, flag.lower() else { return nil }
    guard let now = look(at: store) else {
      flag.keepRaised()
      return nil
    }
    defer { seen = now }
    return differences(to: now)
  }

  /// Marks the keys that `matches` as the running command's own: ``settle()`` does not
  /// report them.
  ///
  /// The claims last until the next ``settle()`` that may read the items.
  ///
  /// ```swift
  /// tracker.claim { $0 == reminder.calendarItemIdentifier }
  /// ```
  ///
  /// - Parameter matches: Whether a key is one the command changes.
  public func claim(_ matches: @escaping (Key) -> Bool) {
    claims.append(matches)
  }

  /// After one of the app's commands: takes what the app sees now as the reference, and
  /// returns the differences outside the command's claims: another app's, made while the
  /// command ran.
  /// Nil when the app may not read the items now: the claims are kept until a settle that
  /// may.
  ///
  /// Nil also before ``start(with:)``. Unlike ``changes()``, it looks even when the store
  /// posted no change.
  ///
  /// ```swift
  /// tracker.claim { $0 == event.calendarItemIdentifier }
  /// try store.save(event, span: .thisEvent)
  /// let others = tracker.settle() ?? []  // what other apps changed meanwhile
  /// ```
  ///
  /// - Returns: The differences in keys no claim matches, in key order, or nil when the app
  ///   may not read the items now.
  public func settle() -> [Change]? {
    guard let store else { return nil }
    let raised = flag.lower()
    guard let now = look(at: store) else {
      if raised { flag.keepRaised() }
      return nil
    }
    let claims = self.claims
    self.claims = []
    defer { seen = now }
    return differences(to: now).filter { change in !claims.contains { $0(change.key) } }
  }

  /// A snapshot taken while the app may read the tracked entity types, checked afresh before
  /// and after it (the person may change their mind meanwhile); nil otherwise.
  private func look(at store: EKEventStore) -> [Key: State]? {
    let mayRead = {
      store.forgetAccess()
      return self.entityTypes.allSatisfy(store.canRead)
    }
    guard mayRead() else { return nil }
    let now = snapshot(store)
    return mayRead() ? now : nil
  }

  private func differences(to now: [Key: State]) -> [Change] {
    // The first look the app could make is the reference, with nothing to tell.
    guard let seen else { return [] }
    return Set(seen.keys).union(now.keys).sorted().compactMap { key in
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

  /// Raises the flag again after a look that could not be made, without telling anyone.
  func keepRaised() {
    lock.withLock { raised = true }
  }

  /// Lowers the flag; whether it was raised.
  func lower() -> Bool {
    lock.withLock {
      defer { raised = false }
      return raised
    }
  }
}
