/// The bounds `meta` keeps for window queries, as far as one connection has seen them
/// committed: the longest single event (``ItemRows/longestSingleEvent(_:)``) and the earliest
/// and latest relative alarm offsets (``AlarmRows/eventOffsetBounds(_:)``).
///
/// Every writer only widens them, so a value seen committed stays a true bound whatever other
/// processes write after, and a write whose rows it already covers need not touch `meta`: a
/// single save of an event no longer than one saved before is spared an UPDATE, a tenth of
/// its instructions (docs/PERFORMANCE.md). A bound is kept only once the transaction that
/// wrote it has committed; a write that rolls back leaves what was kept as it was.
///
/// ```swift
/// var bounds = database.committedBounds()
/// try database.write { db in
///   try RowWriter.writing(db, bounds: &bounds) { rows in try rows.insert(record) }
/// }
/// database.keep(bounds)  // only reached once the write has committed
/// ```
struct MetaBounds: Equatable, Sendable {
  /// The longest single event, in seconds; 0 when none is known.
  var longestSingle = 0
  /// The lowest and highest relative alarm offsets, in seconds; nil when none is known.
  var lowestAlarmOffset: Double?
  var highestAlarmOffset: Double?

  /// Whether `meta` holds at least `seconds` as the longest single event.
  func covers(longestSingle seconds: Int) -> Bool { seconds <= longestSingle }

  /// Whether `meta`'s alarm offset bounds take in `lowest` and `highest` already.
  func covers(alarmOffsetsFrom lowest: Double, to highest: Double) -> Bool {
    guard let lowestAlarmOffset, let highestAlarmOffset else { return false }
    return lowestAlarmOffset <= lowest && highest <= highestAlarmOffset
  }

  /// These bounds widened to take in `other`'s: both are true bounds, so the wider is too.
  func widened(by other: MetaBounds) -> MetaBounds {
    var result = self
    result.longestSingle = max(longestSingle, other.longestSingle)
    if let lowest = other.lowestAlarmOffset {
      result.lowestAlarmOffset = min(lowestAlarmOffset ?? lowest, lowest)
    }
    if let highest = other.highestAlarmOffset {
      result.highestAlarmOffset = max(highestAlarmOffset ?? highest, highest)
    }
    return result
  }
}
