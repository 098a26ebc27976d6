import Foundation

/// Payments fall on days, not at times: each is an all-day event, which EventKit keeps on the
/// wall clock of whoever looks (its `startDate` is that day's midnight on this process's
/// clock). The app keeps a day as its ISO 8601 text, `2025-03-02`, and turns it into a
/// midnight only to talk to the calendar.
enum DueDay {
  /// The Gregorian calendar on this process's clock, made once.
  static let calendar: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = .current
    return calendar
  }()

  /// The midnight that starts `day` (`2025-03-02`), or nil when it is not a date.
  static func date(_ day: String) -> Date? {
    let parts = day.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
      parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
      let year = Int(parts[0]), let month = Int(parts[1]), let dayOfMonth = Int(parts[2]),
      year >= 1,
      let date = calendar.date(from: DateComponents(year: year, month: month, day: dayOfMonth)),
      // A day that does not exist (2025-02-30) would roll over into the next month.
      self.day(date) == day
    else { return nil }
    return date
  }

  /// The day of `date` on this process's clock.
  static func day(_ date: Date) -> String {
    let parts = calendar.dateComponents([.year, .month, .day], from: date)
    return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
  }

  /// The day `count` steps of `frequency` after `date`'s.
  static func adding(_ count: Int, of frequency: PaymentFrequency, to date: Date) -> Date {
    let (unit, interval) = frequency.recurrence
    let component: Calendar.Component =
      switch unit {
      case .daily: .day
      case .weekly: .weekOfYear
      case .monthly: .month
      case .yearly: .year
      }
    return calendar.date(byAdding: component, value: count * interval, to: date) ?? date
  }

  /// The midnight after `date`'s day.
  static func nextDay(_ date: Date) -> Date {
    calendar.date(byAdding: .day, value: 1, to: calendar.startOfDay(for: date)) ?? date
  }
}
