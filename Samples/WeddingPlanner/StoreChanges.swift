import Foundation
import OpenEventKit
import OpenEventKitApp

/// What other apps did to the plan's events, told at the next prompt (at once while the
/// prompt waits on a terminal), and never what the app's own commands did. The snapshot and
/// the sentences are the plan's (WeddingChanges.swift); one key, `"plan"`.
///
/// Used from the REPL's thread; only the flag is touched from the notification's queue, and
/// it is locked. `@unchecked Sendable` so that the REPL's commands can hold it.
final class StoreChanges: @unchecked Sendable {
  typealias Key = String
  typealias State = WeddingChanges.PlanState

  /// One key's difference: `before` is nil for a key that appeared, `after` for one that went.
  struct Change {
    let key: Key
    let before: State?
    let after: State?
  }

  private let session: AppSession
  private let snapshot: (EKEventStore) -> [Key: State]
  private let describe: (Change) -> String?
  private var store: EKEventStore?
  /// What the couple was last told; nil before the first look the app had access for.
  private var shown: [Key: State]?
  /// The keys the running command writes.
  private var own: Set<Key> = []
  private let changed = Flag()
  private var observer: (any NSObjectProtocol)?

  init(
    session: AppSession, snapshot: @escaping (EKEventStore) -> [Key: State],
    describe: @escaping (Change) -> String?
  ) {
    self.session = session
    self.snapshot = snapshot
    self.describe = describe
  }

  deinit {
    if let observer { NotificationCenter.default.removeObserver(observer) }
  }

  // MARK: pattern observe-changes
  /// Observes the store once, and takes what is there as what the couple has seen.
  func start(watching store: EKEventStore) {
    if self.store == nil {
      self.store = store
      // The notification says only that something changed, on a queue EventKit does not
      // specify, for this app's own saves too: raise a flag (`changed`, a lock-guarded Bool:
      // Flag, at the end of this file), and refetch on the app's thread.
      observer = NotificationCenter.default.addObserver(
        forName: .EKEventStoreChanged, object: store, queue: nil
      ) { [changed, session] _ in
        changed.raise()
        session.wakePrompt()  // OpenEventKitApp: a waiting prompt tells at once
      }
    }
    if shown == nil { shown = refetch() }
  }

  /// Before each prompt and command: refetch only when the store said it changed.
  func tellWhatChanged() {
    guard changed.lower() else { return }
    guard let now = refetch() else { return changed.raise() }  // look again with access
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

  /// Before a command writes: what it changes is no news to the couple.
  func markOwn(_ keys: Set<Key>) { own.formUnion(keys) }

  /// After each command, whether or not the store said anything yet (its notification comes
  /// a moment after the commit): the marked keys are taken silently; any other difference
  /// was another app's, made while the command ran (while the editor waited, say).
  func settle() {
    let wasChanged = changed.lower()
    guard let now = refetch() else {
      if wasChanged { changed.raise() }
      return  // keep the marks for a look with access
    }
    tell(differences(to: now).filter { !own.contains($0.key) })
    own = []
    shown = now
  }

  // MARK: Telling

  private func tell(_ changes: [Change]) {
    for sentence in changes.compactMap(describe) {
      session.console.print("Calendar: \(sentence)")
    }
  }

  /// Raised on the notification's queue, lowered on the REPL's.
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
