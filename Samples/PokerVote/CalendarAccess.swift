import OpenEventKit
import OpenEventKitApp
import OpenEventKitUI
import REPLKit

/// Access to the player's calendar: asked at the first command that needs it (a player asked
/// at launch does not know why), and checked again on every such command, since the person may
/// change their mind while the app runs (`ekctl privacy set`).
///
/// A class because the store is made once and the status last seen is kept between commands;
/// `@unchecked Sendable` because the REPL's command closures are `@Sendable`, while it is used from
/// the REPL's thread only (the commands, and the observer's block on the main queue).
final class EventAccess: @unchecked Sendable {
  private let console: Console
  /// Made at the first command that needs the calendar, before access is checked.
  private var made: EKEventStore?

  init(console: Console) {
    self.console = console
    watchForAccessChanges()
  }

  /// The store, once the app may read and write events; otherwise throws what the person can
  /// do about it.
  func store() throws -> EKEventStore {
    // A change whose notice has not come yet (it comes a moment after); before the first
    // command there is nothing to compare with: its answer (or refusal) says it.
    if made != nil { tellIfAccessChanged() }
    // After the check, what it found (or the answer it got) is what the next change is told
    // from: else a refusal leaves the launch's status, and access given back is not told.
    defer { lastStatus = EKEventStore.authorizationStatus(for: .event) }
    let store = made ?? EKEventStore()
    made = store
    // OpenEventKit sample kit only: a REPL command is synchronous, so it waits for the check;
    // the console shows the alert (Linux has none), which can go unanswered: "No answer, …".
    // An app awaits it in a task: `try await requireFullAccess(through: store)`.
    try waitForAccessCheck(to: .event, askingOn: console) {
      try await self.requireFullAccess(through: store)
    }
    return store
  }

  // MARK: pattern access

  /// Said with every refusal: how the player gives the app access after all.
  // OpenEventKit addition: Apple's platforms change access in System Settings; on Linux it is
  // `ekctl privacy`, by the identifier this app asked as.
  private var howToChange: String {
    "To change that: ekctl privacy set --app \(PrivacySettings.currentAppIdentifier) "
      + "--entity events full"
  }

  /// Returns when the app may read and write every calendar; else throws a sentence for the
  /// player. The standings are read back from the calendar, so write-only access is not enough.
  private func requireFullAccess(through store: EKEventStore) async throws {
    let refused = REPLError("This app does not have full access to your calendar. \(howToChange)")
    switch EKEventStore.authorizationStatus(for: .event) {
    case .fullAccess: return
    case .writeOnly: fallthrough  // may only add, and the votes are read back: ask for full
    case .notDetermined:  // not asked yet: ask now, at a command that shows why
      // The alert, with Info.plist's NSCalendarsFullAccessUsageDescription, shown once for
      // each access level: asked again, the request answers with the decision at once.
      let granted = try await store.requestFullAccessToEvents()
      guard granted else {  // "Don't Allow"; on Linux also no answer (Ctrl-D, input ended),
        // which decides nothing: the status is still .notDetermined, and the app asks again
        let undecided = EKEventStore.authorizationStatus(for: .event) == .notDetermined
        throw undecided ? REPLError("No answer: nothing was decided; it asks again.") : refused
      }
    case .denied:  // refused, now or before: no alert shows again, so say where to turn it
      // on (Apple: Settings › Privacy & Security › Calendars; here `ekctl privacy set`)
      throw refused
    case .restricted:  // a policy (Screen Time, device management) forbids it: the person
      // cannot allow it and no alert shows; say so (here `ekctl privacy set` lifts it)
      throw REPLError("Access to your calendar is restricted on this system. \(howToChange)")
    @unknown default: throw refused  // a status newer than this app: do not guess
    }
  }

  // MARK: pattern access-changes
  /// The person may give or take away access while the app runs (Settings on Apple's systems,
  /// `ekctl privacy set` here), and the store then posts `.EKEventStoreChanged`: read the
  /// status again in the observer, on the main queue where the commands run. Only a change to
  /// or from full access matters to this app. (iOS ends an app whose access is taken away.)
  /// In a `@MainActor` class, run the block's body in `MainActor.assumeIsolated { }` and make
  /// `deinit` `isolated` (Swift 6.2): the block is not known to run on the main actor.
  /// `object: nil`: any store's notice will do, since the status is the app's, not a store's.
  private var accessObserver: (any NSObjectProtocol)?
  /// The status last seen, from launch on; `store()` sets it after its own check too, so that
  /// a refusal there is the status the next change is told from. A decision from not
  /// determined is an alert's answer (this app's own, or another window's): not news.
  private var lastStatus = EKEventStore.authorizationStatus(for: .event)
  func watchForAccessChanges() {  // from init; removed in deinit
    accessObserver = NotificationCenter.default.addObserver(
      forName: .EKEventStoreChanged, object: nil, queue: .main
    ) { [weak self] _ in self?.tellIfAccessChanged() }
  }
  deinit { accessObserver.map(NotificationCenter.default.removeObserver) }
  /// Says so once when full access was given or taken away other than by an alert.
  func tellIfAccessChanged() {
    let (before, now) = (lastStatus, EKEventStore.authorizationStatus(for: .event))
    lastStatus = now
    guard now != before, before != .notDetermined, now == .fullAccess || before == .fullAccess
    else { return }
    switch now {
    case .fullAccess: console.print("Calendar: this app may now use your calendar.")
    case .writeOnly:  // the next command's request asks for full access (`store()`)
      console.print(
        "Calendar: this app may now only add events, not read them. It asks for full access "
          + "when a command needs it.")
    case .notDetermined:  // reset (`ekctl privacy reset`): the next request asks again
      console.print(
        "Calendar: this app may no longer use your calendar. It asks again when a command "
          + "needs it.")
    default: console.print("Calendar: this app may no longer use your calendar. \(howToChange)")
    }
  }

  // MARK: -
}
