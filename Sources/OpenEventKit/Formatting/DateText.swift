import Foundation

/// Dates as the terminal views and `ekctl` print them, on one zone's clock, in fixed English
/// forms ("Mon 3 Mar 2025", "09:00") so that output is the same on every machine and a test
/// can compare it exactly. Times are 24-hour.
public struct DateText: Sendable {
  public let timeZone: TimeZone
  private let calendar: Calendar

  public init(timeZone: TimeZone) {
    self.timeZone = timeZone
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    self.calendar = calendar
  }

  public static let weekdays = [
    "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday",
  ]
  public static let months = [
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
  ]

  /// The day, month and year of an instant on this clock, and its weekday (1 = Sunday).
  public func parts(_ date: Date) -> (year: Int, month: Int, day: Int, weekday: Int) {
    let parts = calendar.dateComponents([.year, .month, .day, .weekday], from: date)
    return (parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1, parts.weekday ?? 1)
  }

  /// "Mon 3 Mar 2025"; without the year when `year` is false.
  public func day(_ date: Date, year: Bool = true) -> String {
    let parts = parts(date)
    let text =
      "\(DateText.weekdays[parts.weekday - 1].prefix(3)) \(parts.day) "
      + "\(DateText.months[parts.month - 1].prefix(3))"
    return year ? "\(text) \(parts.year)" : text
  }

  /// "Monday 3 March 2025": how the agenda heads a day.
  public func longDay(_ date: Date) -> String {
    let parts = parts(date)
    return
      "\(DateText.weekdays[parts.weekday - 1]) \(parts.day) \(DateText.months[parts.month - 1]) "
      + "\(parts.year)"
  }

  /// "3 May" or "3 May 2026": a date in a sentence.
  public func dayInSentence(_ date: Date, year: Bool) -> String {
    let parts = parts(date)
    let text = "\(parts.day) \(DateText.months[parts.month - 1])"
    return year ? "\(text) \(parts.year)" : text
  }

  /// "09:00".
  public func time(_ date: Date) -> String {
    let parts = calendar.dateComponents([.hour, .minute], from: date)
    return DateText.time(hour: parts.hour ?? 0, minute: parts.minute ?? 0)
  }

  /// "Mon 3 Mar 2025 09:00".
  public func dayAndTime(_ date: Date) -> String { "\(day(date)) \(time(date))" }

  /// The midnight that starts an instant's day on this clock.
  public func startOfDay(_ date: Date) -> Date { calendar.startOfDay(for: date) }

  /// The midnight `days` days after the one that starts `date`'s day (a DST day is 23 or 25
  /// hours long, so days are counted on the calendar, not in seconds).
  public func startOfDay(_ date: Date, adding days: Int) -> Date {
    calendar.date(byAdding: .day, value: days, to: startOfDay(date)) ?? date
  }

  static func time(hour: Int, minute: Int) -> String {
    (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
  }
}
