import Foundation
import OpenEventKit
import OpenEventKitApp

/// What other apps did to the loans' payments: where each payment's event was when the person
/// was last told (``PaymentChanges/snapshot(_:in:)``), compared with where it is after the
/// store changed, a sentence per payment (``PaymentChanges/sentence(_:in:)``).
///
/// Everything here runs on the main queue (the main thread: the REPL's main is
/// synchronous): the commands, and the observer's block, which `queue: .main` runs between
/// commands. The block and the commands' closures are `@Sendable`, hence `@unchecked`.
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

  deinit {
    if let observer { NotificationCenter.default.removeObserver(observer) }
  }

  /// Watches `store` from the first command given access on; what it shows now is the start.
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
    // sees no events, which does not mean there are none.
    if shown == nil { shown = refetch() }
  }

  // MARK: pattern refetch-changes
  /// One payment's difference: `before` is nil for a payment that appeared, `after` for one
  /// that went.
  struct Change {
    let key: PaymentKey
    let before: PaymentState?
    let after: PaymentState?
  }

  /// On each notice: what differs from what was shown, the command's own already shown.
  func tellWhatChanged() {
    guard let now = refetch() else { return }  // no access: look again at the next notice
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
  /// After a command wrote these payments (its saves, and its records of them): what the app
  /// shows of them becomes what is there now, so the notice of its own saves, run after the
  /// command, finds no difference there. Name only what the command wrote: any other
  /// difference is another app's, told, even one made while the command ran. Another app's
  /// change to one of these, made before the save, is taken for the command's (`save` is
  /// last-writer-wins; VoteWriter.swift in poker-vote checks instead), and so is one made after
  /// it: call this once the last save is done (in async code, before any `await`).
  func noteOwnChange(_ keys: some Sequence<PaymentKey>) {
    guard shown != nil, let now = refetch() else { return }  // no look yet, or no access
    for key in keys { shown?[key] = now[key] }
  }

  // MARK: telling

  /// Said before the first sentence of a notice: the commands set it to say a change of
  /// access first (CalendarAccess.swift). That observer and this one get the same notice in no
  /// promised order, and "may now use your calendar" belongs before what changed meanwhile.
  var sayFirst: () -> Void = {}

  private func tell(_ changes: [Change]) {
    let sentences = changes.compactMap { PaymentChanges.sentence($0, in: store) }
    if !sentences.isEmpty { sayFirst() }
    for sentence in sentences {
      session.console.print("Calendar: \(sentence)")
    }
  }
}
