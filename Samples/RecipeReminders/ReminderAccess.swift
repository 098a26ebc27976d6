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
/// Used from the REPL's thread only (its commands and hooks); `@unchecked Sendable` because
/// the REPL's command closures, which capture it, are `@Sendable`.
final class ReminderAccess: @unchecked Sendable {
  /// Why a recipe book needs reminders, said when the person refused them.
  static let reason = "A shopping list is a list in your reminders, so this needs them."

  private let console: Console
  /// The one store, made by the first command that was not refused beforehand.
  private var made: EKEventStore?
  /// The status when the app last went to the store; nil before (nothing to compare with).
  private var lastStatus: EKAuthorizationStatus?

  init(console: Console) { self.console = console }

  // MARK: pattern access

  /// The store, once the app may read and write reminders; throws what to say otherwise.
  func store() throws -> EKEventStore {
    switch EKEventStore.authorizationStatus(for: .reminder) {
    case .fullAccess:
      return madeStore()
    case .notDetermined, .writeOnly:  // write-only exists for events; reminders need full
      return try askForFullAccess(madeStore())
    case .denied:  // asking again would be refused at once: say how to change the decision
      throw refusal(.denied)
    case .restricted:  // a profile or parental controls decide; the person cannot allow it
      throw refusal(.restricted)
    @unknown default:
      throw refusal(.denied)
    }
  }

  /// Shows the system's alert (with the Info.plist's `NSRemindersFullAccessUsageDescription`)
  /// and waits for the answer: a command answers before it returns.
  private func askForFullAccess(_ store: EKEventStore) throws -> EKEventStore {
    defer { lastStatus = EKEventStore.authorizationStatus(for: .reminder) }
    // OpenEventKit addition: Linux has no system alert; the console asks.
    EKEventStore.accessPromptPresenter = PrivacyAlert(console: console)
    // OpenEventKitApp's waitForAnswer: a REPL command waits; an app awaits the request.
    let (granted, error) = waitForAnswer { answer in
      store.requestFullAccessToReminders { granted, error in answer((granted, error)) }
    }
    if let error { throw RecipeError("Could not ask for access: \(error.localizedDescription)") }
    guard !granted else { return store }
    // OpenEventKit: unlike Apple's alert, the console can go unanswered: ask next time.
    guard EKEventStore.authorizationStatus(for: .reminder) != .notDetermined else {
      throw RecipeError(
        "No answer, so the app did not use your reminders; it will ask again next time.")
    }
    throw refusal(.denied)  // "Don't Allow", just now
  }

  // MARK: pattern access-changes

  /// Before each prompt and command: the person may give or take away access while the app
  /// runs (`ekctl privacy set`), and then lists stop or start being told. Said only once the
  /// app went to the store, and only for a change to or from full access.
  func tellIfAccessChanged() {
    guard let before = lastStatus else { return }
    let now = EKEventStore.authorizationStatus(for: .reminder)
    guard now != before, now == .fullAccess || before == .fullAccess else { return }
    lastStatus = now
    console.print(
      now == .fullAccess
        ? "Reminders: this app may now use your reminders."
        : "Reminders: this app may no longer use your reminders. \(Self.howToChange)")
  }

  // MARK: The store and the words

  /// The store, made the first time only: made after the denied and restricted cases, so a
  /// person who refused beforehand gets no calendar database from this app.
  private func madeStore() -> EKEventStore {
    let store = made ?? EKEventStore()
    made = store
    lastStatus = EKEventStore.authorizationStatus(for: .reminder)
    return store
  }

  /// Why the app needs reminders, and how to let it use them.
  private func refusal(_ status: EKAuthorizationStatus) -> RecipeError {
    let what =
      status == .restricted
      ? "Access to reminders is restricted on this system, so Recipe Reminders cannot make "
        + "shopping lists."
      : "You did not allow Recipe Reminders to use your reminders."
    return RecipeError("\(what) \(Self.reason) \(Self.howToChange)")
  }

  /// The command that gives this app full access to reminders.
  static var howToChange: String {
    // OpenEventKit addition: on Linux the person decides with `ekctl privacy`, which names the
    // app by its identifier (Apple's EventKit leaves this to the Settings app).
    "To change that: ekctl privacy set --app \(PrivacySettings.currentAppIdentifier) "
      + "--entity reminders full"
  }
}
