import Dispatch
import Synchronization

/// Runs async work (a sync's network calls) from a synchronous command and waits for it: the
/// commands stay `ParsableCommand`s, and the main thread stays free of the async runtime's
/// own main loop, which `watch` replaces with `dispatchMain()`.
func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
  let outcome = Mutex<Result<T, any Error>?>(nil)
  let done = DispatchSemaphore(value: 0)
  Task {
    let result: Result<T, any Error>
    do {
      result = .success(try await body())
    } catch {
      result = .failure(error)
    }
    outcome.withLock { $0 = result }
    done.signal()
  }
  done.wait()
  // Set before the signal: the task always ends with a result.
  guard let result = outcome.withLock({ $0 }) else { throw CancellationError() }
  return try result.get()
}
