import Foundation

/// The time `shop` prints ("Added 6 items to "Crêpes" in one commit: 0.5 ms."): the wall
/// clock around the whole write, from the first save to the end of the last commit, so that
/// both ways are timed alike. It is measured from outside the batch, which knows nothing of
/// it. What it shows depends on the disk and on SQLite's synchronous mode, and varies from run
/// to run; docs/PERFORMANCE.md's "Batching (issue 43)" measures both ways with their
/// conditions (`ekbench batching`).
enum ShoppingTiming {
  /// How long `body` took.
  static func timed(_ body: () throws -> Void) rethrows -> Duration {
    try ContinuousClock().measure(body)
  }

  /// Said after each time, which means little without them: the store's commits write SQLite's
  /// log without syncing it (`synchronous=NORMAL` in WAL mode); only a commit that runs a
  /// checkpoint waits for the disk (SQLite's, once the log passes 1,000 pages; the store's,
  /// before a batch of 100 items or more). So one commit per item costs little more than one
  /// for all; what one commit buys is the list whole or not at all, seen so by other apps, and
  /// one `EKEventStoreChanged`.
  static let conditions = "(synchronous=NORMAL: commits sync to disk only at checkpoints)"

  /// "1.4 ms".
  static func milliseconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    let value = Double(seconds) * 1000 + Double(attoseconds) / 1e15
    return String(format: "%.1f ms", value)
  }
}
