import Foundation
import OpenEventKit
import OpenEventKitApp
import REPLKit

/// What other players did, told as soon as the store says it changed (at once while the
/// prompt waits on a terminal, else before the next prompt): the suggestions as the player
/// last saw them, compared by event identifier with the suggestions now.
///
/// A class because it keeps what was shown between notices; `@unchecked Sendable` because
/// the observer's block is `@Sendable`. Everything here runs on the main queue (the main
/// thread: the REPL's main is synchronous): the commands and the block, between commands.
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

  deinit {
    if let observer { NotificationCenter.default.removeObserver(observer) }
  }

  /// Starts watching `store`, once: what it holds now is what the player has seen.
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
  /// One suggestion's difference: `before` is nil for a new one, `after` for one withdrawn.
  struct Change {
    let key: String
    let before: Suggestion?
    let after: Suggestion?
  }

  /// On each notice: what differs from what was shown, the player's own already shown.
  func tellWhatChanged() {
    guard let now = refetch() else { return }  // no access: look again at the next notice
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
  /// After a command wrote a suggestion: what the app shows of it takes the player's own change
  /// (`change` makes it; nil: withdrawn), so the notice of its own save, run after the command,
  /// finds no difference for it. Not the suggestion as it is now: a vote's save carries the
  /// votes other players saved just before it (VoteWriter.swift), which are still news. Call
  /// it right after the save (in async code, before any `await`).
  func noteOwnChange(_ key: String, _ change: (inout Suggestion?) -> Void) {
    guard var shown else { return }  // no look yet: nothing to compare with
    change(&shown[key])
    self.shown = shown
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

  /// Said before the first sentence of a notice: the commands set it to say a change of
  /// access first (CalendarAccess.swift). That observer and this one get the same notice in no
  /// promised order, and "may now use your calendar" belongs before what changed meanwhile.
  var sayFirst: () -> Void = {}

  /// A sentence per change, in the order of the times (the same for every player: the event
  /// identifiers are random), then the standings when there was anything to tell and any
  /// time is left.
  private func tell(_ changes: [Change]) {
    let console = session.console
    let dates = DateText(timeZone: console.timeZone)
    let windowStart = PokerTimes.window(around: console.now, in: console.timeZone).start
    let poker = store.flatMap(calendar)?.calendarIdentifier
    let told = changes.sorted(by: PokerChanges.isTold(_:before:)).compactMap {
      PokerChanges.sentence(
        $0, dates: dates, windowStart: windowStart,
        find: { [store] in store?.event(withIdentifier: $0) }, pokerCalendar: poker)
    }
    guard !told.isEmpty else { return }
    sayFirst()
    for sentence in told { console.print("Calendar: \(sentence)") }
    guard !board.latest.times.isEmpty else { return }  // none left: the sentences said it
    console.print("Standings ('times' numbers them):")
    PokerCommands.show(board.latest, on: console, numberingFor: nil)
  }
}
