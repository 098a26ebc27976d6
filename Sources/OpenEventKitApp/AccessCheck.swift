import Foundation
import OpenEventKit
import OpenEventKitUI
import REPLKit

/// Runs an app's access check from a REPL command: the check is an `async` function written
/// as against Apple's EventKit (the switch on `authorizationStatus(for:)`, `try await
/// store.requestFullAccessToEvents()`), and a command is synchronous, so it waits here.
///
/// An app awaits its check from a task and needs none of this. What this adds is Linux's, not
/// EventKit's: there is no system alert, so OpenEventKitUI's `PrivacyAlert` asks on `console`
/// (and stays installed as `EKEventStore.accessPromptPresenter`); and, unlike Apple's alert, the
/// console can go unanswered (Ctrl-C, the end of the input), which decides nothing. A check
/// that fails after a prompt went unanswered throws "No answer, so the app did not use your
/// calendar; it will ask again next time." instead of its own refusal, and an `EKError` from
/// the request (a usage description missing from Info.plist) is said as "Could not ask for
/// access: …".
///
/// ```swift
/// @Sendable func requireFullAccess() async throws {
///   guard try await store.requestFullAccessToEvents() else { throw REPLError("Refused.") }
/// }
/// try waitForAccessCheck(to: .event, askingOn: console) { try await requireFullAccess() }
/// ```
///
/// Call it on the thread that reads the console (a command's), not from a task or from a
/// store's completion: the check could never finish.
///
/// - Parameters:
///   - entityType: What the check asks for, as the "No answer" sentence names it.
///   - console: Where the alert asks, in order with the commands.
///   - check: The app's check.
/// - Returns: What `check` returns.
/// - Throws: What `check` throws, but for the two cases above.
public func waitForAccessCheck<Checked: Sendable>(
  to entityType: EKEntityType, askingOn console: Console,
  _ check: @escaping @Sendable () async throws -> Checked
) throws -> Checked {
  let alert = PrivacyAlert(console: console)
  EKEventStore.accessPromptPresenter = alert
  let result: Result<Checked, any Error> = waitForAnswer { answer in
    Task {
      do {
        answer(.success(try await check()))
      } catch {
        answer(.failure(error))
      }
    }
  }
  switch result {
  case .success(let checked): return checked
  case .failure where alert.wentUnanswered:
    throw REPLError(
      "No answer, so the app did not use your \(CalendarAccess.noun(entityType)); it will ask "
        + "again next time.")
  case .failure(let error as EKError):
    throw REPLError("Could not ask for access: \(error.localizedDescription)")
  case .failure(let error): throw error
  }
}
