import Foundation
import OpenEventKit
import REPLKit

/// Asking for access the way the samples do: at the first command that needs the calendar
/// (not at launch, so that a person sees why it is asked), through the console, and with a
/// clear way out when the answer was no.
///
/// EventKitUI has no counterpart: on Apple's systems the system itself shows the alert.
/// OpenEventKitApp's `AppSession.store(for:writeOnlyIsEnough:)` calls this for a sample's
/// commands.
///
/// ```swift
/// let store = EKEventStore()
/// let agenda = REPLCommand("agenda", help: "Shows the week.") {
///   try CalendarAccess.requireFullAccess(to: .event, store: store, console: console)
///   AgendaView(eventStore: store).show(from: console.now, days: 7, on: console)
/// }
/// // Error: You did not allow this app to use your calendar. To change that: ekctl privacy …
/// ```
public enum CalendarAccess {
  /// Returns when the app may read and write `entityType`; otherwise throws a message saying
  /// how to change the decision. The person is asked, through the console, only when they
  /// have not decided yet (or gave events write-only access, which is not enough to read).
  ///
  /// To ask, it installs a ``PrivacyAlert`` on `console` as the store's prompt presenter
  /// (`EKEventStore.accessPromptPresenter`, which stays installed) and waits for the store's
  /// `requestFullAccessToEvents` or `requestFullAccessToReminders` to complete. Call it on
  /// the thread that reads the console, not from a store's completion handler.
  ///
  /// ```swift
  /// do {
  ///   try CalendarAccess.requireFullAccess(to: .reminder, store: store, console: console)
  ///   console.print("\(store.calendars(for: .reminder).count) reminder lists")
  /// } catch {
  ///   console.print("error: \(error)")  // how to change the decision, when refused
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - entityType: Events or reminders; each is asked for on its own.
  ///   - store: The store to ask through.
  ///   - console: Where the question is asked, and answered, in order with the commands.
  /// - Throws: `REPLError`, with a sentence for the person that says how to change the
  ///   decision (``howToChange(_:)``) where one can: when access is restricted or was denied;
  ///   when the person refuses now; when they give no answer (Ctrl-C, the end of input, three
  ///   answers that fit no choice), which decides nothing, so the next call asks again; or
  ///   when the store could not ask (its error's description).
  public static func requireFullAccess(
    to entityType: EKEntityType, store: EKEventStore, console: Console
  ) throws(REPLError) {
    let noun = noun(entityType)
    let howToChange = howToChange(entityType)
    switch EKEventStore.authorizationStatus(for: entityType) {
    case .fullAccess: return
    case .restricted:
      throw REPLError("Access to your \(noun) is restricted on this system. \(howToChange)")
    case .denied:
      throw REPLError(refused(entityType))
    case .notDetermined, .writeOnly: break
    }
    let alert = PrivacyAlert(console: console)
    EKEventStore.accessPromptPresenter = alert
    let answer = Answer()
    let done = DispatchSemaphore(value: 0)
    let completion: EKEventStoreRequestAccessCompletionHandler = { granted, error in
      answer.set(granted, error)
      done.signal()
    }
    if entityType == .reminder {
      store.requestFullAccessToReminders(completion: completion)
    } else {
      store.requestFullAccessToEvents(completion: completion)
    }
    done.wait()
    if let error = answer.error {
      throw REPLError("Could not ask for access: \(error.localizedDescription)")
    }
    guard answer.granted else {
      // No answer (Ctrl-C, the end of input, answers that fit no choice) decides nothing:
      // the next command that needs the calendar asks again. Only the alert can tell it from
      // a refusal: a write-only app refused full access stays write-only too.
      if alert.wentUnanswered {
        throw REPLError(
          "No answer, so the app did not use your \(noun); it will ask again next time.")
      }
      throw REPLError(refused(entityType))
    }
  }

  /// What a command answers when the person refused access, at the prompt just now or
  /// before: one sentence for both, with the way to change the decision.
  private static func refused(_ entityType: EKEntityType) -> String {
    "You did not allow this app to use your \(noun(entityType)). \(howToChange(entityType))"
  }

  /// What the app asks access to, as the messages say it: "calendar" or "reminders".
  ///
  /// ```swift
  /// print("May this app use your \(CalendarAccess.noun(.event))?")  // … your calendar?
  /// print(CalendarAccess.noun(.reminder))  // reminders
  /// ```
  ///
  /// - Parameter entityType: Events or reminders.
  /// - Returns: "reminders" for reminders, "calendar" for events.
  public static func noun(_ entityType: EKEntityType) -> String {
    entityType == .reminder ? "reminders" : "calendar"
  }

  /// The items of the entity type: "events" or "reminders" (also `ekctl privacy`'s words).
  ///
  /// ```swift
  /// print(CalendarAccess.items(.event), CalendarAccess.items(.reminder))  // events reminders
  /// ```
  ///
  /// - Parameter entityType: Events or reminders.
  /// - Returns: "reminders" for reminders, "events" for events.
  public static func items(_ entityType: EKEntityType) -> String {
    entityType == .reminder ? "reminders" : "events"
  }

  /// The command that gives this app full access, for messages that refuse for want of it:
  /// "To change that: ekctl privacy set --app … --entity events full".
  ///
  /// ```swift
  /// print(CalendarAccess.howToChange(.reminder))
  /// // To change that: ekctl privacy set --app <this app's identifier> --entity reminders full
  /// ```
  ///
  /// - Parameter entityType: Events or reminders.
  /// - Returns: The sentence, naming this app's identifier
  ///   (`PrivacySettings.currentAppIdentifier`) and the entity type's items.
  public static func howToChange(_ entityType: EKEntityType) -> String {
    "To change that: ekctl privacy set --app \(PrivacySettings.currentAppIdentifier) "
      + "--entity \(items(entityType)) full"
  }

  /// The completion's answer, handed from the queue it runs on to the waiting thread.
  private final class Answer: @unchecked Sendable {
    private let lock = NSLock()
    private var value: (Bool, (any Error)?) = (false, nil)

    func set(_ granted: Bool, _ error: (any Error)?) { lock.withLock { value = (granted, error) } }
    var granted: Bool { lock.withLock { value.0 } }
    var error: (any Error)? { lock.withLock { value.1 } }
  }
}
