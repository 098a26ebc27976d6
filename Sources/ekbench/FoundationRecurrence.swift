import Foundation
import ICalendar

/// The same expansion done by Foundation's `Calendar.RecurrenceRule`, for comparison.
enum FoundationRecurrence {
  struct Unsupported: Error, CustomStringConvertible {
    var description: String
  }

  static func perSecond(rule: RecurrenceRule, instances: Int) throws -> Double {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: RRuleBenchmark.tzid)!
    let frequency: Calendar.RecurrenceRule.Frequency
    switch rule.frequency {
    case .daily: frequency = .daily
    case .weekly: frequency = .weekly
    case .monthly: frequency = .monthly
    case .yearly: frequency = .yearly
    default: throw Unsupported(description: "FREQ=\(rule.frequency.rawValue)")
    }
    var foundationRule = Calendar.RecurrenceRule(
      calendar: calendar, frequency: frequency, interval: rule.interval)
    foundationRule.months = rule.byMonth.map { Calendar.RecurrenceRule.Month($0) }
    foundationRule.daysOfTheMonth = rule.byMonthDay
    foundationRule.setPositions = rule.bySetPos
    foundationRule.weekdays = rule.byDay.map { day in
      let weekday = Locale.Weekday(day.weekday)
      return day.ordinal.map { .nth($0, weekday) } ?? .every(weekday)
    }
    let start = calendar.date(
      from: DateComponents(year: 2000, month: 1, day: 3, hour: 9))!
    var produced = 0
    let seconds = bestOfFive {
      produced = 0
      var checksum = 0.0
      for date in foundationRule.recurrences(of: start) {
        checksum += date.timeIntervalSince1970
        produced += 1
        if produced == instances { break }
      }
      blackHole(checksum)
    }
    return Double(produced) / seconds
  }
}

extension Locale.Weekday {
  init(_ weekday: Weekday) {
    switch weekday {
    case .sunday: self = .sunday
    case .monday: self = .monday
    case .tuesday: self = .tuesday
    case .wednesday: self = .wednesday
    case .thursday: self = .thursday
    case .friday: self = .friday
    case .saturday: self = .saturday
    }
  }
}
