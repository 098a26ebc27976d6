import Foundation
import OpenEventKit
import OpenEventKitApp
import REPLKit
import Synchronization

/// What other apps did to the shopping lists, told at the next prompt (at once while the
/// prompt waits on a terminal), and the app's own changes kept quiet: the observer, the
/// refetch, the comparison with what the person was last told, and the keys (recipe names)
/// the running command writes. The lists' states and sentences are ShoppingChanges.swift's.
///
/// Used from the REPL's thread, except the notification's block, which only raises `changed`
/// (a Mutex); `@unchecked Sendable` because the REPL's command closures capture it.
final class StoreChanges: @unchecked Sendable {
  private let session: AppSession
  private let book: RecipeBook

  init(session: AppSession, book: RecipeBook) {
    self.session = session
    self.book = book
  }

  // MARK: pattern observe-changes
  private var store: EKEventStore?
  /// The lists as the person was last told of them; nil before a refetch could be made.
  private var shown: [String: ShoppingChanges.ListState]?
  private var observer: (any NSObjectProtocol)?
  /// Whether the store posted a change since the app last looked: raised on the notification's
  /// queue, lowered on the app's thread, hence the Mutex (Synchronization: iOS 18, macOS 15;
  /// before them, NSLock).
  private let changed = Mutex(false)

  deinit {
    if let observer { NotificationCenter.default.removeObserver(observer) }
  }

  /// Starts observing `store` (once) and takes the lists as they are now as what was shown.
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
    shown = refetch(store)
  }

  // MARK: pattern refetch-changes
  /// One list's difference: `before` is nil for a list that appeared, `after` for one gone.
  struct Change {
    let key: String
    let before: ShoppingChanges.ListState?
    let after: ShoppingChanges.ListState?
  }

  /// Before each prompt and command: when the store changed, what differs from what was shown.
  func tellWhatChanged() {
    // Lower the flag; go on only if it was raised.
    guard let store, changed.withLock({ exchange(&$0, with: false) }) else { return }
    guard let now = refetch(store) else {  // no access: raise it again, for the next turn
      return changed.withLock { $0 = true }
    }
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
  /// The lists the running command writes: its own doing, not news.
  private var own: Set<String> = []
  /// Before a command writes: the lists (recipe names) it changes are its own.
  func markOwn(_ keys: some Sequence<String>) {
    own.formUnion(keys)
  }

  /// After each command, notified or not: the command's own lists are taken silently; any
  /// other difference is another app's, made while the command ran (the form it asked).
  /// A conflicting edit: on Apple's EventKit as here, `save` is last-writer-wins, so another
  /// app's change to a marked list meanwhile is overwritten by the command's save, and not
  /// told. This app accepts that; PokerVote's VoteWriter.swift shows a write that checks.
  func settle() {
    guard let store else { return }
    let wasChanged = changed.withLock { exchange(&$0, with: false) }
    guard let now = refetch(store) else {  // no access now: keep the marks and the flag
      if wasChanged { changed.withLock { $0 = true } }
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
}
