import Foundation
import OpenEventKit
import OpenEventKitApp
import OpenEventKitUI
import REPLKit

/// Access to the couple's calendar, asked for at the first command that needs it (not at
/// launch, so that the couple sees why), for what that command needs: write-only access is
/// enough to add events, not to read them or change them.
///
/// Used from the REPL's thread only; a class so that the store and the status it was last
/// decided on are kept between commands, `@unchecked Sendable` so that the REPL's commands can
/// hold it.
final class EventAccess: @unchecked Sendable {
  private let console: Console
  /// The store, made at the first command that needed the calendar.
  private var store: EKEventStore?

  init(console: Console) {
    self.console = console
    watchForAccessChanges()
  }

  /// The store for `need`, the way ``requireAccess(_:through:)`` allows it; the status it was
  /// decided on is remembered, for ``tellIfAccessChanged()``. One store for the whole run. A
  /// read refused for want of full access asked nothing, so it decided nothing.
  func store(_ need: Need) throws -> EKEventStore {
    // A change whose notice has not come yet (it comes a moment after); before the first
    // command there is nothing to compare with: its answer (or refusal) says it.
    if self.store != nil { tellIfAccessChanged() }
    // After the check, what it found (or the answer it got) is what the next change is told
    // from: else a refusal leaves the launch's status, and access given back is not told.
    defer { lastStatus = EKEventStore.authorizationStatus(for: .event) }
    let store = self.store ?? EKEventStore()
    self.store = store
    // OpenEventKit sample kit only: a REPL command is synchronous, so it waits for the check;
    // the console shows the alert (Linux has none), which can go unanswered: "No answer, …".
    // An app awaits it in a task: `try await requireAccess(need, through: store)`.
    try waitForAccessCheck(to: .event, askingOn: console) {
      try await self.requireAccess(need, through: store)
    }
    return store
  }

  // MARK: pattern access-needs
  enum Need: Equatable {  // what a command needs of the calendar:
    case add, full  // to add events (write-only will do); full access (`restore`, `calendar`)
    case read(String)  // to read events; `what` the command is, for the refusal
  }
  struct NeedsFullAccess: Error, CustomStringConvertible {  // write-only access shows no event
    let what: String
    var description: String {
      "\(what) needs full access to your calendar; this app may only add events. \(howToChange)"
    }
  }
  /// Said with each refusal. OpenEventKit addition: no Settings app here, `ekctl privacy` is.
  static var howToChange: String {
    "To change that: ekctl privacy set --app \(PrivacySettings.currentAppIdentifier) "
      + "--entity events full"
  }
  // MARK: pattern access
  /// Returns when the app may do what `need` says; each status says what the app does.
  func requireAccess(_ need: Need, through store: EKEventStore) async throws {
    let refused = WeddingError(
      "This app does not have full access to your calendar. \(Self.howToChange)")
    switch EKEventStore.authorizationStatus(for: .event) {  // each time: minds change
    case .fullAccess: return
    case .writeOnly:  // enough to add, to defaultCalendarForNewEvents; not to read
      if need == .add { return }
      if case .read(let what) = need { throw NeedsFullAccess(what: what) }
      fallthrough  // `restore` and `calendar`: ask for full access
    case .notDetermined:  // full access even to add: the planner shows what it added (an app
      // that only adds would ask requestWriteOnlyAccessToEvents).
      // The alert, with Info.plist's NSCalendarsFullAccessUsageDescription, shown once for
      // each access level: asked again, the request answers with the decision at once.
      let granted = try await store.requestFullAccessToEvents()
      guard granted else {  // "Don't Allow"; on Linux also no answer (Ctrl-D, input ended),
        // which decides nothing: the status is still .notDetermined, and the app asks again
        let undecided = EKEventStore.authorizationStatus(for: .event) == .notDetermined
        throw undecided ? WeddingError("No answer: nothing was decided; it asks again.") : refused
      }
    case .denied:  // refused, now or before: no alert shows again, so say where to turn it
      // on (Apple: Settings › Privacy & Security › Calendars; here `ekctl privacy set`)
      throw refused
    case .restricted:  // a policy (Screen Time, device management) forbids it: the person
      // cannot allow it and no alert shows; say so (here `ekctl privacy set` lifts it)
      throw WeddingError(
        "Access to your calendar is restricted on this system. \(Self.howToChange)")
    @unknown default: throw refused  // a status newer than this app: do not guess
    }
  }

  // MARK: pattern access-changes
  /// The person may give or take away access while the app runs (Settings on Apple's systems,
  /// `ekctl privacy set` here), and the store then posts `.EKEventStoreChanged`: read the
  /// status again in the observer, on the main queue where the commands run. Every change
  /// matters to this app, which can add with write-only access. (iOS ends an app whose access
  /// is taken away.)
  /// In a `@MainActor` class, run the block's body in `MainActor.assumeIsolated { }` and make
  /// `deinit` `isolated` (Swift 6.2): the block is not known to run on the main actor.
  /// `object: nil`: any store's notice will do, since the status is the app's, not a store's.
  private var accessObserver: (any NSObjectProtocol)?
  /// The status last seen, from launch on; `store(_:)` sets it after its own check too, so that
  /// a refusal there is the status the next change is told from. A decision from not
  /// determined is an alert's answer (this app's own, or another window's): not news.
  private var lastStatus = EKEventStore.authorizationStatus(for: .event)
  func watchForAccessChanges() {  // from init; removed in deinit
    accessObserver = NotificationCenter.default.addObserver(
      forName: .EKEventStoreChanged, object: nil, queue: .main
    ) { [weak self] _ in self?.tellIfAccessChanged() }
  }
  deinit { accessObserver.map(NotificationCenter.default.removeObserver) }
  /// Says so once when access changed other than by an alert (each change matters here:
  /// write-only access adds).
  func tellIfAccessChanged() {
    let (before, now) = (lastStatus, EKEventStore.authorizationStatus(for: .event))
    lastStatus = now
    guard now != before, before != .notDetermined else { return }
    switch now {
    case .fullAccess: console.print("Calendar: this app may now use your calendar.")
    case .writeOnly:  // `add` still works (Need.add)
      console.print(
        "Calendar: this app may now only add events to your calendar, not read them. "
          + Self.howToChange)
    case .notDetermined:  // reset (ekctl privacy reset): a command that needs it asks again
      console.print("Calendar: this app may no longer use your calendar until it asks again.")
    case .restricted:  // a policy: the person cannot allow it
      console.print("Calendar: access to your calendar is now restricted on this system.")
    default:
      console.print("Calendar: this app may no longer use your calendar. \(Self.howToChange)")
    }
  }

  // MARK: -
}
