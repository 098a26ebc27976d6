import Foundation
import ICalendar

/// How an event or reminder repeats: an RFC 5545 recurrence rule in EventKit's terms.
///
/// The rule is kept as ICalendar's `RecurrenceRule`, which expands it; `description` shows
/// its RRULE. Only `recurrenceEnd` can change after creation, as in EventKit. Out-of-range
/// values are kept as given and refused when the item is saved, with the rule part named.
open class EKRecurrenceRule: EKObject, NSCopying, @unchecked Sendable {
  /// The rule without its end; the end is `recurrenceEnd`.
  let rule: RecurrenceRule
  private var end: EKRecurrenceEnd?

  init(values: RuleValues) {
    rule = values.rule
    switch values.end {
    case nil: end = nil
    case .count(let count): end = EKRecurrenceEnd(occurrenceCount: count)
    case .date(let date): end = EKRecurrenceEnd(end: date)
    }
  }

  public init(recurrenceWith type: EKRecurrenceFrequency, interval: Int, end: EKRecurrenceEnd?) {
    rule = RecurrenceRule(frequency: type.ruleFrequency, interval: interval)
    self.end = end
  }

  public init(
    recurrenceWith type: EKRecurrenceFrequency, interval: Int,
    daysOfTheWeek days: [EKRecurrenceDayOfWeek]?, daysOfTheMonth monthDays: [NSNumber]?,
    monthsOfTheYear months: [NSNumber]?, weeksOfTheYear: [NSNumber]?,
    daysOfTheYear: [NSNumber]?, setPositions: [NSNumber]?, end: EKRecurrenceEnd?
  ) {
    rule = RecurrenceRule(
      frequency: type.ruleFrequency, interval: interval,
      byDay: (days ?? []).map {
        RecurrenceRule.WeekdayNum(
          Weekday(rawValue: $0.dayOfTheWeek.rawValue) ?? .sunday,
          ordinal: $0.weekNumber == 0 ? nil : $0.weekNumber)
      },
      byMonthDay: (monthDays ?? []).map(\.intValue),
      byYearDay: (daysOfTheYear ?? []).map(\.intValue),
      byWeekNo: (weeksOfTheYear ?? []).map(\.intValue), byMonth: (months ?? []).map(\.intValue),
      bySetPos: (setPositions ?? []).map(\.intValue))
    self.end = end
  }

  /// The rule as an item stores it.
  var values: RuleValues {
    RuleValues(
      rule: rule,
      end: end.map { $0.endDate.map(RuleValues.End.date) ?? .count($0.occurrenceCount) })
  }

  /// Always the Gregorian calendar.
  open var calendarIdentifier: String { "gregorian" }

  /// Set as a copy (`@NSCopying` in Apple's header).
  open var recurrenceEnd: EKRecurrenceEnd? {
    get { end }
    set { end = newValue?.copy() as? EKRecurrenceEnd }
  }

  open var frequency: EKRecurrenceFrequency {
    switch rule.frequency {
    case .weekly: .weekly
    case .monthly: .monthly
    case .yearly: .yearly
    default: .daily
    }
  }

  open var interval: Int { rule.interval }

  /// The week's first day (WKST) as an `EKWeekday` raw value; 0 when left at the default.
  open var firstDayOfTheWeek: Int { rule.weekStart == .monday ? 0 : rule.weekStart.rawValue }

  open var daysOfTheWeek: [EKRecurrenceDayOfWeek]? {
    guard !rule.byDay.isEmpty else { return nil }
    return rule.byDay.map {
      EKRecurrenceDayOfWeek(
        dayOfTheWeek: EKWeekday(rawValue: $0.weekday.rawValue) ?? .sunday,
        weekNumber: $0.ordinal ?? 0)
    }
  }

  open var daysOfTheMonth: [NSNumber]? { numbers(rule.byMonthDay) }
  open var daysOfTheYear: [NSNumber]? { numbers(rule.byYearDay) }
  open var weeksOfTheYear: [NSNumber]? { numbers(rule.byWeekNo) }
  open var monthsOfTheYear: [NSNumber]? { numbers(rule.byMonth) }
  open var setPositions: [NSNumber]? { numbers(rule.bySetPos) }

  private func numbers(_ values: [Int]) -> [NSNumber]? {
    values.isEmpty ? nil : values.map { NSNumber(value: $0) }
  }

  public func copy(with zone: NSZone? = nil) -> Any { EKRecurrenceRule(values: values) }

  open override func isEqual(_ object: Any?) -> Bool {
    (object as? EKRecurrenceRule)?.values == values
  }

  open override var hash: Int { values.hashValue }

  /// `RRULE FREQ=…`: the rule as iCalendar writes it, its end date in UTC.
  open override var description: String {
    var written = rule
    if let end {
      written.end =
        end.endDate.map {
          .until(.utc(CivilDateTime(localSeconds: WallClock.seconds($0))))
        } ?? .count(end.occurrenceCount)
    }
    return "RRULE " + written.text
  }
}

extension EKRecurrenceFrequency {
  var ruleFrequency: RecurrenceRule.Frequency {
    switch self {
    case .daily: .daily
    case .weekly: .weekly
    case .monthly: .monthly
    case .yearly: .yearly
    }
  }
}
