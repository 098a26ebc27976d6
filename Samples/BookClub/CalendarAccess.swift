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
    case .writeOnly: fallthrough  // cannot read the meetings back: ask for full access
    case .notDetermined:  // an app: `try await eventStore.requestFullAccessToEvents()`
      let granted = try ask { eventStore.requestFullAccessToEvents(completion: $0) }
      guard granted else { throw refused }
    case .denied: throw refused
    case .restricted:  // a bar on even asking; here the person's own setting, which they can lift
      throw REPLError("Access to your calendar is restricted on this system. \(howToChange)")
    @unknown default: throw refused
    }
  }
  // MARK: OpenEventKit only, not for an app to copy
  // Linux has no system alert: the console asks, and `ask` waits as `try await` would. Unlike
  // Apple's alert it can go unanswered (the end of the input), which decides nothing.
  func ask(_ call: (@escaping EKEventStoreRequestAccessCompletionHandler) -> Void) throws -> Bool {
    EKEventStore.accessPromptPresenter = PrivacyAlert(console: session.console)
    let (granted, error) = waitForAnswer { answer in call { answer(($0, $1)) } }
    if let error { throw REPLError("Could not ask for access: \(error.localizedDescription)") }
    if granted || EKEventStore.authorizationStatus(for: .event) != .notDetermined { return granted }
    throw REPLError("No answer, so the app did not use your calendar; it will ask again next time.")
  }
}
