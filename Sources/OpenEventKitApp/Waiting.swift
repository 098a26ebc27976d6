import Foundation

/// Waits for an answer that comes to a completion handler, on the thread that asked: what a
/// REPL command, which runs on one thread and reads the console there, does with EventKit's
/// `requestFullAccessToEvents(completion:)` or `fetchReminders(matching:completion:)`.
///
/// EventKit's completions run on a queue of the store's; an app with a run loop would go on
/// and handle the answer there. A command must have the answer before it returns, so it
/// waits. It has nothing to do with EventKit beyond that: any completion-style call will do.
///
/// ```swift
/// import OpenEventKit
///
/// let store = EKEventStore()
/// let (granted, error) = waitForAnswer { answer in
///   store.requestFullAccessToEvents { granted, error in answer((granted, error)) }
/// }
/// print(granted, error == nil)
/// ```
///
/// Do not call it from the completion's own queue, or from a body the store runs: the answer
/// could never come.
///
/// - Parameter ask: Starts the call, passing on the function to call with its answer.
/// - Returns: The answer, once given.
public func waitForAnswer<Answer: Sendable>(
  _ ask: (@escaping @Sendable (Answer) -> Void) -> Void
) -> Answer {
  let box = AnswerBox<Answer>()
  ask { box.set($0) }
  return box.wait()
}

/// The answer, handed from the queue it comes on to the waiting thread.
private final class AnswerBox<Answer: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private let given = DispatchSemaphore(value: 0)
  private var answer: Answer?

  func set(_ answer: Answer) {
    lock.withLock { self.answer = answer }
    given.signal()
  }

  func wait() -> Answer {
    while true {
      given.wait()
      // Set before the signal, so there after it.
      if let answer = lock.withLock({ answer }) { return answer }
    }
  }
}
