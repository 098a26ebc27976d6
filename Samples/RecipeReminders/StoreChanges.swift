import Foundation
import OpenEventKit
import OpenEventKitApp
import REPLKit

/// What other apps did to the shopping lists, told as soon as the store says it changed (at
/// once while the prompt waits on a terminal, else before the next prompt), and the app's own
/// changes kept quiet: the observer, the refetch, the comparison with what the person was
/// last told, and the lists a command wrote, taken as shown. The lists' states and
/// sentences are ShoppingChanges.swift's.
///
/// Everything here runs on the main queue (the main thread: the REPL's main is
/// synchronous): the commands, and the observer's block, which `queue: .main` runs between
/// commands. `@unchecked Sendable` because the block and the REPL's command closures are
/// `@Sendable`.
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

  deinit {
    if let observer { NotificationCenter.default.removeObserver(observer) }
  }

  /// Starts observing `store` (once) and takes the lists as they are now as what was shown.
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
    // sees no reminders, which does not mean there are none.
    if shown == nil { shown = refetch(store) }
  }

  // MARK: pattern refetch-changes
  /// One list's difference: `before` is nil for a list that appeared, `after` for one gone.
  struct Change {
    let key: String
    let before: ShoppingChanges.ListState?
    let after: ShoppingChanges.ListState?
  }

  /// On each notice: what differs from what was shown, the command's own already shown.
  func tellWhatChanged() {
    guard let store, let now = refetch(store) else { return }  // no access: at the next notice
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
  /// After a command wrote these items of a recipe's list (by `calendarItemIdentifier`; nil:
  /// the list itself, made, filled or deleted) and its records of them: what the app shows of
  /// them becomes what is there now, so the notice of its own saves, run after the command,
  /// finds no difference there. Name only what the command wrote: any other difference is
  /// another app's, told, even one made while the command ran. Another app's change to one of
  /// these, made before the save, is taken for the command's (`save` is last-writer-wins), and
  /// so is one made after it: call this once the last save is done (in async code, before any
  /// `await`).
  func noteOwnChange(on recipe: String, items: [String]? = nil) {
    guard shown != nil, let store, let now = refetch(store) else { return }  // or no access
    guard let items else {
      shown?[recipe] = now[recipe]
      return
    }
    // Not the list's title, nor its other items; nothing when the list is new to the app.
    for id in items { shown?[recipe]?.items[id] = now[recipe]?.items[id] }
  }

  // MARK: Telling

  /// Said before the first sentence of a notice: the commands set it to say a change of
  /// access first (ReminderAccess.swift). That observer and this one get the same notice in no
  /// promised order, and "may now use your calendar" belongs before what changed meanwhile.
  var sayFirst: () -> Void = {}

  private func tell(_ changes: [Change]) {
    let sentences = changes.compactMap(ShoppingChanges.sentence)
    if !sentences.isEmpty { sayFirst() }
    for sentence in sentences {
      session.console.print("Reminders: \(sentence)")
    }
  }
}
