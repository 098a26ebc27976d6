import Foundation
import OpenEventKit

/// What a store call came to, as the probes print it: "ok", "error CODE" for an `EKError`,
/// "error TYPE" for any other error.
func outcome(_ body: () throws -> Void) -> String {
  do {
    try body()
    return "ok"
  } catch let error as EKError {
    return "error \(error.code.rawValue)"
  } catch {
    return "error \(type(of: error))"
  }
}

/// How many reminders `predicate` finds, waiting for the store's answer; -1 when it gives
/// none (no access).
func reminderCount(_ store: EKEventStore, _ predicate: NSPredicate) -> Int {
  let done = DispatchSemaphore(value: 0)
  nonisolated(unsafe) var count = -1
  store.fetchReminders(matching: predicate) {
    count = $0?.count ?? -1
    done.signal()
  }
  done.wait()
  return count
}
