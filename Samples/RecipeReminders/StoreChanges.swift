import Foundation
import OpenEventKit
import OpenEventKitApp
import REPLKit

/// What other apps did to the shopping lists, told at the next prompt (at once while the
/// prompt waits on a terminal), and the app's own changes kept quiet: the observer, the
/// refetch, the comparison with what the person was last told, and the keys (recipe names)
/// the running command writes. The lists' states and sentences are ShoppingChanges.swift's.
///
/// Used from the REPL's thread, except the notification's block, which only raises the flag
/// (locked); `@unchecked Sendable` because the REPL's command closures capture it.
final class StoreChanges: @unchecked Sendable {
  /// One list's difference: `before` is nil for a list that appeared, `after` for one gone.
  struct Change {
    let key: String
    let before: ShoppingChanges.ListState?
    let after: ShoppingChanges.ListState?
  }

  private let session: AppSession
  private let book: RecipeBook
  private var store: EKEventStore?
  /// The lists as the person was last told of them; nil before a refetch could be made.
  private var shown: [String: ShoppingChanges.ListState]?
  /// The lists the running command writes: its own doing, not news.
  private var own: Set<String> = []
  private let changed = Flag()
  private var observer: (any NSObjectProtocol)?

  init(session: AppSession, book: RecipeBook) {
    self.session = session
    self.book = book
  }

  deinit {
    if let observer { NotificationCenter.default.removeObserver(observer) }
  }

  // MARK: pattern observe-changes
  /// Starts observing `store` (once) and takes the lists as they are now as what was shown.
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
    shown = refetch(store)
  }

  /// Before each prompt and command: when the store changed, what differs from what was shown.
  func tellWhatChanged() {
    guard let store, changed.lower() else { return }
    guard let now = refetch(store) else { return changed.raise() }  // no access: next turn
    tell(differences(to: now))
    shown = now
  }

  /// The lists now; nil unless the app may read reminders before and after: an app without
  /// access sees no items, which does not mean they were removed.
  private func refetch(_ store: EKEventStore) -> [String: ShoppingChanges.ListState]? {
    let mayRead = { EKEventStore.authorizationStatus(for: .reminder) == .fullAccess }
    guard mayRead() else { return nil }
    let now = ShoppingChanges.snapshot(store, book: book)
    return mayRead() ? now : nil
  }

  /// Each list that differs from what was shown, by recipe name; none before the first look.
  private func differences(to now: [String: ShoppingChanges.ListState]) -> [Change] {
    guard let shown else { return [] }
    return Set(shown.keys).union(now.keys).sorted().compactMap { key in
      shown[key] == now[key] ? nil : Change(key: key, before: shown[key], after: now[key])
    }
  }

  // MARK: pattern own-changes

  /// Before a command writes: the lists (recipe names) it changes are its own.
  func markOwn(_ keys: some Sequence<String>) {
    own.formUnion(keys)
  }

  /// After each command, notified or not: the command's own lists are taken silently; any
  /// other difference is another app's, made while the command ran (the form it asked).
  func settle() {
    guard let store else { return }
    let wasChanged = changed.lower()
    guard let now = refetch(store) else {  // no access now: keep the marks and the flag
      if wasChanged { changed.raise() }
      return
    }
    let own = self.own
    self.own = []
    tell(differences(to: now).filter { !own.contains($0.key) })
    shown = now
  }

  // MARK: Telling

  private func tell(_ changes: [Change]) {
    for sentence in changes.compactMap(ShoppingChanges.sentence) {
      session.console.print("Reminders: \(sentence)")
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
