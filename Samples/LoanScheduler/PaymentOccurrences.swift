import Foundation
import OpenEventKit

/// The occurrences of a loan's repeating event, found with predicates.
struct PaymentOccurrences {
  let store: EKEventStore

  // MARK: pattern fetch
  /// The occurrences of the repeating event `identifier` from the day of `first` through the
  /// day of `last`, in start order.
  ///
  /// A predicate finds every event of its range, each occurrence of a series as its own
  /// `EKEvent`; this series' are those with its `eventIdentifier` (a detached occurrence has
  /// its own). Apple's store answers a predicate for four years at most, so a longer span is
  /// asked 1,460 days at a time, a little under four years whatever the leap days.
  func occurrences(
    of identifier: String, in calendar: EKCalendar?, from first: Date, through last: Date
  ) -> [EKEvent] {
    var found: [EKEvent] = []
    var start = DueDay.calendar.startOfDay(for: first)
    let end = DueDay.nextDay(last)
    while start < end {
      let window = DueDay.calendar.date(byAdding: .day, value: 1460, to: start) ?? end
      let windowEnd = min(end, window)
      let predicate = store.predicateForEvents(
        withStart: start, end: windowEnd, calendars: calendar.map { [$0] })
      found += store.events(matching: predicate).filter { $0.eventIdentifier == identifier }
      start = windowEnd
    }
    // Events come in no promised order; compareStartDate orders them as the calendar does.
    return found.sorted { $0.compareStartDate(with: $1) == .orderedAscending }
  }

  // MARK: When the end is not known

  /// The first `count` occurrences of the repeating event `identifier` from the day of
  /// `first` on, for when where they end is not known (a rule changed in the editor): window
  /// after window, as long as a loan may run.
  func occurrences(
    of identifier: String, in calendar: EKCalendar?, from first: Date, count: Int
  ) -> [EKEvent] {
    var found: [EKEvent] = []
    var start = DueDay.calendar.startOfDay(for: first)
    let end =
      DueDay.calendar.date(byAdding: .year, value: LoanTerms.longestYears, to: start) ?? start
    while found.count < count, start < end {
      let windowEnd = DueDay.calendar.date(byAdding: .day, value: 1459, to: start) ?? end
      found += occurrences(of: identifier, in: calendar, from: start, through: windowEnd)
      start = DueDay.nextDay(windowEnd)
    }
    return Array(found.prefix(count))
  }
}
