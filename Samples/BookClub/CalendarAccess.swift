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
    case .writeOnly, .notDetermined:  // write-only cannot read the meetings back. The alert
      // shows once; asked again, the request answers at once. Linux: it can go unanswered
      guard try await eventStore.requestFullAccessToEvents() else {  // (still .notDetermined)
        let undecided = EKEventStore.authorizationStatus(for: .event) == .notDetermined
        throw undecided ? REPLError("No answer: nothing was decided; it asks again.") : refused
      }
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
