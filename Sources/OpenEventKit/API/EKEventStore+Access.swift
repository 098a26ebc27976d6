import Foundation

/// What an access request's completion receives: whether access is granted, and an error when
/// the request itself failed.
public typealias EKEventStoreRequestAccessCompletionHandler = (Bool, (any Error)?) -> Void

// Access to events and reminders. Until privacy decisions land (issue #6), every app has full
// access: the status is `.fullAccess` and every request is granted.
extension EKEventStore {
  /// Answers an access request on a background queue, as Apple's store does.
  func answerAccessRequest(
    for entityType: EKEntityType, _ completion: @escaping EKEventStoreRequestAccessCompletionHandler
  ) {
    nonisolated(unsafe) let completion = completion
    DispatchQueue.global().async { completion(true, nil) }
  }

  /// The app's access to `entityType`.
  static func currentAuthorizationStatus(for entityType: EKEntityType) -> EKAuthorizationStatus {
    .fullAccess
  }
}
