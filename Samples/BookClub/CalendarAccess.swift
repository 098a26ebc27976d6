import OpenEventKit
import OpenEventKitApp
import OpenEventKitUI
import REPLKit

extension ClubCommands {
  // MARK: pattern access
  // Asked at the first command that needs the calendar, not at launch, so the person sees
  // why; checked before every use, since the person may change their mind while it runs.
  func requireFullAccess() throws {
    let app = PrivacySettings.currentAppIdentifier  // OpenEventKit addition: for ekctl
    let howToChange = "To change that: ekctl privacy set --app \(app) --entity events full"
    let refused = REPLError("You did not allow this app to use your calendar. \(howToChange)")
    switch EKEventStore.authorizationStatus(for: .event) {
    case .fullAccess: return
    case .denied: throw refused
    case .restricted:  // a bar on even asking; here the person's own setting, which they can lift
      throw REPLError("Access to your calendar is restricted on this system. \(howToChange)")
    case .notDetermined, .writeOnly:  // write-only cannot read the meetings back: ask for full
      // OpenEventKit addition: Linux has no system alert; the console asks.
      EKEventStore.accessPromptPresenter = PrivacyAlert(console: session.console)
      let (granted, error) = waitForAnswer { answer in  // OpenEventKitApp's; apps await
        eventStore.requestFullAccessToEvents { answer(($0, $1)) }
      }
      if let error { throw REPLError("Could not ask for access: \(error.localizedDescription)") }
      if granted { return }
      guard EKEventStore.authorizationStatus(for: .event) == .notDetermined else { throw refused }
      throw REPLError(  // OpenEventKit: the console can go unanswered; ask next time
        "No answer, so the app did not use your calendar; it will ask again next time.")
    @unknown default: throw refused
    }
  }
}
