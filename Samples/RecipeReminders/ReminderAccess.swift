import Foundation
import OpenEventKit
import OpenEventKitApp
import OpenEventKitUI
import REPLKit

/// Access to the person's reminders, asked at the moment of need: the first `shop`, or the
/// first command over a shopping list. Browsing recipes never comes here, so a person who
/// only reads recipes is never asked why a recipe book wants their reminders, and no store is
/// made for them.
///
/// Used from the REPL's thread only (its commands, and the observer's block on the main queue);
/// `@unchecked Sendable` because the REPL's command closures, which capture it, are `@Sendable`.
final class ReminderAccess: @unchecked Sendable {
  private let console: Console
  /// The one store, made by the first command that was not refused beforehand.
  private var made: EKEventStore?

  init(console: Console) {
    self.console = console
    watchForAccessChanges()
  }

  /// The run's one store, once the app may read and write reminders; throws what to say
  /// otherwise.
  func store() throws -> EKEventStore {
    // A change whose notice has not come yet (it comes a moment after); before the first
    // command there is nothing to compare with: its answer (or refusal) says it.
    if made != nil { tellIfAccessChanged() }
    // After the check, what it found (or the answer it got) is what the next change is told
    // from: else a refusal leaves the launch's status, and access given back is not told.
    defer { lastStatus = EKEventStore.authorizationStatus(for: .reminder) }
    let made = self.made
    // OpenEventKit sample kit only: a REPL command is synchronous, so it waits for the check;
    // the console shows the alert (Linux has none), which can go unanswered: "No answer, …".
    // An app awaits it in a task: `try await storeWithFullAccess(reusing: made)`.
    let store = try waitForAccessCheck(to: .reminder, askingOn: console) {
      try await self.storeWithFullAccess(reusing: made)
    }
    self.made = store
    return store
  }

  // MARK: pattern access
  /// Said with every refusal. OpenEventKit addition: Linux has no Settings app; the person
  /// decides with `ekctl privacy`, by the identifier this app asked as.
  static var howToChange: String {
    "To change that: ekctl privacy set --app \(PrivacySettings.currentAppIdentifier) "
      + "--entity reminders full"
  }

  /// `existing`, or a store made now, once the app may read and write reminders; throws what to
  /// say otherwise. Each status says what the app does.
  func storeWithFullAccess(reusing existing: EKEventStore?) async throws -> EKEventStore {
    let why =  // said with each refusal: why a recipe book needs reminders, how to allow them
      "A shopping list is a list in your reminders, so this needs them. \(Self.howToChange)"
    let refused = RecipeError("You did not allow Recipe Reminders to use your reminders. \(why)")
    switch EKEventStore.authorizationStatus(for: .reminder) {
    case .fullAccess: return existing ?? EKEventStore()
    case .writeOnly: fallthrough  // for events only, never reminders': ask as if never asked
    case .notDetermined:  // not asked yet: ask now, at the first shopping list
      let store = existing ?? EKEventStore()  // only now: one who refused gets no database
      // The alert, with Info.plist's NSRemindersFullAccessUsageDescription, shown once for
      // each access level: asked again, the request answers with the decision at once.
      let granted = try await store.requestFullAccessToReminders()
      guard granted else {  // "Don't Allow"; on Linux also no answer (Ctrl-D, input ended),
        // which decides nothing: the status is still .notDetermined, and the app asks again
        let undecided = EKEventStore.authorizationStatus(for: .reminder) == .notDetermined
        throw undecided ? RecipeError("No answer: nothing was decided; it asks again.") : refused
      }
      return store
    case .denied:  // refused, now or before: no alert shows again, so say where to turn it
      // on (Apple: Settings › Privacy & Security › Reminders; here `ekctl privacy set`)
      throw refused
    case .restricted:  // a policy (Screen Time, device management) forbids it: the person
      // cannot allow it and no alert shows; say so (here `ekctl privacy set` lifts it)
      throw RecipeError(
        "Access to reminders is restricted on this system, so Recipe Reminders cannot make "
          + "shopping lists. \(why)")
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
  private var lastStatus = EKEventStore.authorizationStatus(for: .reminder)
  func watchForAccessChanges() {  // from init; removed in deinit
    accessObserver = NotificationCenter.default.addObserver(
      forName: .EKEventStoreChanged, object: nil, queue: .main
    ) { [weak self] _ in self?.tellIfAccessChanged() }
  }
  deinit { accessObserver.map(NotificationCenter.default.removeObserver) }
  /// Says so once when full access was given or taken away other than by an alert.
  func tellIfAccessChanged() {
    let (before, now) = (lastStatus, EKEventStore.authorizationStatus(for: .reminder))
    lastStatus = now
    guard now != before, before != .notDetermined, now == .fullAccess || before == .fullAccess
    else { return }
    // Not determined: reset (`ekctl privacy reset`); the next request asks the person again.
    console.print(
      now == .fullAccess
        ? "Reminders: this app may now use your reminders."
        : "Reminders: this app may no longer use your reminders. "
          + (now == .notDetermined ? "It asks again when a command needs it." : Self.howToChange))
  }

  // MARK: -
}
