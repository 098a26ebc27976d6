import Foundation

/// One instance of a recurrence set: when it starts on the wall clock of DTSTART's zone, and
/// as an instant.
public struct Occurrence: Hashable, Sendable, Comparable {
  /// The start as the wall clock of DTSTART's zone reads it (for a floating or DATE start,
  /// the reading itself). A start that fell in a DST gap reads as moved forward.
  public let local: CivilDateTime
  /// Seconds since 1970-01-01T00:00:00Z. For a floating or DATE start, which names no instant
  /// until a zone is chosen, the wall-clock reading taken as UTC.
  public let secondsSinceEpoch: Int

  public init(local: CivilDateTime, secondsSinceEpoch: Int) {
    self.local = local
    self.secondsSinceEpoch = secondsSinceEpoch
  }

  /// The instant as a Foundation `Date`.
  public var date: Date { Date(timeIntervalSince1970: TimeInterval(secondsSinceEpoch)) }

  public static func < (lhs: Occurrence, rhs: Occurrence) -> Bool {
    lhs.secondsSinceEpoch < rhs.secondsSinceEpoch
  }
}
