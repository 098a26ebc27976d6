import OpenEventKit
import REPLKit

extension ClubCommands {
  // MARK: pattern access
  // Asked at the first command that needs it, not at launch; checked each time: minds change.
  func requireFullAccess() async throws {
    let app = PrivacySettings.currentAppIdentifier  // OpenEventKit addition: for ekctl
    let howToChange = "To change that: ekctl privacy set --app \(app) --entity events full"
    let refused = REPLError("This app does not have full access to your calendar. \(howToChange)")
    switch EKEventStore.authorizationStatus(for: .event) {
    case .fullAccess: return
    case .writeOnly: fallthrough  // cannot read the meetings back: ask for full access
    case .notDetermined:  // the alert shows once; asked again, the request answers at once
      let granted = try await eventStore.requestFullAccessToEvents()
      guard granted else { throw refused }  // "Don't Allow" (Linux: or no answer, undecided)
    case .denied:  // refused, now or before: no alert shows again, so say where to turn it
      // on (Apple: Settings › Privacy & Security › Calendars; here `ekctl privacy set`)
      throw refused
    case .restricted:  // a policy (Screen Time, device management) forbids it: the person
      // cannot allow it and no alert shows; say so (here `ekctl privacy set` lifts it)
      throw REPLError("Access to your calendar is restricted on this system. \(howToChange)")
    @unknown default: throw refused
    }
  }
}
