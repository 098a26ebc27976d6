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
