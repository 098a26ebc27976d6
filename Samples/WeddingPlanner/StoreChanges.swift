import Foundation
import OpenEventKit
import OpenEventKitApp

/// What other apps did to the plan's events, told as soon as the store says it changed (at once
/// while the prompt waits on a terminal), and never what the app's own commands did. The snapshot
/// and the sentences are the plan's (WeddingChanges.swift): a key for the calendar, and one for
/// each plan item, by its identifier.
///
/// Everything here runs on the main queue (the main thread: the REPL's main is
/// synchronous): the commands, and the observer's block, which `queue: .main` runs between
/// commands. `@unchecked Sendable` so that the block and the REPL's commands can hold it.
final class StoreChanges: @unchecked Sendable {
  typealias Key = WeddingChanges.Key
  typealias State = WeddingChanges.State

  private let session: AppSession
  private let snapshot: (EKEventStore) -> [Key: State]
  /// One line for what other apps changed (the plan's sentences are said together).
  private let describe: ([Change]) -> String?

  init(
    session: AppSession, snapshot: @escaping (EKEventStore) -> [Key: State],
    describe: @escaping ([Change]) -> String?
  ) {
    self.session = session
    self.snapshot = snapshot
    self.describe = describe
  }

  // MARK: pattern observe-changes
  private var store: EKEventStore?
  /// What the couple was last told; nil before the first look the app had access for.
  private var shown: [Key: State]?
  private var observer: (any NSObjectProtocol)?

  deinit {
    if let observer { NotificationCenter.default.removeObserver(observer) }
  }

  /// Observes the store once, and takes what is there as what the couple has seen.
  func start(watching store: EKEventStore) {
    if self.store == nil {
      self.store = store
      // EKEventStoreChanged says only that something changed, comes for this app's own saves
      // too, and once for several commits close together: refetch what is shown, and compare.
      // `queue: .main`: the block runs where the app's other work does, once something runs
      // the main queue (here the REPL between commands; a run loop, `dispatchMain()`, or an
      // async main's `await`, the last two off the main thread). `weak`: a strong `self` would
      // keep this object alive through its own observer. Swift 6: this class is `@unchecked
      // Sendable`, used on the main queue only; a `@MainActor` one wraps the body in
      // `MainActor.assumeIsolated { }` and makes `deinit` `isolated` (Swift 6.2).
      observer = NotificationCenter.default.addObserver(
        forName: .EKEventStoreChanged, object: store, queue: .main
      ) { [weak self] _ in
        self?.tellWhatChanged()
      }
    }
    // Taken again at each command until the app could read: a first look without access
    // (a write-only `add`) sees no events, which does not mean there are none.
    if shown == nil { shown = refetch() }
  }

  // MARK: pattern refetch-changes
  /// One key's difference: `before` is nil for a key that appeared, `after` for one that went.
  struct Change {
    let key: Key
    let before: State?
    let after: State?
  }

  /// On each notice: what differs from what was shown, the command's own already shown.
  func tellWhatChanged() {
    guard let now = refetch() else { return }  // no access: look again at the next notice
    tell(differences(to: now))
    shown = now
  }

  /// Nil unless the app may read events before and after: without access it sees no events,
  /// which does not mean they were removed.
  private func refetch() -> [Key: State]? {
    let mayRead = { EKEventStore.authorizationStatus(for: .event) == .fullAccess }
    guard let store, mayRead() else { return nil }
    let now = snapshot(store)
    return mayRead() ? now : nil
  }

  private func differences(to now: [Key: State]) -> [Change] {
    guard let shown else { return [] }  // the first look is the reference
    return Set(shown.keys).union(now.keys).sorted().compactMap { key in
      shown[key] == now[key] ? nil : Change(key: key, before: shown[key], after: now[key])
    }
  }

  // MARK: pattern own-changes
  /// After a command wrote these plan items (by identifier) or the calendar (its saves, and its
  /// records of them): what the app shows of them becomes what is there now, so the notice of
  /// its own saves, run after the command, finds no difference there. Name only what the
  /// command wrote: any other difference is another app's, told, even one made while the
  /// command ran. Another app's change to one of these, made before the save, is taken for the
  /// command's (`save` is last-writer-wins), and so is one made after it: call this once the
  /// last save is done (in async code, before any `await`). A write-only `add` has nothing to
  /// refetch: the snapshot leaves it out (it goes to the default calendar, not Wedding).
  func noteOwnChange(_ keys: some Sequence<Key>) {
    guard shown != nil, let now = refetch() else { return }  // no look yet, or no access
    // No calendar at the last look: the command chose or made it (the first that needs one).
    let calendar: [Key] = shown?[.calendar] == nil ? [.calendar] : []
    for key in Array(keys) + calendar { shown?[key] = now[key] }
  }

  // MARK: Telling

  /// Said before the first sentence of a notice: the commands set it to say a change of
  /// access first (CalendarAccess.swift). That observer and this one get the same notice in no
  /// promised order, and "may now use your calendar" belongs before what changed meanwhile.
  var sayFirst: () -> Void = {}

  private func tell(_ changes: [Change]) {
    guard let sentence = describe(changes) else { return }
    sayFirst()
    session.console.print("Calendar: \(sentence)")
  }
}
