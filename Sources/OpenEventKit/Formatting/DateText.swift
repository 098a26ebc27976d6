import Foundation

/// Dates as the terminal views and `ekctl` print them, on one zone's clock, in fixed English
/// forms ("Mon 3 Mar 2025", "09:00") so that output is the same on every machine and a test
/// can compare it exactly. Times are 24-hour.
///
/// An OpenEventKit addition, with ``RecurrenceWords`` and ``AlarmWords``: Apple leaves such
/// text to the app (with `DateFormatter`, in the person's locale). OpenEventKitUI's views,
/// `ekctl` and the samples share it. The calendar is the Gregorian one, whatever the locale.
///
/// ```swift
/// let dates = DateText(timeZone: TimeZone(identifier: "Europe/Paris")!)
/// dates.day(event.startDate)         // "Mon 3 Mar 2025"
/// dates.longDay(event.startDate)     // "Monday 3 March 2025"
/// dates.time(event.startDate)        // "09:00"
/// dates.dayAndTime(event.startDate)  // "Mon 3 Mar 2025 09:00"
/// ```
///
/// Events' own times and zones are described in
/// <doc:FetchingEvents#Times:-zoned,-floating-and-all-day>.
public struct DateText: Sendable {
  /// The zone whose wall clock the dates are shown on.
  public let timeZone: TimeZone
  private let calendar: Calendar

  /// Dates on the wall clock of `timeZone`.
  ///
  /// ```swift
  /// let monday = Date(timeIntervalSince1970: 1_740_988_800)  // 2025-03-03 08:00 UTC
  /// print(DateText(timeZone: TimeZone(identifier: "Europe/Paris")!).time(monday))  // 09:00
  /// print(DateText(timeZone: TimeZone(identifier: "Asia/Tokyo")!).time(monday))  // 17:00
  /// ```
  ///
  /// - Parameter timeZone: The zone to show dates in: an event's own `timeZone` to show it
  ///   as it was planned, or `TimeZone.current` to show it where the person is.
  public init(timeZone: TimeZone) {
    self.timeZone = timeZone
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    self.calendar = calendar
  }

  /// The English names of the weekdays, Sunday first: `weekdays[weekday - 1]` names the
  /// `weekday` of ``parts(_:)``.
  public static let weekdays = [
    "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday",
  ]
  /// The English names of the months, January first: `months[month - 1]` names the
  /// `month` of ``parts(_:)``.
  public static let months = [
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
  ]

  /// The day, month and year of an instant on this clock, and its weekday (1 = Sunday).
  ///
  /// ```swift
  /// let dates = DateText(timeZone: TimeZone(identifier: "Europe/Paris")!)
  /// let parts = dates.parts(Date(timeIntervalSince1970: 1_740_988_800))  // 2025-03-03 08:00 UTC
  /// print(parts.year, parts.month, parts.day, DateText.weekdays[parts.weekday - 1])
  /// // 2025 3 3 Monday
  /// ```
  ///
  /// - Parameter date: The instant.
  /// - Returns: Its year, month (1–12), day of the month (1–31) and weekday (1–7, Sunday
  ///   being 1, as `Calendar` counts them).
  public func parts(_ date: Date) -> (year: Int, month: Int, day: Int, weekday: Int) {
    let parts = calendar.dateComponents([.year, .month, .day, .weekday], from: date)
    return (parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1, parts.weekday ?? 1)
  }

  /// "Mon 3 Mar 2025"; without the year when `year` is false.
  ///
  /// ```swift
  /// let dates = DateText(timeZone: TimeZone(identifier: "Europe/Paris")!)
  /// let monday = Date(timeIntervalSince1970: 1_740_988_800)  // 2025-03-03 08:00 UTC
  /// print(dates.day(monday))  // Mon 3 Mar 2025
  /// print(dates.day(monday, year: false))  // Mon 3 Mar
  /// ```
  ///
  /// - Parameters:
  ///   - date: The instant whose day to show.
  ///   - year: Whether to show the year ("Mon 3 Mar 2025") or not ("Mon 3 Mar").
  /// - Returns: The day, such as "Mon 3 Mar 2025".
  public func day(_ date: Date, year: Bool = true) -> String {
    let parts = parts(date)
    let text =
      "\(DateText.weekdays[parts.weekday - 1].prefix(3)) \(parts.day) "
      + "\(DateText.months[parts.month - 1].prefix(3))"
    return year ? "\(text) \(parts.year)" : text
  }

  /// "Monday 3 March 2025": how the agenda heads a day.
  ///
  /// ```swift
  /// let dates = DateText(timeZone: TimeZone(identifier: "Europe/Paris")!)
  /// print(dates.longDay(Date(timeIntervalSince1970: 1_740_988_800)))  // Monday 3 March 2025
  /// ```
  ///
  /// - Parameter date: The instant whose day to show.
  /// - Returns: The day, such as "Monday 3 March 2025".
  public func longDay(_ date: Date) -> String {
    let parts = parts(date)
    return
      "\(DateText.weekdays[parts.weekday - 1]) \(parts.day) \(DateText.months[parts.month - 1]) "
      + "\(parts.year)"
  }

  /// "3 May" or "3 May 2026": a date in a sentence.
  ///
  /// ```swift
  /// let dates = DateText(timeZone: TimeZone(identifier: "Europe/Paris")!)
  /// let monday = Date(timeIntervalSince1970: 1_740_988_800)  // 2025-03-03 08:00 UTC
  /// print("Until \(dates.dayInSentence(monday, year: true))")  // Until 3 March 2025
  /// ```
  ///
  /// - Parameters:
  ///   - date: The instant whose day to show.
  ///   - year: Whether to add the year.
  /// - Returns: The day, such as "3 May" or "3 May 2026".
  public func dayInSentence(_ date: Date, year: Bool) -> String {
    let parts = parts(date)
    let text = "\(parts.day) \(DateText.months[parts.month - 1])"
    return year ? "\(text) \(parts.year)" : text
  }

  /// "09:00": the time of day, 24-hour, to the minute (seconds are dropped, not rounded).
  ///
  /// ```swift
  /// let dates = DateText(timeZone: TimeZone(identifier: "America/New_York")!)
  /// print(dates.time(Date(timeIntervalSince1970: 1_740_988_859)))  // 03:00: seconds are dropped
  /// ```
  ///
  /// - Parameter date: The instant whose time to show.
  /// - Returns: The time, such as "09:00".
  public func time(_ date: Date) -> String {
    let parts = calendar.dateComponents([.hour, .minute], from: date)
    return DateText.time(hour: parts.hour ?? 0, minute: parts.minute ?? 0)
  }

  /// "Mon 3 Mar 2025 09:00": ``day(_:year:)`` and ``time(_:)`` together.
  ///
  /// ```swift
  /// let dates = DateText(timeZone: TimeZone(identifier: "Europe/Paris")!)
  /// print(dates.dayAndTime(Date(timeIntervalSince1970: 1_740_988_800)))  // Mon 3 Mar 2025 09:00
  /// ```
  ///
  /// - Parameter date: The instant to show.
  /// - Returns: The day and time, such as "Mon 3 Mar 2025 09:00".
  public func dayAndTime(_ date: Date) -> String { "\(day(date)) \(time(date))" }

  /// The midnight that starts an instant's day on this clock.
  ///
  /// ```swift
  /// let dates = DateText(timeZone: TimeZone(identifier: "Europe/Paris")!)
  /// let midnight = dates.startOfDay(Date(timeIntervalSince1970: 1_740_988_800))
  /// print(midnight.timeIntervalSince1970)  // 1740956400.0: 2025-03-03 00:00 in Paris
  /// ```
  ///
  /// - Parameter date: The instant.
  /// - Returns: The first instant of its day on this clock.
  public func startOfDay(_ date: Date) -> Date { calendar.startOfDay(for: date) }

  /// The midnight `days` days after the one that starts `date`'s day (a DST day is 23 or 25
  /// hours long, so days are counted on the calendar, not in seconds).
  ///
  /// ```swift
  /// let today = dates.startOfDay(Date())
  /// let week = dates.startOfDay(today, adding: 7)  // the end of a week's range
  /// let events = store.events(matching: store.predicateForEvents(
  ///   withStart: today, end: week, calendars: nil))
  /// ```
  ///
  /// - Parameters:
  ///   - date: An instant of the day to count from.
  ///   - days: How many days to add; negative to go back.
  /// - Returns: The midnight that starts the day counted to, or `date` itself in the unlikely
  ///   case that the calendar cannot compute it.
  public func startOfDay(_ date: Date, adding days: Int) -> Date {
    calendar.date(byAdding: .day, value: days, to: startOfDay(date)) ?? date
  }

  static func time(hour: Int, minute: Int) -> String {
    (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
  }
}
