import Foundation
import ICalendar

/// Recurrence rules in words, as Calendar shows them: "Every 2 weeks on Monday and Friday,
/// 10 times", "Monthly on the last weekday, until 3 May 2026".
///
/// An OpenEventKit addition (Apple's EventKit has no text for a rule; Calendar.app makes its
/// own), shared by OpenEventKitUI's views, `ekctl show` and the samples, in fixed English
/// words so that their output is the same everywhere. Repeating events are described in
/// <doc:RecurringEvents>.
///
/// ```swift
/// for rule in event.recurrenceRules ?? [] {
///   print(RecurrenceWords.describe(rule, timeZone: event.timeZone ?? .current))
/// }
/// ```
public enum RecurrenceWords {
  /// The rule in words; an end date is shown as the day it falls on by `timeZone`'s clock
  /// (the item's zone, so that an UNTIL at local midnight does not read as the day before).
  ///
  /// ```swift
  /// let rule = EKRecurrenceRule(
  ///   recurrenceWith: .weekly, interval: 2,
  ///   daysOfTheWeek: [EKRecurrenceDayOfWeek(.monday), EKRecurrenceDayOfWeek(.friday)],
  ///   daysOfTheMonth: nil, monthsOfTheYear: nil, weeksOfTheYear: nil, daysOfTheYear: nil,
  ///   setPositions: nil, end: EKRecurrenceEnd(occurrenceCount: 10))
  /// print(RecurrenceWords.describe(rule, timeZone: .current))
  /// // Every 2 weeks on Monday and Friday, 10 times
  /// ```
  ///
  /// - Parameters:
  ///   - rule: The rule to describe: its frequency, interval, days and end.
  ///   - timeZone: The zone of the item the rule belongs to (`TimeZone.current` for a
  ///     floating item, whose `timeZone` is nil).
  /// - Returns: A sentence without a final period, such as "Every 2 weeks on Monday and
  ///   Friday, 10 times".
  public static func describe(_ rule: EKRecurrenceRule, timeZone: TimeZone) -> String {
    var words = rule.rule
    guard let end = rule.recurrenceEnd else { return words.inWords() }
    guard let endDate = end.endDate else {
      words.end = .count(end.occurrenceCount)
      return words.inWords()
    }
    let day = DateText(timeZone: timeZone).parts(endDate)
    return words.inWords(endingOn: CivilDate(year: day.year, month: day.month, day: day.day))
  }
}
