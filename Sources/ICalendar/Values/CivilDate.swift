/// A date of the proleptic Gregorian calendar, with no time and no zone: RFC 5545's DATE
/// (§3.3.4).
///
/// Dates are kept as year, month and day, and convert to and from a *day number* (days since
/// 1970-01-01), which makes day arithmetic and weekday math exact integer operations. The
/// recurrence engine works on day numbers throughout.
///
/// ```swift
/// let date = CivilDate(year: 2024, month: 2, day: 29)!
/// print(date, date.weekday, date.dayOfYear)  // 20240229 thursday 60
/// print(date.adding(days: 1))  // 20240301
/// print(CivilDate(year: 2025, month: 2, day: 29) == nil)  // true
/// print(CivilDate(dayNumber: 0))  // 19700101
/// ```
public struct CivilDate: Hashable, Comparable, Sendable, Codable {
  /// The year of the proleptic Gregorian calendar; RFC 5545 text holds 0…9999.
  public let year: Int
  /// The month, 1 for January … 12.
  public let month: Int
  /// The day of the month, from 1.
  public let day: Int

  /// A date, or nil when the month or day does not exist (February 30, month 13).
  ///
  /// ```swift
  /// if let date = CivilDate(year: 2025, month: 12, day: 31) {
  ///   print(date, date.weekday)  // 20251231 wednesday
  /// }
  /// print(CivilDate(year: 2025, month: 4, day: 31) == nil)  // true: April has 30 days
  /// ```
  ///
  /// - Parameters:
  ///   - year: The year of the proleptic Gregorian calendar.
  ///   - month: The month, 1…12.
  ///   - day: The day of the month, 1 to the month's length.
  public init?(year: Int, month: Int, day: Int) {
    guard (1...12).contains(month), day >= 1, day <= CivilDate.daysIn(month: month, year: year)
    else { return nil }
    self.year = year
    self.month = month
    self.day = day
  }

  /// The date of a day number (days since 1970-01-01).
  ///
  /// ```swift
  /// print(CivilDate(dayNumber: 20_000))  // 20241004
  /// print(CivilDate(dayNumber: -1))  // 19691231
  /// ```
  ///
  /// - Parameter dayNumber: Days since 1970-01-01; negative before it.
  public init(dayNumber: Int) {
    // Days are counted in 400-year eras starting on March 1, so that the leap day is the last
    // day of a "year" and month lengths follow a simple linear pattern.
    let z = dayNumber + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shiftedMonth = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
    let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
    self.year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    self.month = month
    self.day = day
  }

  /// Days since 1970-01-01 (negative before).
  public var dayNumber: Int { CivilDate.dayNumber(year: year, month: month, day: day) }

  /// The weekday of this date.
  public var weekday: Weekday { Weekday(dayNumber: dayNumber) }

  /// 1 for January 1.
  public var dayOfYear: Int { dayNumber - CivilDate.dayNumber(year: year, month: 1, day: 1) + 1 }

  /// Orders dates in time.
  ///
  /// - Parameters:
  ///   - lhs: A date.
  ///   - rhs: Another date.
  /// - Returns: Whether `lhs` comes before `rhs`.
  public static func < (lhs: CivilDate, rhs: CivilDate) -> Bool {
    (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
  }

  /// The date `days` days later (earlier when negative).
  ///
  /// ```swift
  /// let date = CivilDate(year: 2025, month: 1, day: 30)!
  /// print(date.adding(days: 3))  // 20250202
  /// print(date.adding(days: -30))  // 20241231
  /// ```
  ///
  /// - Parameter days: The number of days to move by.
  /// - Returns: The date that many days away; months and years roll over as the calendar
  ///   does.
  public func adding(days: Int) -> CivilDate { CivilDate(dayNumber: dayNumber + days) }

  // MARK: Calendar arithmetic shared by the engine

  /// Days since 1970-01-01 of a year, month and day; the day may lie outside the month (it
  /// then counts on from the month's first day), which the engine uses for month offsets.
  ///
  /// ```swift
  /// print(CivilDate.dayNumber(year: 1970, month: 1, day: 2))  // 1
  /// // Day 0 of March is the last day of February.
  /// print(CivilDate(dayNumber: CivilDate.dayNumber(year: 2024, month: 3, day: 0)))  // 20240229
  /// ```
  ///
  /// - Parameters:
  ///   - year: The year.
  ///   - month: The month, 1…12.
  ///   - day: The day, counted from the month's first; 0 or past the month's end counts
  ///     back or on from it.
  /// - Returns: Days since 1970-01-01, negative before it.
  @inlinable
  public static func dayNumber(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let shiftedMonth = month > 2 ? month - 3 : month + 9
    let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// Whether a year of the proleptic Gregorian calendar has a February 29: divisible by 4,
  /// and not by 100 unless by 400.
  ///
  /// ```swift
  /// print(CivilDate.isLeap(2024), CivilDate.isLeap(1900), CivilDate.isLeap(2000))
  /// // true false true
  /// ```
  ///
  /// - Parameter year: The year.
  /// - Returns: `true` for a leap year.
  @inlinable
  public static func isLeap(_ year: Int) -> Bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
  }

  /// The length of a month, February's depending on the year.
  ///
  /// ```swift
  /// print(CivilDate.daysIn(month: 2, year: 2025))  // 28
  /// print(CivilDate.daysIn(month: 2, year: 2028))  // 29
  /// ```
  ///
  /// - Parameters:
  ///   - month: The month, 1…12; any other number gives 31.
  ///   - year: The year, which decides February.
  /// - Returns: 28, 29, 30 or 31.
  @inlinable
  public static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: return isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// The length of a year.
  ///
  /// ```swift
  /// print(CivilDate.daysIn(year: 2025), CivilDate.daysIn(year: 2028))  // 365 366
  /// ```
  ///
  /// - Parameter year: The year.
  /// - Returns: 366 for a leap year, 365 otherwise.
  @inlinable
  public static func daysIn(year: Int) -> Int { isLeap(year) ? 366 : 365 }
}

extension CivilDate: CustomStringConvertible {
  /// The RFC 5545 form, `YYYYMMDD`.
  public var description: String { ICalendarFormat.date(self) }
}
