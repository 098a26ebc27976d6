import Foundation
import OpenEventKit
import OpenEventKitApp
import Synchronization

/// What other apps did to the loans' payments: where each payment's event was when the person
/// was last told (``PaymentChanges/snapshot(_:in:)``), compared with where it is after the
/// store changed, a sentence per payment (``PaymentChanges/sentence(_:)``).
///
/// Used from the REPL's thread (its hooks and commands), except `changed`, which the
/// notification raises on its own queue and which is a Mutex; the commands' closures are
/// `@Sendable`, hence `@unchecked`.
final class StoreChanges: @unchecked Sendable {
  private let session: AppSession
  private let database: LoanDatabase

  init(session: AppSession, database: LoanDatabase) {
    self.session = session
    self.database = database
  }

  // MARK: pattern observe-changes
  private var store: EKEventStore?
  /// What the person was last told; nil before the first look the app had access for.
  private var shown: [PaymentKey: PaymentState]?
  private var observer: (any NSObjectProtocol)?
  /// Whether the store posted a change since the app last looked: raised on the notification's
  /// queue, lowered on the app's thread, hence the Mutex (Synchronization: iOS 18, macOS 15;
  /// before them, NSLock).
  private let changed = Mutex(false)

  deinit {
    if let observer { NotificationCenter.default.removeObserver(observer) }
  }

  /// Watches `store` from the first command given access on; what it shows now is the start.
  func start(watching store: EKEventStore) {
    guard self.store == nil else { return }
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
    shown = refetch()
  }

  // MARK: pattern refetch-changes
  /// One payment's difference: `before` is nil for a payment that appeared, `after` for one
  /// that went.
  struct Change {
    let key: PaymentKey
    let before: PaymentState?
    let after: PaymentState?
  }

  /// Before each prompt and command: tells what changed, if the store said anything did.
  func tellWhatChanged() {
    // Lower the flag; go on only if it was raised.
    guard changed.withLock({ exchange(&$0, with: false) }) else { return }
    guard let now = refetch() else {  // no access: raise it again, for later
      return changed.withLock { $0 = true }
    }
    tell(differences(to: now))
    shown = now
  }

  /// Nil unless the app may read events before and after: without access an app sees no
  /// events, which does not mean they were removed.
  private func refetch() -> [PaymentKey: PaymentState]? {
    let mayRead = { EKEventStore.authorizationStatus(for: .event) == .fullAccess }
    guard let store, mayRead() else { return nil }
    let now = PaymentChanges.snapshot(database, in: store)
    return mayRead() ? now : nil
  }

  /// The payments whose state differs from what was shown (none before the first look).
  private func differences(to now: [PaymentKey: PaymentState]) -> [Change] {
    guard let shown else { return [] }
    return Set(shown.keys).union(now.keys).sorted().compactMap { key in
      shown[key] == now[key] ? nil : Change(key: key, before: shown[key], after: now[key])
    }
  }

  // MARK: pattern own-changes
  /// The payments the running command writes: its own doing, not news.
  private var own: Set<PaymentKey> = []
  /// Before a command writes: these payments' changes are its own, not another app's.
  func markOwn(_ keys: some Sequence<PaymentKey>) {
    own.formUnion(keys)
  }

  /// After each command, whether or not the store posted a change (it comes a moment after
  /// the commit): the marked payments' new states are taken silently; any other difference
  /// is another app's, made while the command ran (while the person was in the editor).
  /// A conflicting edit: on Apple's EventKit as here, `save` is last-writer-wins, so another
  /// app's change to a marked payment meanwhile is overwritten by the command's save, and not
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

  // MARK: telling

  private func tell(_ changes: [Change]) {
    for sentence in changes.compactMap(PaymentChanges.sentence) {
      session.console.print("Calendar: \(sentence)")
    }
  }
}
