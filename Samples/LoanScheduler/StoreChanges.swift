import Foundation
import OpenEventKit
import OpenEventKitApp

/// What other apps did to the loans' payments: where each payment's event was when the person
/// was last told (``PaymentChanges/snapshot(_:in:)``), compared with where it is after the
/// store changed, a sentence per payment (``PaymentChanges/sentence(_:)``).
///
/// Used from the REPL's thread (its hooks and commands), except the flag, which the
/// notification raises on its own queue and which is locked; the commands' closures are
/// `@Sendable`, hence `@unchecked`.
final class StoreChanges: @unchecked Sendable {
  /// One payment's difference: `before` is nil for a payment that appeared, `after` for one
  /// that went.
  struct Change {
    let key: PaymentKey
    let before: PaymentState?
    let after: PaymentState?
  }

  private let session: AppSession
  private let database: LoanDatabase
  private var store: EKEventStore?
  /// What the person was last told; nil before the first look the app had access for.
  private var shown: [PaymentKey: PaymentState]?
  /// The payments the running command writes: its own doing, not news.
  private var own: Set<PaymentKey> = []
  private let changed = Flag()
  private var observer: (any NSObjectProtocol)?

  init(session: AppSession, database: LoanDatabase) {
    self.session = session
    self.database = database
  }

  deinit {
    if let observer { NotificationCenter.default.removeObserver(observer) }
  }

  // MARK: pattern observe-changes
  /// Watches `store` from the first command given access on; what it shows now is the start.
  func start(watching store: EKEventStore) {
    guard self.store == nil else { return }
    self.store = store
    // The notification says only that something changed (no documented userInfo), on a queue
    // EventKit does not specify, for this app's own saves too: raise a flag (`changed`, a
    // lock-guarded Bool: Flag, at the end of this file), and refetch on the app's thread.
    observer = NotificationCenter.default.addObserver(
      forName: .EKEventStoreChanged, object: store, queue: nil
    ) { [changed, session] _ in
      changed.raise()
      session.wakePrompt()  // OpenEventKitApp: a waiting prompt tells at once
    }
    shown = refetch()
  }

  /// Before each prompt and command: tells what changed, if the store said anything did.
  func tellWhatChanged() {
    guard changed.lower() else { return }
    guard let now = refetch() else { return changed.raise() }  // no access: keep it for later
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
  /// Before a command writes: these payments' changes are its own, not another app's.
  func markOwn(_ keys: some Sequence<PaymentKey>) {
    own.formUnion(keys)
  }

  /// After each command, whether or not the store posted a change (it comes a moment after
  /// the commit): the marked payments' new states are taken silently; any other difference
  /// is another app's, made while the command ran (while the person was in the editor).
  func settle() {
    guard store != nil else { return }
    let wasChanged = changed.lower()
    guard let now = refetch() else {  // no access: keep the marks and the flag for later
      if wasChanged { changed.raise() }
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

  /// Raised on the notification's queue, lowered on the REPL's thread.
  private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var raised = false
    func raise() { lock.withLock { raised = true } }
    /// Lowers the flag; whether it was raised.
    func lower() -> Bool {
      lock.withLock {
        defer { raised = false }
        return raised
      }
    }
  }
}
