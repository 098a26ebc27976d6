import OpenEventKit
import REPLKit
import Synchronization

/// The privacy alert as a sample shows it: the store's access prompt asked through the
/// console's line reader, so that a piped session answers it with its next line, in order with
/// the commands around it.
///
/// Install it with `EKEventStore.accessPromptPresenter = PrivacyAlert(console: console)`
/// before the first request for access.
///
/// It stands for the system's alert that EventKit shows on Apple's systems, not for an
/// EventKitUI class. ``CalendarAccess`` installs it when it asks.
///
/// ```swift
/// EKEventStore.accessPromptPresenter = PrivacyAlert(console: console)
/// store.requestFullAccessToEvents { granted, error in /* … */ }
/// //
/// // -----------------------------------------------
/// // "Loans" Would Like Full Access to Your Calendar
/// // Loans puts each payment on your calendar.
/// // -----------------------------------------------
/// //   1) Allow Full Access
/// //   2) Don't Allow
/// // Choose 1 or 2: 1
/// ```
public struct PrivacyAlert: AccessPromptPresenter {
  private let console: Console
  private let unanswered = Unanswered()

  /// Whether a prompt this alert showed went unanswered (Ctrl-C, the end of input, three
  /// answers that fit neither choice), which decides nothing.
  ///
  /// Apple's alert is always answered. A request that returns false is a refusal there; here
  /// it may be no answer at all, and only the alert knows which: the status cannot tell (a
  /// write-only app refused full access stays write-only, as one that was not answered does).
  ///
  /// ```swift
  /// let alert = PrivacyAlert(console: console)
  /// EKEventStore.accessPromptPresenter = alert
  /// let granted = try await store.requestFullAccessToEvents()
  /// console.print(granted ? "Thank you." : alert.wentUnanswered ? "No answer." : "Refused.")
  /// ```
  public var wentUnanswered: Bool { unanswered.flag.withLock { $0 } }

  /// The alert's one piece of state, shared by its copies (the store holds one).
  private final class Unanswered: Sendable {
    let flag = Mutex(false)
  }

  /// An alert that asks through `console`.
  ///
  /// ```swift
  /// EKEventStore.accessPromptPresenter = PrivacyAlert(console: console)
  /// let granted = try await store.requestFullAccessToEvents()  // asked through the console
  /// console.print(granted ? "Thank you." : "The calendar stays closed.")
  /// ```
  ///
  /// - Parameter console: The console whose reader answers the alert, in order with the
  ///   commands.
  public init(console: Console) { self.console = console }

  /// Shows the request's title and usage description between rules, with its two choices
  /// numbered, and reads the answer.
  ///
  /// The answer is `1` or `2`, the start of a choice's text (`don't`), or `y`, `yes`,
  /// `allow`, `n`, `no`, `deny`; it is asked up to three times (once when the console reads a
  /// pipe or a file). The store calls this on the request's queue while the thread that reads
  /// the console waits for the request to complete.
  ///
  /// ```swift
  /// struct CountingAlert: AccessPromptPresenter {
  ///   let alert: PrivacyAlert
  ///   func present(_ request: AccessPromptRequest) -> Bool? {
  ///     let answer = alert.present(request)  // the alert, asked through the console
  ///     if answer == nil { print("no answer for", request.kind) }
  ///     return answer
  ///   }
  /// }
  /// EKEventStore.accessPromptPresenter = CountingAlert(alert: PrivacyAlert(console: console))
  /// ```
  ///
  /// - Parameter request: What the store asks for, with the app's name and usage
  ///   description.
  /// - Returns: True to allow, false to refuse, or nil when no answer came (Ctrl-C, the end of
  ///   input, three answers that fit neither choice), which decides nothing.
  public func present(_ request: AccessPromptRequest) -> Bool? {
    let style = console.style
    let width = min(  // rules no wider than a usual terminal: a long description wraps
      72,
      max(DisplayWidth.width(of: request.title), DisplayWidth.width(of: request.usageDescription)))
    console.print(
      "", style.rule(width: width), style.bold(request.title), request.usageDescription,
      style.rule(width: width), "  1) \(request.choices.allow)", "  2) \(request.choices.deny)")
    switch console.choose(
      "Choose 1 or 2: ", among: [request.choices.allow, request.choices.deny],
      aliases: ["y": 0, "yes": 0, "allow": 0, "n": 1, "no": 1, "deny": 1])
    {
    case 0: return true
    case 1: return false
    default:
      unanswered.flag.withLock { $0 = true }
      return nil
    }
  }

  /// Says, through the console, that the answer did not count: the app's access was decided
  /// elsewhere while the alert waited, and that decision stands
  /// (`AccessPromptRequest.decidedMeanwhile(_:)`). The store calls it after the answer.
  ///
  /// ```swift
  /// struct QuietAlert: AccessPromptPresenter {
  ///   let alert: PrivacyAlert
  ///   func present(_ request: AccessPromptRequest) -> Bool? { alert.present(request) }
  ///   func decidedMeanwhile(_ request: AccessPromptRequest, status: EKAuthorizationStatus) {
  ///     alert.decidedMeanwhile(request, status: status)  // "Meanwhile, access was decided…"
  ///   }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - request: What the person was asked.
  ///   - status: The decision that stands.
  public func decidedMeanwhile(_ request: AccessPromptRequest, status: EKAuthorizationStatus) {
    console.print(request.decidedMeanwhile(status))
  }
}
