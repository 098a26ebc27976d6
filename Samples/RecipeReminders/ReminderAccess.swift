import OpenEventKit
import OpenEventKitApp
import OpenEventKitUI

/// Access to the person's reminders, asked at the moment of need: the first `shop`, or the
/// first command over a shopping list. Browsing recipes never comes here, so a person who
/// only reads recipes is never asked why a recipe book wants their reminders.
///
/// The flow, by `EKEventStore.authorizationStatus(for: .reminder)`:
///
/// - full access: go on;
/// - denied or restricted: say why the app needs reminders and how to change the decision,
///   and write nothing (the store is not asked again: it would refuse);
/// - not determined: the kit's session asks, showing the usage description of the app's
///   Info.plist, and the command goes on only if the person allows it.
enum ReminderAccess {
  /// Why a recipe book needs reminders, said when the person refused them.
  static let reason = "A shopping list is a list in your reminders, so this needs them."

  /// The store, once the app may read and write reminders; throws otherwise.
  static func store(_ session: AppSession) throws -> EKEventStore {
    let status = EKEventStore.authorizationStatus(for: .reminder)
    guard status != .denied, status != .restricted else { throw refusal(status) }
    do {
      // Full access: the store is made (once) and returned. Not determined: the session
      // asks first, and throws when the answer is no.
      return try session.store(for: .reminder)
    } catch  where EKEventStore.authorizationStatus(for: .reminder) == .denied {
      throw refusal(.denied)  // "Don't Allow" at the prompt just now
    }
  }

  /// Why the app needs reminders, and how to let it use them.
  private static func refusal(_ status: EKAuthorizationStatus) -> RecipeError {
    let what =
      status == .restricted
      ? "Access to reminders is restricted on this system, so Recipe Reminders cannot make "
        + "shopping lists."
      : "You did not allow Recipe Reminders to use your reminders."
    return RecipeError("\(what) \(reason) \(CalendarAccess.howToChange(.reminder))")
  }
}
