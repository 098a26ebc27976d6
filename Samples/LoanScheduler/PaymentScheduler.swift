import Foundation
import OpenEventKit

/// Where a payment went in the calendar: its due day and its event's `eventIdentifier`.
struct ScheduledPayment: Hashable {
  var due: String
  var eventIdentifier: String
}

/// Puts a loan's payments on the calendar and takes them off again. Each EventKit pattern the
/// sample teaches is one function here; OpenEventKitApp.docc/LoanScheduler.md points to each.
///
/// Nothing is read back before it is committed: EventKit does not promise that a store's
/// fetches, or a new event's identifier, reflect changes staged with `commit: false`. Changes
/// that go together are staged and committed once; when a later step fails, what the earlier
/// commit made is removed again, so a failure leaves the calendar as it was.
struct PaymentScheduler {
  let store: EKEventStore
  /// Told the identifiers of a loan's new events just before they are committed, so that
  /// the app can record them first (the kit's `CalendarWork`): a run stopped before the loan
  /// is recorded then has its events removed at the next start.
  var willCommit: (_ newEvents: [String]) throws -> Void = { _ in }

  /// A payment's event title: "Claire owes $440.13".
  static func title(contact: String, amount: Cents) -> String { "\(contact) owes \(amount)" }

  // MARK: Scheduling with a recurrence rule

  /// Schedules the payments as one repeating event, and lets EventKit work out the due dates:
  /// a rule of the loan's frequency that ends after as many occurrences as there are payments.
  /// When the last amount differs, that occurrence is retitled on its own (detached).
  func scheduleRepeating(
    contact: String, amounts: [Cents], frequency: PaymentFrequency, firstDue: Date,
    in calendar: EKCalendar
  ) throws -> [ScheduledPayment] {
    let event = paymentEvent(
      title: Self.title(contact: contact, amount: amounts[0]), due: firstDue, in: calendar)
    let (unit, interval) = frequency.recurrence
    event.addRecurrenceRule(
      EKRecurrenceRule(
        recurrenceWith: unit, interval: interval,
        end: EKRecurrenceEnd(occurrenceCount: amounts.count)))
    try willCommit([event.calendarItemIdentifier])
    try store.save(event, span: .futureEvents, commit: true)
    do {
      let lastDue = DueDay.adding(amounts.count - 1, of: frequency, to: firstDue)
      var payments = occurrences(
        of: event.eventIdentifier, in: calendar, from: firstDue, through: lastDue)
      guard payments.count == amounts.count else {
        throw LoanError("the calendar shows \(payments.count) of the \(amounts.count) payments")
      }
      if let last = amounts.last, last != amounts[0] {
        payments[payments.count - 1] = try detach(
          payments[payments.count - 1], title: Self.title(contact: contact, amount: last))
      }
      return payments.map {
        ScheduledPayment(due: DueDay.day($0.startDate), eventIdentifier: $0.eventIdentifier)
      }
    } catch {
      // The series is all or nothing: without its last payment it would be wrong.
      try? store.remove(event, span: .futureEvents, commit: true)
      throw error
    }
  }

  /// A new all-day event for a payment due on `due`, with an alarm at its start.
  private func paymentEvent(title: String, due: Date, in calendar: EKCalendar) -> EKEvent {
    let event = EKEvent(eventStore: store)
    event.calendar = calendar
    event.title = title
    event.isAllDay = true
    event.startDate = due
    event.endDate = due
    event.addAlarm(EKAlarm(relativeOffset: 0))
    return event
  }

  // MARK: Finding the occurrences of a repeating event

  /// The occurrences of the repeating event `identifier` from the day of `first` through the
  /// day of `last`, in start order.
  ///
  /// A predicate finds every event of its range; the occurrences of this series are those
  /// with its `eventIdentifier` (a detached occurrence has its own). Apple's store answers a
  /// predicate for four years at most, so a longer span is asked 1,460 days at a time, a
  /// little under four years whatever the leap days.
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
    return found.sorted { $0.compareStartDate(with: $1) == .orderedAscending }
  }

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

  // MARK: Detaching one occurrence

  /// Retitles one occurrence and saves it with `.thisEvent`: it becomes a detached occurrence,
  /// still part of its series (removing the series removes it), with an `eventIdentifier` of
  /// its own, which the caller records.
  func detach(_ occurrence: EKEvent, title: String) throws -> EKEvent {
    occurrence.title = title
    try store.save(occurrence, span: .thisEvent, commit: true)
    return occurrence
  }

  // MARK: One event per payment

  /// Schedules each payment as an event of its own: each has its own identifier, and no
  /// series ties them, so moving or removing one never touches the others; the app works
  /// out the dates itself.
  func scheduleSingleEvents(
    contact: String, amounts: [Cents], frequency: PaymentFrequency, firstDue: Date,
    in calendar: EKCalendar
  ) throws -> [ScheduledPayment] {
    let events = try committingTogether {
      let events = try amounts.enumerated().map { index, amount in
        let event = paymentEvent(
          title: Self.title(contact: contact, amount: amount),
          due: DueDay.adding(index, of: frequency, to: firstDue), in: calendar)
        try store.save(event, span: .thisEvent, commit: false)
        return event
      }
      try willCommit(events.map(\.calendarItemIdentifier))
      return events
    }
    // Identifiers are read once the events are committed.
    return events.map {
      ScheduledPayment(due: DueDay.day($0.startDate), eventIdentifier: $0.eventIdentifier)
    }
  }

  // MARK: Deleting a loan's events

  /// What removing one identifier's event came to.
  enum Removal {
    case removed
    /// Found before the removals began, gone by its turn: a detached occurrence, removed with
    /// its series.
    case wentWithItsSeries
    /// Found by nothing: removed already, by another app or by the person.
    case alreadyGone
  }

  /// Removes the events of these identifiers, each distinct one once, with `.futureEvents`:
  /// from a series' first occurrence that removes the whole series, detached occurrences
  /// included. An identifier that finds nothing is expected, never an error. Each removal
  /// is committed before the next identifier is looked up, so that the lookup sees it; a
  /// failure half way leaves the rest for the next try, which finds the removed ones gone.
  func removeEvents(
    withIdentifiers identifiers: [String]
  ) throws -> [(identifier: String, result: Removal)] {
    var seen: Set<String> = []
    let distinct = identifiers.filter { seen.insert($0).inserted }
    let foundBefore = distinct.map { store.event(withIdentifier: $0) != nil }
    return try zip(distinct, foundBefore).map { identifier, wasFound in
      guard wasFound else { return (identifier, .alreadyGone) }
      guard let event = store.event(withIdentifier: identifier) else {
        return (identifier, .wentWithItsSeries)
      }
      try store.remove(event, span: .futureEvents, commit: true)
      return (identifier, .removed)
    }
  }

  // MARK: Taking some payments off the calendar

  /// Removes payments' events, keeping the rest of the loan's: an event of its own (a single
  /// payment, a detached occurrence) alone; an occurrence of a repeating event with
  /// `.thisEvent`, which leaves the series an exception date, or, when `future` says the
  /// later occurrences go too, with `.futureEvents` from the first of them, which ends the
  /// series before it. Each removal is committed before the next one is looked at.
  func remove(_ events: [EKEvent], withFutureOccurrences future: Bool) throws {
    let isOccurrence = { (event: EKEvent) in event.hasRecurrenceRules && !event.isDetached }
    for event in events where !isOccurrence(event) {
      try store.remove(event, span: .thisEvent, commit: true)
    }
    var cut: Set<String> = []
    for event in events where isOccurrence(event) {
      if future {
        guard cut.insert(event.eventIdentifier).inserted else { continue }
        try store.remove(event, span: .futureEvents, commit: true)
      } else {
        try store.remove(event, span: .thisEvent, commit: true)
      }
    }
  }

  // MARK: Rescheduling: splitting a series

  /// Moves payments to new days: the first of `events` to `firstDue`, the others after it at
  /// the loan's frequency. `events` are the payments' events in order, from the first one
  /// moved to the last payment.
  ///
  /// The first occurrence of a series among them is saved with `.futureEvents`, which splits
  /// the series there: it and every later occurrence form a new series with a new
  /// `eventIdentifier` (from the series' first occurrence, the whole series moves and keeps
  /// its identifier). An earlier reschedule may have left several series, so each is moved
  /// from its first occurrence here. Events of their own (single payments, a detached last
  /// payment) keep their times through a split, so each is moved with `.thisEvent`.
  func reschedule(
    _ events: [EKEvent], frequency: PaymentFrequency, firstDue: Date
  ) throws -> [ScheduledPayment] {
    let dues = events.indices.map { DueDay.adding($0, of: frequency, to: firstDue) }
    let identifiers: [String] = events.map(\.eventIdentifier)
    let inSeries = events.map { $0.hasRecurrenceRules && !$0.isDetached }
    let firstOfSeries = events.indices.filter { index in
      inSeries[index]
        && !events.indices.contains {
          $0 < index && inSeries[$0] && identifiers[$0] == identifiers[index]
        }
    }
    try committingTogether {
      // Events of their own first: a split made after keeps the times they have by then.
      for (index, event) in events.enumerated() where !inSeries[index] {
        event.startDate = dues[index]
        event.endDate = dues[index]
        try store.save(event, span: .thisEvent, commit: false)
      }
      for index in firstOfSeries {
        events[index].startDate = dues[index]
        events[index].endDate = dues[index]
        try store.save(events[index], span: .futureEvents, commit: false)
      }
    }
    // Committed: each moved series' occurrences, in order, go to the payments that were its own.
    var occurrences: [String: IndexingIterator<[EKEvent]>] = [:]
    for first in firstOfSeries {
      let own = events.indices.filter { inSeries[$0] && identifiers[$0] == identifiers[first] }
      occurrences[identifiers[first]] = self.occurrences(
        of: events[first].eventIdentifier, in: nil, from: dues[own[0]],
        through: dues[own[own.count - 1]]
      ).makeIterator()
    }
    return try events.indices.map { index in
      guard inSeries[index] else {
        return ScheduledPayment(due: DueDay.day(dues[index]), eventIdentifier: identifiers[index])
      }
      guard let occurrence = occurrences[identifiers[index]]?.next() else {
        throw LoanError(
          "payment \(index + 1)'s moved event is not where it should be; 'show' looks for it")
      }
      return ScheduledPayment(
        due: DueDay.day(occurrence.startDate), eventIdentifier: occurrence.eventIdentifier)
    }
  }

  /// Runs `changes`, which stage with `commit: false`, then commits them in one transaction;
  /// when anything throws, `reset()` drops whatever was staged, so nothing half-done stays.
  private func committingTogether<Result>(_ changes: () throws -> Result) throws -> Result {
    do {
      let result = try changes()
      try store.commit()
      return result
    } catch {
      store.reset()
      throw error
    }
  }
}
