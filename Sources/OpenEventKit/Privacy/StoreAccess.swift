import Foundation
import Synchronization

/// What this store may do, as the person decided for this app: the one check every entry
/// point of the store makes (enforcement lives here, never in apps).
///
/// Decisions are read from Privacy.sqlite at most once a second, at once after a decision made
/// in this process, and again whenever the watcher sees the file change (`ekctl privacy`).
struct AccessState: Sendable {
  var statuses: [EKEntityType: EKAuthorizationStatus] = [:]
  var readAt: UInt64 = 0
  var generation = -1
}

extension EKEventStore {
  /// Bumped by every decision made in this process, so that every store reads it at once.
  static let decisionGeneration = Atomic<Int>(0)

  /// This app's status for `entityType` in this store's database.
  func access(to entityType: EKEntityType) -> EKAuthorizationStatus {
    if actsForOwner { return .fullAccess }
    let now = DispatchTime.now().uptimeNanoseconds
    let generation = EKEventStore.decisionGeneration.load(ordering: .acquiring)
    if let status = accessState.withLock({ state -> EKAuthorizationStatus? in
      guard state.generation == generation, now &- state.readAt < 1_000_000_000 else { return nil }
      return state.statuses[entityType]
    }) {
      return status
    }
    let identity = AppIdentity.current.bundleIdentifier
    var statuses: [EKEntityType: EKAuthorizationStatus] = [:]
    for type in [EKEntityType.event, .reminder] {
      statuses[type] = (try? privacy?.status(of: identity, for: type)) ?? .notDetermined
    }
    accessState.withLock {
      $0 = AccessState(statuses: statuses, readAt: now, generation: generation)
    }
    return statuses[entityType] ?? .notDetermined
  }

  /// Forgets the statuses read, so that the next check reads the decisions again.
  func forgetAccess() {
    accessState.withLock { $0.readAt = 0 }
  }

  /// Whether the app may read items of `entityType` (full access).
  func canRead(_ entityType: EKEntityType) -> Bool { access(to: entityType) == .fullAccess }

  /// Which calendars of a kind the app may see: all with full access; with write-only access
  /// to events, only the default calendar for new events (where it may add them); else none.
  func calendarVisibility(_ entityType: EKEntityType) -> CalendarVisibility {
    switch access(to: entityType) {
    case .fullAccess: .all
    case .writeOnly where entityType == .event: .defaultOnly
    default: .none
    }
  }

  enum CalendarVisibility { case all, defaultOnly, none }

  /// Refuses a change the app has no access for: saving items needs full access, or (events)
  /// write-only access for a new event; removing and calendar changes need full access.
  func checkCanWrite(_ entityType: EKEntityType, newItem: Bool = false) throws(EKError) {
    let status = access(to: entityType)
    if status == .fullAccess || (status == .writeOnly && newItem && entityType == .event) {
      return
    }
    let noun = entityType == .event ? "events" : "reminders"
    let ask =
      entityType == .event ? "requestFullAccessToEvents()" : "requestFullAccessToReminders()"
    let reason =
      switch status {
      case .writeOnly: "it may only add new events"
      case .denied: "the person denied it"
      case .restricted: "access is restricted"
      default: "it has not asked (\(ask))"
      }
    throw EKError(
      .eventStoreNotAuthorized, "The app has no access to change \(noun): \(reason).")
  }
}
