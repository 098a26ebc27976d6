import OpenEventKit
import OpenEventKitApp
import REPLKit

extension ClubCommands {
  // MARK: pattern access
  // Asked at the first command that needs the calendar, not at launch, so the person sees
  // why; checked before every use, since the person may change their mind while it runs.
  func requireFullAccess() async throws {
    let app = PrivacySettings.currentAppIdentifier  // OpenEventKit addition: for ekctl
    let howToChange = "To change that: ekctl privacy set --app \(app) --entity events full"
    let refused = REPLError("You did not allow this app to use your calendar. \(howToChange)")
    switch EKEventStore.authorizationStatus(for: .event) {
    case .fullAccess: return
    case .writeOnly: fallthrough  // cannot read the meetings back: ask for full access
    case .notDetermined:  // the alert shows once; asked again, the request answers at once
      let granted = try await eventStore.requestFullAccessToEvents()
      guard granted else { throw refused }
    case .denied: throw refused
    case .restricted:  // Apple: parental controls or device management bar it; the person
      // cannot allow it, and no prompt shows. Here `ekctl privacy set` can lift it.
      throw REPLError("Access to your calendar is restricted on this system. \(howToChange)")
    @unknown default: throw refused
    }
  }
  // MARK: OpenEventKit only, not for an app to copy
  // A command is synchronous, so it waits for the check (an app awaits it in a task); the
  // console shows the alert, which unlike Apple's can go unanswered: "No answer, …".
  func checkAccess() throws {
    try waitForAccessCheck(to: .event, askingOn: session.console) {
      try await self.requireFullAccess()
    }
  }
}
