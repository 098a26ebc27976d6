import EkctlKit
import Foundation
import OpenEventKit

/// The person's decision about the server: read for each call, never asked for on standard
/// input (the protocol's), and asked on the terminal by `ekctl mcp --authorize`.
struct Authorization: Sendable {
  let events: EKAuthorizationStatus
  let reminders: EKAuthorizationStatus

  /// The bundle identifier the store enforces decisions for: the server's Info.plist's
  /// (`org.openeventkit.mcp`), or the executable's name when it was installed without it.
  static var app: String { PrivacySettings.currentAppIdentifier }

  /// The decisions as they are now (the person may change them while the server runs).
  static func current(_ location: StoreFolder) -> Authorization {
    let settings = try? location.privacy()
    func status(_ type: EKEntityType) -> EKAuthorizationStatus {
      (try? settings?.status(of: app, for: type)) ?? .notDetermined
    }
    return Authorization(events: status(.event), reminders: status(.reminder))
  }

  func status(_ entity: EKEntityType) -> EKAuthorizationStatus {
    entity == .event ? events : reminders
  }

  /// What a tool of `entity` that needs `need` may do under this decision: nil when it may
  /// run, else the refusal the agent is given, naming what the person runs to change it.
  func refusal(_ entity: EKEntityType, need: Need, location: StoreFolder) -> String? {
    let status = status(entity)
    let noun = entity == .event ? "events" : "reminders"
    let set =
      "ekctl privacy set\(location.databaseArgument) --app \(Authorization.app) --entity \(noun)"
    if status == .fullAccess || (status == .writeOnly && need == .add && entity == .event) {
      return nil
    }
    switch status {
    case .notDetermined:
      return """
        The person has not decided yet whether this calendar server may use their \(noun). \
        Ask them to run, in a terminal: `ekctl mcp --authorize\(location.databaseArgument)` \
        (it asks there), or to allow it outright: `\(set) full`\
        \(entity == .event ? " (or `\(set) write-only` to let it add events only)" : ""). \
        Then call this tool again.
        """
    case .writeOnly:
      return """
        The person allowed this server to add events only, not to read or change them. \
        Reading and changing events needs full access: `\(set) full`, which only the person \
        can run.
        """
    case .denied, .restricted:
      return """
        The person \(status == .denied ? "denied" : "restricted") this server's access to \
        their \(noun): nothing was read or written. Only they can change it, with `\(set) full`.
        """
    default:
      return "This server has no access to the person's \(noun)."
    }
  }

  /// What a tool needs of its entity's access.
  enum Need: Sendable {
    /// Reading, changing or removing: full access.
    case full
    /// Adding a new event: write-only access is enough.
    case add
  }

  /// `ekctl mcp --authorize`: asks the person on the terminal for full access to events and
  /// to reminders, then says what was decided (write-only access to events is
  /// `ekctl privacy set`'s: a refusal is recorded, and a store asks no more after one).
  static func ask(_ location: StoreFolder) throws {
    let store = location.openStore()
    func request(_ body: (@escaping EKEventStoreRequestAccessCompletionHandler) -> Void) throws
      -> Bool
    {
      let answered = DispatchSemaphore(value: 0)
      nonisolated(unsafe) var result: (Bool, (any Error)?) = (false, nil)
      body { granted, error in
        result = (granted, error)
        answered.signal()
      }
      answered.wait()
      if let error = result.1 { throw CommandError(error.localizedDescription) }
      return result.0
    }
    _ = try request(store.requestFullAccessToEvents)
    _ = try request(store.requestFullAccessToReminders)
    let decided = current(location)
    func words(_ status: EKAuthorizationStatus) -> String {
      switch status {
      case .fullAccess: "full access"
      case .writeOnly: "may add events only"
      case .denied: "denied"
      case .restricted: "restricted"
      default: "not decided"
      }
    }
    print("\(app): events \(words(decided.events)), reminders \(words(decided.reminders)).")
    print("`ekctl privacy list` shows it, `ekctl privacy set` changes it.")
  }
}
