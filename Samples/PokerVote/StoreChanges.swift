import Foundation
import OpenEventKit
import OpenEventKitApp
import REPLKit
import Synchronization

/// What other players did, told at the next prompt (at once when the prompt waits on a
/// terminal): the suggestions as the player last saw them, compared by event identifier with
/// the suggestions now, after the store posted a change; and after each command, what other
/// players changed while it ran.
///
/// A class because it keeps what was shown between commands; `@unchecked Sendable` because
/// the REPL's command closures are `@Sendable`. It is used from the REPL's thread only, but for
/// `changed`, which the notification raises on EventKit's queue and which is a Mutex.
final class StoreChanges: @unchecked Sendable {
  private let session: AppSession
  private let board: PokerBoard
  /// The calendar the suggestions are in, read without asking or making anything.
  private let calendar: (EKEventStore) -> EKCalendar?

  init(
    session: AppSession, board: PokerBoard, calendar: @escaping (EKEventStore) -> EKCalendar?
  ) {
    self.session = session
    self.board = board
    self.calendar = calendar
  }

  // MARK: pattern observe-changes
  private var store: EKEventStore?
  /// The suggestions as the player was last told them; nil before the first look the app
  /// could make.
  private var shown: [String: Suggestion]?
  private var observer: (any NSObjectProtocol)?
  /// Whether the store posted a change since the app last looked: raised on the notification's
  /// queue, lowered on the app's thread, hence the Mutex (Synchronization: iOS 18, macOS 15;
  /// before them, NSLock).
  private let changed = Mutex(false)

  deinit {
    if let observer { NotificationCenter.default.removeObserver(observer) }
  }

  /// Starts watching `store`, once: what it holds now is what the player has seen.
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
  /// One suggestion's difference: `before` is nil for a new one, `after` for one withdrawn.
  struct Change {
    let key: String
    let before: Suggestion?
    let after: Suggestion?
  }

  /// Before each prompt and command: when the store changed, tells what differs.
  func tellWhatChanged() {
    // Lower the flag; go on only if it was raised.
    guard changed.withLock({ exchange(&$0, with: false) }) else { return }
    guard let now = refetch() else {  // no access: raise it again, look again later
      return changed.withLock { $0 = true }
    }
    tell(differences(to: now))
    shown = now
  }

  /// The suggestions now; nil unless the app may read events before and after the fetch: an
  /// app without access sees no events, which does not mean they were withdrawn.
  private func refetch() -> [String: Suggestion]? {
    let mayRead = { EKEventStore.authorizationStatus(for: .event) == .fullAccess }
    guard let store, mayRead() else { return nil }
    let now = snapshot(store)
    return mayRead() ? now : nil
  }

  /// The suggestions whose state differs from what was shown (none before the first look).
  private func differences(to now: [String: Suggestion]) -> [Change] {
    guard let shown else { return [] }
    return Set(shown.keys).union(now.keys).sorted().compactMap { key in
      shown[key] == now[key] ? nil : Change(key: key, before: shown[key], after: now[key])
    }
  }

  // MARK: pattern own-changes
  /// The suggestions the running command changes: its own doing, not news.
  private var own: Set<String> = []
  /// Before a command writes: the suggestions it changes are the player's own doing.
  func markOwn(_ keys: Set<String>) {
    own.formUnion(keys)
  }

  /// After each command, whether or not the store posted a change yet (it comes a moment after
  /// the commit): the marked suggestions are taken as they are now, silently, and any other
  /// difference is another player's, made while the command ran (while a form waited, say).
  func settle() {
    guard store != nil else { return }
    let raised = changed.withLock { exchange(&$0, with: false) }
    guard let now = refetch() else {
      if raised { changed.withLock { $0 = true } }
      return  // no access: keep the marks for the next settle that can read
    }
    tell(differences(to: now).filter { !own.contains($0.key) })
    own = []
    shown = now
  }

  // MARK: Poker's snapshot and sentences

  /// The suggestions by event identifier (none while there is no shared calendar); the
  /// standings are kept for the summary.
  private func snapshot(_ store: EKEventStore) -> [String: Suggestion] {
    let console = session.console
    let (standings, states) = PokerChanges.snapshot(
      store, calendar: calendar(store), now: console.now, zone: console.timeZone)
    board.latest = standings
    return states
  }

  /// A sentence per change, in the order of the times (the same for every player: the event
  /// identifiers are random), then the standings when there was anything to tell.
  private func tell(_ changes: [Change]) {
    let console = session.console
    let dates = DateText(timeZone: console.timeZone)
    let windowStart = PokerTimes.window(around: console.now, in: console.timeZone).start
    let told = changes.sorted(by: PokerChanges.isTold(_:before:)).compactMap {
      PokerChanges.sentence($0, dates: dates, windowStart: windowStart)
    }
    guard !told.isEmpty else { return }
    for sentence in told { console.print("Calendar: \(sentence)") }
    console.print("Standings ('times' numbers them):")
    PokerCommands.show(board.latest, on: console, numberingFor: nil)
  }
}
