import Foundation
import ICalendar

/// Dates as people type them in a session: the ISO 8601 forms of ICalendar's `ISO8601Text`,
/// read on a given clock when they carry neither `Z` nor an offset.
///
/// The session's clock is the console's ``Console/timeZone``; `--now` is read on the
/// process's (``SessionArguments/now``).
///
/// ```swift
/// let paris = TimeZone(identifier: "Europe/Paris")!
/// DateReading.instant("2025-03-01T09:00", in: paris)    // 2025-03-01 08:00 UTC
/// DateReading.instant("2025-03-01T09:00Z", in: paris)   // 2025-03-01 09:00 UTC
/// DateReading.instant("2025-03-01", in: paris)          // 2025-02-28 23:00 UTC (midnight)
/// DateReading.day("2025-03-01T23:30Z", in: paris)       // 2025-03-02
/// DateReading.instant("tomorrow", in: paris)            // nil: see WhenWords
/// ```
public enum DateReading {
  /// The instant a text names: UTC and offset times as written; a local time on `zone`'s wall
  /// clock (a time skipped by a DST change moves forward, as RFC 5545 §3.3.5 does); a plain
  /// date at its midnight there. Nil when the text is not a date.
  ///
  /// ```swift
  /// let tokyo = TimeZone(identifier: "Asia/Tokyo")!
  /// print(DateReading.instant("2025-03-01T09:00", in: tokyo) as Any)
  /// // Optional(2025-03-01 00:00:00 +0000)
  /// print(DateReading.instant("next week", in: tokyo) as Any)  // nil
  /// ```
  ///
  /// - Parameters:
  ///   - text: An ISO 8601 date (`2025-03-01`) or date-time (`2025-03-01T09:00`, seconds
  ///     optional, with `Z` or an offset such as `+01:00` for an exact instant), or RFC 5545's
  ///     own form (`20250301T090000Z`), as ICalendar's `ISO8601Text` reads it.
  ///   - zone: The clock that a local time, or a plain date, is read on.
  /// - Returns: The instant, or nil when `text` is not a date in one of those forms.
  public static func instant(_ text: String, in zone: TimeZone) -> Date? {
    guard let value = try? ISO8601Text.parse(text) else { return nil }
    switch value {
    case .utc(let reading):
      return Date(timeIntervalSince1970: TimeInterval(reading.localSeconds))
    case .zoned(let reading, _), .floating(let reading):
      return instant(local: reading, in: zone)
    case .date(let date):
      return instant(local: CivilDateTime(date: date), in: zone)
    }
  }

  /// A day as typed (`2025-03-01`, or a date-time whose day is taken on `zone`'s clock).
  ///
  /// ```swift
  /// let tokyo = TimeZone(identifier: "Asia/Tokyo")!
  /// print(DateReading.day("2025-03-01", in: tokyo) as Any)  // Optional(20250301)
  /// print(DateReading.day("2025-03-01T20:00Z", in: tokyo) as Any)  // Optional(20250302)
  /// ```
  ///
  /// - Parameters:
  ///   - text: A date, or a date-time as ``instant(_:in:)`` reads it.
  ///   - zone: The clock a date-time's day is taken on.
  /// - Returns: The day (ICalendar's `CivilDate`), or nil when `text` is not a date.
  public static func day(_ text: String, in zone: TimeZone) -> CivilDate? {
    guard let value = try? ISO8601Text.parse(text) else { return nil }
    if case .date(let date) = value { return date }
    guard let instant = instant(text, in: zone) else { return nil }
    return local(instant, in: zone).date
  }

  /// The wall-clock reading of an instant on `zone`'s clock, to the second.
  ///
  /// ```swift
  /// let newYork = TimeZone(identifier: "America/New_York")!
  /// let noonUTC = Date(timeIntervalSince1970: 1_751_371_200)  // 2025-07-01 12:00 UTC
  /// print(DateReading.local(noonUTC, in: newYork))  // 20250701T080000
  /// ```
  ///
  /// - Parameters:
  ///   - instant: The moment to read; fractions of a second are dropped (rounded down).
  ///   - zone: The clock it is read on, with the offset in force at that instant.
  /// - Returns: The date and time of day (ICalendar's `CivilDateTime`) a clock in `zone`
  ///   shows at `instant`.
  public static func local(_ instant: Date, in zone: TimeZone) -> CivilDateTime {
    let seconds = Int(instant.timeIntervalSince1970.rounded(.down))
    return CivilDateTime(localSeconds: seconds + zone.secondsFromGMT(for: instant))
  }

  /// The instant of a wall-clock reading on `zone`'s clock; a reading a DST change skips
  /// moves forward by the gap (RFC 5545 §3.3.5).
  ///
  /// The inverse of ``local(_:in:)``. When ICalendar's `ZoneRules` knows `zone` by its
  /// identifier, a reading that a DST change repeats is its first occurrence. For any other
  /// zone the offset is Foundation's at the reading taken as UTC, which can be an hour off
  /// within a few hours of a change.
  ///
  /// ```swift
  /// let newYork = TimeZone(identifier: "America/New_York")!
  /// // 02:30 on 9 March 2025 never happens in New York: it reads as 03:30.
  /// let skipped = CivilDateTime(year: 2025, month: 3, day: 9, hour: 2, minute: 30)!
  /// print(DateReading.instant(local: skipped, in: newYork))  // 2025-03-09 07:30:00 +0000
  /// ```
  ///
  /// - Parameters:
  ///   - reading: The date and time of day (ICalendar's `CivilDateTime`).
  ///   - zone: The clock the reading is on.
  /// - Returns: The instant at which a clock in `zone` shows `reading`.
  public static func instant(local reading: CivilDateTime, in zone: TimeZone) -> Date {
    if let rules = try? ZoneRules.named(zone.identifier) {
      return Date(
        timeIntervalSince1970: TimeInterval(rules.instant(forLocal: reading.localSeconds).seconds))
    }
    let guess = Date(timeIntervalSince1970: TimeInterval(reading.localSeconds))
    return guess.addingTimeInterval(-TimeInterval(zone.secondsFromGMT(for: guess)))
  }
}
