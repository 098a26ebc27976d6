import Foundation
import ICalendar

/// Recurrence rules in words, as Calendar shows them: "Every 2 weeks on Monday and Friday,
/// 10 times", "Monthly on the last weekday, until 3 May 2026"; for a saved event, with its last
/// occurrence: "Weekly, last on 2 May 2027" (``describe(rulesOf:timeZone:)``).
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
    describe(rule, timeZone: timeZone, lastOccurrence: nil)
  }

  /// The event's rules in words, one sentence each, naming the last occurrence the event has
  /// where its rule ends: "Weekly, last on 2 May 2027". An UNTIL is not said, as it can fall
  /// after the last occurrence left (a series ended with `remove(_:span: .futureEvents)`
  /// keeps an UNTIL one second before the occurrence removed) and an exception date can
  /// remove the last instance; a COUNT is said with it ("Daily, 10 times, last on 12 March
  /// 2026"). What OpenEventKitUI's event view and editor and `ekctl show` print.
  ///
  /// The last occurrence comes from the saved series (``EKEventStore/seriesOutline(of:)``);
  /// a rule without end, a new event, an event whose rules were changed since it was saved,
  /// and an event of several rules are said as ``describe(_:timeZone:)`` says them.
  ///
  /// ```swift
  /// // A weekly series whose occurrences from 9 May 2027 on were removed.
  /// print(RecurrenceWords.describe(rulesOf: event, timeZone: .current))
  /// // ["Weekly, last on 2 May 2027"]
  /// ```
  ///
  /// - Parameters:
  ///   - event: Any occurrence of a repeating event; a single event has no rules, and gives
  ///     an empty array.
  ///   - timeZone: The event's zone (`TimeZone.current` for a floating or all-day event),
  ///     whose clock the last occurrence's day is read on.
  /// - Returns: One sentence per rule, without a final period.
  public static func describe(rulesOf event: EKEvent, timeZone: TimeZone) -> [String] {
    let rules = event.recurrenceRules ?? []
    guard rules.count == 1, let rule = rules.first, rule.recurrenceEnd != nil,
      let saved = event.saved, saved.rules == event.snapshot.rules,
      let last = event.eventStore.seriesOutline(of: event)?.lastOccurrenceDate
    else { return rules.map { describe($0, timeZone: timeZone) } }
    return [describe(rule, timeZone: timeZone, lastOccurrence: last)]
  }

  private static func describe(
    _ rule: EKRecurrenceRule, timeZone: TimeZone, lastOccurrence: Date?
  ) -> String {
    var words = rule.rule
    func day(_ date: Date) -> CivilDate? {
      let parts = DateText(timeZone: timeZone).parts(date)
      return CivilDate(year: parts.year, month: parts.month, day: parts.day)
    }
    guard let end = rule.recurrenceEnd else { return words.inWords() }
    guard let endDate = end.endDate else {
      words.end = .count(end.occurrenceCount)
      return words.inWords(lastOn: lastOccurrence.flatMap(day))
    }
    guard let lastOccurrence else { return words.inWords(endingOn: day(endDate)) }
    words.end = nil
    return words.inWords(lastOn: day(lastOccurrence))
  }
}
