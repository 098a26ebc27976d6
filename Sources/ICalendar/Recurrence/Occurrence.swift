import Foundation

/// One instance of a recurrence set: when it starts on the wall clock of DTSTART's zone, and
/// as an instant.
///
/// ``Occurrences`` hands them out in start order; they compare by instant.
///
/// ```swift
/// let set = RecurrenceSet(
///   start: try DateTimeValue(parsing: "20250330T013000", tzid: "Europe/Paris"),
///   rules: [try RecurrenceRule(parsing: "FREQ=DAILY;COUNT=2")])
/// for occurrence in try set.occurrences() {
///   print(occurrence.local, occurrence.secondsSinceEpoch)
/// }
/// // 20250330T013000 1743294600
/// // 20250331T013000 1743377400
/// ```
public struct Occurrence: Hashable, Sendable, Comparable {
  /// The start as the wall clock of DTSTART's zone reads it (for a floating or DATE start,
  /// the reading itself). A start that fell in a DST gap reads as moved forward.
  public let local: CivilDateTime
  /// Seconds since 1970-01-01T00:00:00Z. For a floating or DATE start, which names no instant
  /// until a zone is chosen, the wall-clock reading taken as UTC.
  public let secondsSinceEpoch: Int

  /// An occurrence from its two readings, which the caller keeps consistent.
  ///
  /// ```swift
  /// let noon = CivilDateTime(year: 2025, month: 6, day: 1, hour: 12)!
  /// let occurrence = Occurrence(local: noon, secondsSinceEpoch: 1_748_772_000)  // 12:00 in Paris
  /// print(occurrence.local)  // 20250601T120000
  /// print(occurrence.date)  // 2025-06-01 10:00:00 +0000
  /// ```
  ///
  /// - Parameters:
  ///   - local: The start on the wall clock of DTSTART's zone.
  ///   - secondsSinceEpoch: The same start as an instant, in seconds since 1970 UTC.
  public init(local: CivilDateTime, secondsSinceEpoch: Int) {
    self.local = local
    self.secondsSinceEpoch = secondsSinceEpoch
  }

  /// The instant as a Foundation `Date`.
  public var date: Date { Date(timeIntervalSince1970: TimeInterval(secondsSinceEpoch)) }

  /// Orders occurrences by instant, as an expansion hands them out.
  ///
  /// - Parameters:
  ///   - lhs: An occurrence.
  ///   - rhs: Another occurrence.
  /// - Returns: Whether `lhs` starts at an earlier instant than `rhs`.
  public static func < (lhs: Occurrence, rhs: Occurrence) -> Bool {
    lhs.secondsSinceEpoch < rhs.secondsSinceEpoch
  }
}
