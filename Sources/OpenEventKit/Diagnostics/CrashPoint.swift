import Foundation
import Synchronization

/// A test hook: the places where a test may have the process stop dead, as a crash, an
/// out-of-memory kill or the power button would, so that a crash test names the moment it
/// tests instead of hoping a kill at a random delay lands there.
///
/// `OPENEVENTKIT_CRASH_AFTER=KIND:N` (`commit:3`, `row:5000`, `put:2`) sends the process
/// SIGKILL right after its Nth passage of that kind: no `defer`, no `atexit`, no buffer
/// flushed, exactly as an outside kill at that instant. The variable is read once, at the
/// first crash point the process passes; a value that does not read is logged and ignored
/// (the test, which expects the kill, then fails).
///
/// Compiled in debug builds only (what `swift build` and `swift test` make). In a release
/// build, what ships, the variable is never read and ``passed()`` is an empty function, so a
/// person cannot stop their program with it by accident and it costs nothing. The tests that
/// use it run the debug build's programs (the release run of scripts/test takes the samples'
/// terminal tests and StoreLifetimeTests only).
///
/// ```sh
/// # Stops after the third committed batch: the store then holds exactly three.
/// OPENEVENTKIT_CRASH_AFTER=commit:3 oek-store-helper rounds "$HOME" rounds.log 6 1000
/// ```
package enum CrashPoint: String, Sendable, CaseIterable {
  /// A write transaction of the calendar database has committed (`CalendarDatabase.write`:
  /// every save, commit, import, removal and sync write of the store).
  case commit
  /// An `item` row was written or deleted inside a write transaction (``RowWriter``), before
  /// the transaction commits.
  case row
  /// The server answered a sync's PUT of a resource with success, before the store records
  /// it as sent (OpenEventKitSync's push).
  case put

  /// The environment variable that arms the hook.
  package static let variable = "OPENEVENTKIT_CRASH_AFTER"

  /// Counts a passage of this point; stops the process at the one the variable names.
  @inline(__always)
  package func passed() {
    #if DEBUG
      CrashPoint.count(self)
    #endif
  }

  #if DEBUG
    /// The point and passage the variable names; nil when it is not set.
    private static let armed: (point: CrashPoint, after: Int)? = {
      guard let value = ProcessInfo.processInfo.environment[variable] else { return nil }
      guard let parsed = parse(value) else {
        Log.store.warning(
          "\(variable)=\(value) ignored: a test hook that takes KIND:N, N from 1, KIND one of \(allCases.map(\.rawValue).joined(separator: ", "))"
        )
        return nil
      }
      return parsed
    }()

    /// The passages of the armed point so far.
    private static let passages = Atomic<Int>(0)

    private static func count(_ point: CrashPoint) {
      guard let armed, armed.point == point else { return }
      if passages.add(1, ordering: .relaxed).newValue == armed.after {
        kill(getpid(), SIGKILL)
      }
    }
  #endif

  /// `KIND:N` as a point and a passage, N from 1; nil for anything else.
  ///
  /// ```swift
  /// print(CrashPoint.parse("commit:3") as Any)  // Optional((point: commit, after: 3))
  /// print(CrashPoint.parse("commit") as Any)  // nil
  /// ```
  package static func parse(_ value: String) -> (point: CrashPoint, after: Int)? {
    let parts = value.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2, let point = CrashPoint(rawValue: String(parts[0])),
      let after = Int(parts[1]), after >= 1
    else { return nil }
    return (point, after)
  }
}
