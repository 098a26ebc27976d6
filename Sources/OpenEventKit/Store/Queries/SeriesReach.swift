import ICalendar

/// The days a series can fall on, when they are known without expanding it.
///
/// A YEARLY rule without BY parts repeats on DTSTART's month and day every INTERVAL years
/// (RFC 5545 §3.3.10: the parts a rule lacks come from DTSTART); a window query asks this
/// first, and prepares the series (its rules validated, zone loaded, day tables built) only
/// when the window holds such a day. A birthday is in one month of twelve, and a store keeps
/// many.
enum SeriesReach: Sendable {
  /// Any day, as far as is known without expanding.
  case anyDay
  /// Only this month and day (a February 29 only in leap years), from `firstYear` on, every
  /// `interval` years.
  case yearly(month: Int, day: Int, firstYear: Int, interval: Int)

  /// What a series' rules say of its days: ``yearly(month:day:firstYear:interval:)`` for one
  /// YEARLY rule without BY parts and no RDATE (EXDATEs only remove days), ``anyDay``
  /// otherwise.
  init(_ set: RecurrenceSet?) {
    guard let set, set.dates.isEmpty, set.rules.count == 1, let rule = set.rules.first,
      rule.frequency == .yearly, rule.interval >= 1, rule.bySecond.isEmpty,
      rule.byMinute.isEmpty, rule.byHour.isEmpty, rule.byDay.isEmpty, rule.byMonthDay.isEmpty,
      rule.byYearDay.isEmpty, rule.byWeekNo.isEmpty, rule.byMonth.isEmpty, rule.bySetPos.isEmpty
    else {
      self = .anyDay
      return
    }
    let date = set.start.local.date
    self = .yearly(month: date.month, day: date.day, firstYear: date.year, interval: rule.interval)
  }

  /// Whether an instance may start on one of `days` (day numbers of its wall-clock date);
  /// false only when none can.
  func mayFall(on days: ClosedRange<Int>) -> Bool {
    guard case .yearly(let month, let day, let firstYear, let interval) = self else { return true }
    let first = CivilDate(dayNumber: days.lowerBound).year
    let last = CivilDate(dayNumber: days.upperBound).year
    // A window of years is not worth the walk: let the expansion answer.
    guard last - first <= 2 else { return true }
    for year in first...last where year >= firstYear && (year - firstYear) % interval == 0 {
      if let date = CivilDate(year: year, month: month, day: day), days.contains(date.dayNumber) {
        return true
      }
    }
    return false
  }
}
