/// A wall-clock date and time with no zone attached: what a clock on the wall reads.
///
/// Kept as the number of seconds since 1970-01-01T00:00:00 *as read on that wall clock*
/// (the reading treated as if it were UTC). That single integer orders, hashes and steps in
/// constant time; the zone that turns a reading into an instant lives beside it, in
/// ``DateTimeValue`` or in the expansion that owns it.
///
/// ```swift
/// let reading = CivilDateTime(year: 2025, month: 3, day: 30, hour: 2, minute: 30)!
/// print(reading)  // 20250330T023000
/// print(reading.date, reading.hour, reading.minute)  // 20250330 2 30
/// print(reading.adding(seconds: 3600))  // 20250330T033000
/// let instant = try ZoneRules.named("Europe/Paris").instant(forLocal: reading.localSeconds)
/// print(instant.shifted)  // true: 02:30 does not happen in Paris that night
/// ```
public struct CivilDateTime: Hashable, Comparable, Sendable, Codable {
  /// Seconds since 1970-01-01T00:00:00 on the wall clock.
  public let localSeconds: Int

  /// The reading a number of wall-clock seconds after 1970-01-01T00:00:00.
  ///
  /// ```swift
  /// print(CivilDateTime(localSeconds: 0))  // 19700101T000000
  /// print(CivilDateTime(localSeconds: 90_061))  // 19700102T010101
  /// ```
  ///
  /// - Parameter localSeconds: Seconds since 1970-01-01T00:00:00 on the wall clock;
  ///   negative before it.
  public init(localSeconds: Int) { self.localSeconds = localSeconds }

  /// A reading, or nil when a field is out of range. Second 60 (a leap second, which
  /// RFC 5545 §3.3.12 allows) is read as second 59: wall-clock readings here, like POSIX
  /// time, have no leap seconds, and rolling into the next minute could change the date.
  ///
  /// ```swift
  /// let meeting = CivilDateTime(year: 2025, month: 5, day: 20, hour: 14, minute: 30)!
  /// print(meeting)  // 20250520T143000
  /// print(CivilDateTime(year: 2025, month: 5, day: 20, hour: 24) == nil)  // true
  /// ```
  ///
  /// - Parameters:
  ///   - year: The year.
  ///   - month: The month, 1…12.
  ///   - day: The day of the month.
  ///   - hour: The hour, 0…23.
  ///   - minute: The minute, 0…59.
  ///   - second: The second, 0…60.
  public init?(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
    guard let date = CivilDate(year: year, month: month, day: day),
      (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
    else { return nil }
    self.init(date: date, secondOfDay: hour * 3600 + minute * 60 + min(second, 59))
  }

  /// A reading on a date, a number of seconds after its midnight.
  ///
  /// ```swift
  /// let day = CivilDate(year: 2025, month: 5, day: 20)!
  /// print(CivilDateTime(date: day, secondOfDay: 9 * 3600))  // 20250520T090000
  /// print(CivilDateTime(date: day, secondOfDay: -3600))  // 20250519T230000
  /// ```
  ///
  /// - Parameters:
  ///   - date: The date.
  ///   - secondOfDay: Seconds since midnight; 0 for midnight. A value outside 0..<86400
  ///     counts into the days around.
  public init(date: CivilDate, secondOfDay: Int = 0) {
    localSeconds = date.dayNumber * 86_400 + secondOfDay
  }

  /// Days since 1970-01-01 of the reading's date.
  public var dayNumber: Int { localSeconds.floorDivided(by: 86_400) }
  /// Seconds since midnight, 0..<86400.
  public var secondOfDay: Int { localSeconds - dayNumber * 86_400 }
  /// The date of the reading.
  public var date: CivilDate { CivilDate(dayNumber: dayNumber) }
  /// The hour, 0…23.
  public var hour: Int { secondOfDay / 3600 }
  /// The minute, 0…59.
  public var minute: Int { secondOfDay / 60 % 60 }
  /// The second, 0…59.
  public var second: Int { secondOfDay % 60 }

  /// Orders readings in time on the same wall clock.
  ///
  /// - Parameters:
  ///   - lhs: A reading.
  ///   - rhs: Another reading.
  /// - Returns: Whether `lhs` is earlier than `rhs`.
  public static func < (lhs: CivilDateTime, rhs: CivilDateTime) -> Bool {
    lhs.localSeconds < rhs.localSeconds
  }

  /// The reading a number of wall-clock seconds later (earlier when negative).
  ///
  /// No zone is involved: the clock is read as if it never changed its offset, so adding
  /// 86,400 seconds always gives the same time on the next day.
  ///
  /// ```swift
  /// let late = CivilDateTime(year: 2025, month: 12, day: 31, hour: 23)!
  /// print(late.adding(seconds: 7200))  // 20260101T010000
  /// ```
  ///
  /// - Parameter seconds: The seconds to move by.
  /// - Returns: The reading that many seconds away.
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
  ///
  /// `(-1).floorDivided(by: 86_400)` is -1 (the day before 1970-01-01), where `/` gives 0.
  ///
  /// ```swift
  /// print((-1).floorDivided(by: 86_400), -1 / 86_400)  // -1 0
  /// print(CivilDateTime(localSeconds: -1).dayNumber)  // -1: 1969-12-31
  /// ```
  ///
  /// - Parameter divisor: The divisor; not 0.
  /// - Returns: The largest integer not greater than the exact quotient.
  @inlinable
  public func floorDivided(by divisor: Int) -> Int {
    let quotient = self / divisor
    return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
  }

  /// The remainder that goes with ``floorDivided(by:)``: always in 0..<divisor.
  ///
  /// ```swift
  /// print((-1).floorModulo(86_400), -1 % 86_400)  // 86399 -1
  /// ```
  ///
  /// - Parameter divisor: A positive divisor.
  /// - Returns: The remainder, in 0..<divisor.
  @inlinable
  public func floorModulo(_ divisor: Int) -> Int {
    let remainder = self % divisor
    return remainder < 0 ? remainder + divisor : remainder
  }
}
