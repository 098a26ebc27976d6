/// A wall-clock date and time with no zone attached: what a clock on the wall reads.
///
/// Kept as the number of seconds since 1970-01-01T00:00:00 *as read on that wall clock*
/// (the reading treated as if it were UTC). That single integer orders, hashes and steps in
/// constant time; the zone that turns a reading into an instant lives beside it, in
/// ``DateTimeValue`` or in the expansion that owns it.
public struct CivilDateTime: Hashable, Comparable, Sendable, Codable {
  /// Seconds since 1970-01-01T00:00:00 on the wall clock.
  public let localSeconds: Int

  public init(localSeconds: Int) { self.localSeconds = localSeconds }

  /// A reading, or nil when a field is out of range. Second 60 (a leap second, which
  /// RFC 5545 §3.3.12 allows) is read as second 59: wall-clock readings here, like POSIX
  /// time, have no leap seconds, and rolling into the next minute could change the date.
  public init?(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
    guard let date = CivilDate(year: year, month: month, day: day),
      (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
    else { return nil }
    self.init(date: date, secondOfDay: hour * 3600 + minute * 60 + min(second, 59))
  }

  public init(date: CivilDate, secondOfDay: Int = 0) {
    localSeconds = date.dayNumber * 86_400 + secondOfDay
  }

  /// Days since 1970-01-01 of the reading's date.
  public var dayNumber: Int { localSeconds.floorDivided(by: 86_400) }
  /// Seconds since midnight, 0..<86400.
  public var secondOfDay: Int { localSeconds - dayNumber * 86_400 }
  public var date: CivilDate { CivilDate(dayNumber: dayNumber) }
  public var hour: Int { secondOfDay / 3600 }
  public var minute: Int { secondOfDay / 60 % 60 }
  public var second: Int { secondOfDay % 60 }

  public static func < (lhs: CivilDateTime, rhs: CivilDateTime) -> Bool {
    lhs.localSeconds < rhs.localSeconds
  }

  public func adding(seconds: Int) -> CivilDateTime {
    CivilDateTime(localSeconds: localSeconds + seconds)
  }
}

extension CivilDateTime: CustomStringConvertible {
  /// The RFC 5545 form, `YYYYMMDDTHHMMSS`.
  public var description: String { ICalendarFormat.dateTime(self) }
}

extension Int {
  /// Division rounding toward negative infinity, for day and period numbers before 1970.
  @inlinable
  public func floorDivided(by divisor: Int) -> Int {
    let quotient = self / divisor
    return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
  }

  /// The remainder that goes with ``floorDivided(by:)``: always in 0..<divisor.
  @inlinable
  public func floorModulo(_ divisor: Int) -> Int {
    let remainder = self % divisor
    return remainder < 0 ? remainder + divisor : remainder
  }
}
