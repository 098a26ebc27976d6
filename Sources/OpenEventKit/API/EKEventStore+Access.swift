import Foundation

/// What an access request's completion receives: whether access is granted, and an error when
/// the request itself failed.
public typealias EKEventStoreRequestAccessCompletionHandler = (Bool, (any Error)?) -> Void

// Access to events and reminders, with Apple's methods. Until privacy decisions land (issue
// #6), every app has full access: the status is `.fullAccess` and every request is granted.
extension EKEventStore {
  public class func authorizationStatus(for entityType: EKEntityType) -> EKAuthorizationStatus {
    .fullAccess
  }

  public func requestFullAccessToEvents(
    completion: @escaping EKEventStoreRequestAccessCompletionHandler
  ) {
    answer(completion)
  }

  public func requestFullAccessToEvents() async throws -> Bool { true }

  public func requestWriteOnlyAccessToEvents(
    completion: @escaping EKEventStoreRequestAccessCompletionHandler
  ) {
    answer(completion)
  }

  public func requestWriteOnlyAccessToEvents() async throws -> Bool { true }

  public func requestFullAccessToReminders(
    completion: @escaping EKEventStoreRequestAccessCompletionHandler
  ) {
    answer(completion)
  }

  public func requestFullAccessToReminders() async throws -> Bool { true }

  @available(
    *, deprecated, message: "Use requestFullAccessToEvents or requestFullAccessToReminders"
  )
  public func requestAccess(
    to entityType: EKEntityType, completion: @escaping EKEventStoreRequestAccessCompletionHandler
  ) {
    answer(completion)
  }

  @available(
    *, deprecated, message: "Use requestFullAccessToEvents or requestFullAccessToReminders"
  )
  public func requestAccess(to entityType: EKEntityType) async throws -> Bool { true }

  /// Answers on a background queue, as Apple's store does.
  private func answer(_ completion: @escaping EKEventStoreRequestAccessCompletionHandler) {
    nonisolated(unsafe) let completion = completion
    DispatchQueue.global().async { completion(true, nil) }
  }
}
