import Foundation
import ICalendar

/// How an event or reminder repeats: an RFC 5545 recurrence rule in EventKit's terms.
///
/// The rule is kept as ICalendar's `RecurrenceRule`, which expands it; `description` shows
/// its RRULE. Only `recurrenceEnd` can change after creation, as in EventKit. Out-of-range
/// values are kept as given and refused when the item is saved, with the rule part named.
///
/// See <doc:RecurringEvents> and <doc:Learn>.
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

  /// A rule that repeats every `interval` days, weeks, months or years. See <doc:Learn>.
  ///
  /// - Parameters:
  ///   - type: The unit it repeats in.
  ///   - interval: How many units between occurrences; 1 for every one.
  ///   - end: When it stops; nil for never.
  ///
  /// ```swift
  /// let fortnightly = EKRecurrenceRule(recurrenceWith: .weekly, interval: 2, end: nil)
  /// event.recurrenceRules = [fortnightly]
  /// ```
  public init(recurrenceWith type: EKRecurrenceFrequency, interval: Int, end: EKRecurrenceEnd?) {
    rule = RecurrenceRule(frequency: type.ruleFrequency, interval: interval)
    self.end = end
  }

  /// A rule with RFC 5545 BY… parts: which weekdays, month days, months, weeks, year days and
  /// positions in the set it keeps. Values out of range are refused when the item is saved
  /// (``EKError/Code/internalFailure``, naming the part). See <doc:RecurringEvents>.
  ///
  /// - Parameters:
  ///   - type: The unit it repeats in.
  ///   - interval: How many units between occurrences; 1 for every one.
  ///   - days: The weekdays (BYDAY), each optionally the nth of the month or year; nil for any.
  ///   - monthDays: Days of the month, 1…31 or -31…-1 from the end (BYMONTHDAY); nil for any.
  ///   - months: Months, 1…12 (BYMONTH); nil for any.
  ///   - weeksOfTheYear: ISO weeks, 1…53 or -53…-1 (BYWEEKNO); nil for any.
  ///   - daysOfTheYear: Days of the year, 1…366 or -366…-1 (BYYEARDAY); nil for any.
  ///   - setPositions: Which of each period's matches to keep, such as -1 for the last (BYSETPOS);
  ///     nil for all.
  ///   - end: When it stops; nil for never.
  ///
  /// ```swift
  /// // The last weekday of every month.
  /// let rule = EKRecurrenceRule(
  ///   recurrenceWith: .monthly, interval: 1,
  ///   daysOfTheWeek: [.monday, .tuesday, .wednesday, .thursday, .friday].map {
  ///     EKRecurrenceDayOfWeek($0)
  ///   },
  ///   daysOfTheMonth: nil, monthsOfTheYear: nil, weeksOfTheYear: nil, daysOfTheYear: nil,
  ///   setPositions: [-1], end: nil)
  /// ```
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

  /// Always the Gregorian calendar. See <doc:RecurringEvents>.
  open var calendarIdentifier: String { "gregorian" }

  /// Set as a copy (`@NSCopying` in Apple's header).
  ///
  /// When the rule stops; nil for never. See <doc:RecurringEvents>.
  open var recurrenceEnd: EKRecurrenceEnd? {
    get { end }
    set { end = newValue?.copy() as? EKRecurrenceEnd }
  }

  /// The unit the rule repeats in (FREQ). See <doc:RecurringEvents>.
  open var frequency: EKRecurrenceFrequency {
    switch rule.frequency {
    case .weekly: .weekly
    case .monthly: .monthly
    case .yearly: .yearly
    default: .daily
    }
  }

  /// How many units between occurrences (INTERVAL). See <doc:RecurringEvents>.
  open var interval: Int { rule.interval }

  /// The week's first day (WKST) as an `EKWeekday` raw value; 0 when left at the default.
  ///
  /// See <doc:RecurringEvents>.
  open var firstDayOfTheWeek: Int { rule.weekStart == .monday ? 0 : rule.weekStart.rawValue }

  /// The weekdays it keeps (BYDAY); nil for any. See <doc:RecurringEvents>.
  open var daysOfTheWeek: [EKRecurrenceDayOfWeek]? {
    guard !rule.byDay.isEmpty else { return nil }
    return rule.byDay.map {
      EKRecurrenceDayOfWeek(
        dayOfTheWeek: EKWeekday(rawValue: $0.weekday.rawValue) ?? .sunday,
        weekNumber: $0.ordinal ?? 0)
    }
  }

  /// The days of the month it keeps (BYMONTHDAY); nil for any. See <doc:RecurringEvents>.
  open var daysOfTheMonth: [NSNumber]? { numbers(rule.byMonthDay) }
  /// The days of the year it keeps (BYYEARDAY); nil for any. See <doc:RecurringEvents>.
  open var daysOfTheYear: [NSNumber]? { numbers(rule.byYearDay) }
  /// The weeks of the year it keeps (BYWEEKNO); nil for any. See <doc:RecurringEvents>.
  open var weeksOfTheYear: [NSNumber]? { numbers(rule.byWeekNo) }
  /// The months it keeps (BYMONTH); nil for any. See <doc:RecurringEvents>.
  open var monthsOfTheYear: [NSNumber]? { numbers(rule.byMonth) }
  /// Which of each period's matches it keeps (BYSETPOS); nil for all. See <doc:RecurringEvents>.
  open var setPositions: [NSNumber]? { numbers(rule.bySetPos) }

  private func numbers(_ values: [Int]) -> [NSNumber]? {
    values.isEmpty ? nil : values.map { NSNumber(value: $0) }
  }

  /// A new rule with the same parts and end.
  ///
  /// See <doc:EventKitCompatibility>.
  ///
  /// - Parameters:
  ///   - zone: Ignored.
  /// - Returns: An `EKRecurrenceRule`.
  public func copy(with zone: NSZone? = nil) -> Any { EKRecurrenceRule(values: values) }

  /// Whether `object` is a rule with the same parts and end.
  ///
  /// See <doc:EventKitCompatibility>.
  ///
  /// - Parameters:
  ///   - object: The object to compare with.
  /// - Returns: True for an equal rule.
  open override func isEqual(_ object: Any?) -> Bool {
    (object as? EKRecurrenceRule)?.values == values
  }

  /// A hash of the parts and end, matching ``isEqual(_:)``.
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
