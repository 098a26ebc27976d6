import Foundation
import OpenEventKit
import OpenEventKitApp
import Synchronization

/// What other apps did to the plan's events, told at the next prompt (at once while the
/// prompt waits on a terminal), and never what the app's own commands did. The snapshot and
/// the sentences are the plan's (WeddingChanges.swift): a key for the calendar, and one for
/// each plan item, by its identifier.
///
/// Used from the REPL's thread; only `changed` is touched from the notification's queue, and
/// it is a Mutex. `@unchecked Sendable` so that the REPL's commands can hold it.
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
  /// Whether the store posted a change since the app last looked: raised on the notification's
  /// queue, lowered on the app's thread, hence the Mutex (Synchronization: iOS 18, macOS 15;
  /// before them, NSLock).
  private let changed = Mutex(false)

  deinit {
    if let observer { NotificationCenter.default.removeObserver(observer) }
  }

  /// Observes the store once, and takes what is there as what the couple has seen.
  func start(watching store: EKEventStore) {
    if self.store == nil {
      self.store = store
      // EKEventStoreChanged says only that something changed (no documented userInfo), for
      // this app's own saves too: refetch and compare. An app refetches on the main queue:
      // `addObserver(forName: .EKEventStoreChanged, object: store, queue: .main) { _ in … }`.
      // Not here: the main thread is the REPL's, waiting for the next line, and a REPL prints
      // between prompts only. So the block raises `changed` and wakes the prompt, and the REPL's
      // thread refetches before each prompt (`tellWhatChanged()`) and settles after each command
      // (`settle()`), the hooks below. `weak`: a strong `self` would keep this object alive
      // through its own observer, and deinit would never remove it.
      observer = NotificationCenter.default.addObserver(
        forName: .EKEventStoreChanged, object: store, queue: nil
      ) { [weak self, session] _ in
        self?.changed.withLock { $0 = true }
        session.wakePrompt()  // OpenEventKitApp: a waiting prompt tells at once
      }
      session.beforeEachTurn { [weak self] in self?.tellWhatChanged() }  // OpenEventKitApp
      session.afterEachCommand { [weak self] in self?.settle() }
    }
    if shown == nil { shown = refetch() }
  }

  // MARK: pattern refetch-changes
  /// One key's difference: `before` is nil for a key that appeared, `after` for one that went.
  struct Change {
    let key: Key
    let before: State?
    let after: State?
  }

  /// Before each prompt and command: refetch only when the store said it changed.
  func tellWhatChanged() {
    // Lower the flag; go on only if it was raised.
    guard changed.withLock({ exchange(&$0, with: false) }) else { return }
    guard let now = refetch() else {  // raise it again, to look again with access
      return changed.withLock { $0 = true }
    }
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
  /// The plan items (by identifier) and the calendar the running command writes: its own
  /// doing, not news.
  private var own: Set<Key> = []
  /// Before a command writes: these keys' changes are its own, not another app's.
  func markOwn(_ keys: some Sequence<Key>) {
    own.formUnion(keys)
  }

  /// After each command, whether or not the store posted a change (it comes a moment after
  /// the commit): the marked keys' new states are taken silently; any other difference is
  /// another app's, made while the command ran (while the couple was in the editor).
  /// A conflicting edit: on Apple's EventKit as here, `save` is last-writer-wins, so another
  /// app's change to a marked item meanwhile is overwritten by the command's save, and not
  /// told. This app accepts that; PokerVote's VoteWriter.swift shows a write that checks.
  func settle() {
    guard store != nil else { return }
    let wasChanged = changed.withLock { exchange(&$0, with: false) }
    guard let now = refetch() else {  // no access: keep the marks and the flag for later
      if wasChanged { changed.withLock { $0 = true } }
      return
    }
    tell(differences(to: now).filter { !own.contains($0.key) })
    own = []
    shown = now
  }

  // MARK: Telling

  private func tell(_ changes: [Change]) {
    guard let sentence = describe(changes) else { return }
    session.console.print("Calendar: \(sentence)")
  }
}
