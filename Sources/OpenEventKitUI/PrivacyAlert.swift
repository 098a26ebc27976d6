import OpenEventKit
import REPLKit

/// The privacy alert as a sample shows it: the store's access prompt asked through the
/// console's line reader, so that a piped session answers it with its next line, in order with
/// the commands around it.
///
/// Install it with `EKEventStore.accessPromptPresenter = PrivacyAlert(console: console)`
/// before the first request for access.
public struct PrivacyAlert: AccessPromptPresenter {
  private let console: Console

  public init(console: Console) { self.console = console }

  public func present(_ request: AccessPromptRequest) -> Bool? {
    let style = console.style
    let width = max(request.title.count, request.usageDescription.count)
    console.print(
      "", style.rule(width: width), style.bold(request.title), request.usageDescription,
      style.rule(width: width), "  1) \(request.choices.allow)", "  2) \(request.choices.deny)")
    switch console.choose(
      "Choose 1 or 2: ", among: [request.choices.allow, request.choices.deny],
      aliases: ["y": 0, "yes": 0, "allow": 0, "n": 1, "no": 1, "deny": 1])
    {
    case 0: return true
    case 1: return false
    default: return nil
    }
  }
}
