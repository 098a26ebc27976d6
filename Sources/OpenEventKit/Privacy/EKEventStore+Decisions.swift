import Foundation
import Synchronization

// How a store decides an access request: the person decides once per app and entity type,
// through the prompt presenter (API/EKEventStore+Access.swift); the decision is kept in
// Privacy.sqlite beside the calendar database.
extension EKEventStore {
  /// Answers an access request on a background queue, as Apple's store does.
  func answerAccessRequest(
    _ kind: AccessPromptRequest.Kind,
    _ completion: @escaping EKEventStoreRequestAccessCompletionHandler
  ) {
    DispatchQueue.global().async { [self] in
      do {
        completion(try decideAccess(kind), nil)
      } catch {
        completion(false, error)
      }
    }
  }

  /// The `async` form of a request.
  func requestAccess(_ kind: AccessPromptRequest.Kind) async throws -> Bool {
    try await withCheckedThrowingContinuation { continuation in
      answerAccessRequest(kind) { granted, error in
        if let error {
          continuation.resume(throwing: error)
        } else {
          continuation.resume(returning: granted)
        }
      }
    }
  }

  /// Answers a request from the decision already made, or asks the person and keeps their
  /// answer. A request without the matching usage description in Info.plist fails, naming
  /// the key, and decides nothing; so does a request to a store whose calendar database
  /// cannot be opened (the person would grant access to nothing, and be told nothing).
  func decideAccess(_ kind: AccessPromptRequest.Kind) throws -> Bool {
    if let openError { throw openError }
    let identity = AppIdentity.current
    let entity: EKEntityType = kind == .fullAccessToReminders ? .reminder : .event
    return try EKEventStore.promptLock.withLock {
      let privacy = try PrivacyDatabase(location: location)
      let status = try privacy.status(of: identity.bundleIdentifier, for: entity)
      switch (kind, status) {
      case (_, .fullAccess), (.writeOnlyAccessToEvents, .writeOnly): return true
      case (_, .denied), (_, .restricted): return false
      case (_, .writeOnly):  // asking for full access: the prompt shows once, as on Apple's
        if try privacy.refusedFullAccess(of: identity.bundleIdentifier, for: entity) {
          return false
        }
      default: break  // not determined
      }
      let key =
        switch kind {
        case .fullAccessToEvents: AppIdentity.UsageKey.calendarsFullAccess
        case .writeOnlyAccessToEvents: AppIdentity.UsageKey.calendarsWriteOnly
        case .fullAccessToReminders: AppIdentity.UsageKey.remindersFullAccess
        }
      guard let description = identity.usageDescriptions[key] else {
        if let problem = identity.infoPlistProblem {
          throw EKError(
            .eventStoreNotAuthorized,
            "\(identity.displayName) asked for access, but \(problem); ship the app's "
              + "Info.plist with it, with \(key) saying why the app needs the access.")
        }
        // The key books written before iOS 17 teach is read no more (Apple's TN3152).
        let older = AppIdentity.UsageKey.older(for: entity)
        let note =
          identity.olderUsageKeys.contains(older)
          ? " (it has \(older), which apps built for iOS 17 and later no longer use)" : ""
        throw EKError(
          .eventStoreNotAuthorized,
          "\(identity.displayName) asked for access without \(key) in its Info.plist\(note); "
            + "add it, saying why the app needs the access.")
      }
      let request = AccessPromptRequest(
        kind: kind, appName: identity.displayName, bundleIdentifier: identity.bundleIdentifier,
        usageDescription: description)
      guard let allowed = EKEventStore.accessPromptPresenter.present(request) else {
        return false  // no answer: nothing decided, the app may ask again
      }
      // Decided while the prompt waited (`ekctl privacy set`, or another process of the app
      // whose prompt was answered first): that decision stands, and this late answer is not
      // kept over it; the request answers by it, and the person is told when it differs.
      let decided = try privacy.status(of: identity.bundleIdentifier, for: entity)
      let refusedMeanwhile =
        try status == .writeOnly
        && privacy.refusedFullAccess(of: identity.bundleIdentifier, for: entity)
      if decided != status || refusedMeanwhile {
        let granted =
          decided == .fullAccess || (kind == .writeOnlyAccessToEvents && decided == .writeOnly)
        if granted != allowed {
          EKEventStore.accessPromptPresenter.decidedMeanwhile(request, status: decided)
        }
        return granted
      }
      defer {
        EKEventStore.decisionGeneration.add(1, ordering: .releasing)
      }
      if allowed {
        try privacy.decide(
          kind == .writeOnlyAccessToEvents ? .writeOnly : .fullAccess,
          for: identity.bundleIdentifier, entityType: entity, how: "prompt")
      } else if status == .writeOnly {
        // Refusing more than write-only keeps write-only, and is not asked again.
        try privacy.refuseFullAccess(for: identity.bundleIdentifier, entityType: entity)
      } else {
        try privacy.decide(
          .denied, for: identity.bundleIdentifier, entityType: entity, how: "prompt")
      }
      return allowed
    }
  }

  /// One prompt at a time in a process.
  static let promptLock = NSLock()

  /// The app's access to `entityType` as the person decided it for the user's store.
  ///
  /// A status that differs from the one this process read last makes every store read the
  /// decisions again at its next check, so that a store enforces what the app was just told:
  /// an app that sees `.fullAccess` here and refetches must not be refused by a store that
  /// read the old decision less than a second ago (and have the items it shows told as
  /// removed).
  ///
  /// Without a privacy database nothing was decided, and none is made: reading the status (at
  /// launch, say) writes no file.
  static func currentAuthorizationStatus(for entityType: EKEntityType) -> EKAuthorizationStatus {
    let location = StoreLocation.current()
    let status =
      FileManager.default.fileExists(atPath: location.privacyDatabase.path)
      ? (try? PrivacyDatabase(location: location).status(
        of: AppIdentity.current.bundleIdentifier, for: entityType)) ?? .notDetermined
      : .notDetermined
    let changed = lastStatusRead.withLock { last in
      defer { last[entityType] = status }
      return last[entityType] != status
    }
    if changed { decisionGeneration.add(1, ordering: .releasing) }
    return status
  }

  /// The status ``authorizationStatus(for:)`` last answered in this process, per entity type.
  private static let lastStatusRead = Mutex<[EKEntityType: EKAuthorizationStatus]>([:])
}

extension EKError {
  /// What `requestAccess(to:)` answers: Apple's store refuses it to apps built for iOS 17 and
  /// macOS 14 or later, naming the requests that replace it.
  static func deprecatedAccessRequest() -> EKError {
    EKError(
      .eventStoreNotAuthorized,
      "requestAccess(to:) is deprecated and no longer allowed; use requestFullAccessToEvents(), "
        + "requestWriteOnlyAccessToEvents() or requestFullAccessToReminders(), with their "
        + "usage descriptions in Info.plist")
  }
}
