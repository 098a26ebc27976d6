import Foundation

/// How long the tests wait for something another process or thread causes: long enough for a
/// loaded 2-core machine, tight only in the full reliability run (`OPENEVENTKIT_RELIABILITY=full`,
/// scripts/reliability), where the machine is the test's alone. The time it took is printed, not
/// asserted: a slow machine is not a defect, a notice that never comes is.
public enum Latency {
  /// Whether the suite runs in its full form (scripts/reliability).
  public static let isFullRun =
    ProcessInfo.processInfo.environment["OPENEVENTKIT_RELIABILITY"] == "full"

  /// The bound for a wait whose usual time is well under a second: `tight` in the full run,
  /// twenty seconds otherwise.
  public static func bound(tight: TimeInterval) -> TimeInterval { isFullRun ? tight : 20 }

  /// Waits until `condition` holds, bounded by ``bound(tight:)``, and prints how long it
  /// took, labelled `what`. The condition is looked at once more after the deadline: with
  /// every thread of the test pool busy, this task may wake long after the thing came.
  /// Returns whether it held.
  public static func eventually(
    _ what: String, tight: TimeInterval = 2, _ condition: () throws -> Bool
  ) async throws -> Bool {
    let since = Date()
    let deadline = since.addingTimeInterval(bound(tight: tight))
    var held = try condition()
    while !held, Date() < deadline {
      try await Task.sleep(for: .milliseconds(20))
      held = try condition()
    }
    let seconds = String(format: "%.3f", Date().timeIntervalSince(since))
    print("latency: \(what): \(held ? "" : "not seen after ")\(seconds) s")
    return held
  }
}

extension SampleRun {
  /// Waits for `text` (`count` times) as ``wait(for:count:timeout:)`` does, bounded by
  /// ``Latency/bound(tight:)``, and prints how long it took from the call (made just after
  /// the cause ended), labelled `what`.
  public func waitReportingLatency(
    for text: String, count: Int = 1, tight: TimeInterval, what: String
  ) throws {
    let since = Date()
    try wait(for: text, count: count, timeout: Latency.bound(tight: tight))
    let seconds = Date().timeIntervalSince(since)
    print(
      "latency: \(what): \(String(format: "%.3f", seconds)) s (bound \(tight) s in the full run)")
  }
}
