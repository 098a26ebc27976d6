import Foundation
import OpenEventKit

/// Where a payment went in the calendar: its due day and its event's `eventIdentifier`, the
/// identifier `event(withIdentifier:)` takes, and the one that names a detached occurrence
/// apart from its series. Apple: it may change when the event moves to another calendar or
/// with a sync, so the app also finds a payment by title and day (PaymentFinder.swift).
struct ScheduledPayment: Hashable {
  var due: String
  var eventIdentifier: String
}

/// A loan's payments as one repeating event: EventKit works out the due dates.
///
/// Nothing is read back before it is committed: EventKit does not promise that a store's
/// fetches, or a new event's identifier, reflect changes staged with `commit: false`. So the
/// series is committed before its occurrences are fetched, and removed again when a later
/// step fails, so that a failure leaves the calendar as it was.
struct PaymentSeries {
  let store: EKEventStore

  /// A payment's event title: "Claire owes $440.13".
  static func title(contact: String, amount: Cents) -> String { "\(contact) owes \(amount)" }

  // MARK: pattern recurrence
  /// One event whose rule repeats at the loan's frequency (biweekly: weekly, interval 2) and
  /// ends after as many occurrences as there are payments; not saved yet.
  func repeatingEvent(
    contact: String, amounts: [Cents], frequency: PaymentFrequency, firstDue: Date,
    in calendar: EKCalendar
  ) -> EKEvent {
    let event = paymentEvent(
      title: Self.title(contact: contact, amount: amounts[0]), due: firstDue, in: calendar)
    let (unit, interval) = frequency.recurrence
    let end = EKRecurrenceEnd(occurrenceCount: amounts.count)  // the last payment ends it
    event.addRecurrenceRule(EKRecurrenceRule(recurrenceWith: unit, interval: interval, end: end))
    return event
  }

  /// Saves the series, then finds its occurrences; a different last amount detaches the last.
  func scheduleRepeating(
    _ event: EKEvent, contact: String, amounts: [Cents], frequency: PaymentFrequency,
    firstDue: Date
  ) throws -> [ScheduledPayment] {
    try store.save(event, span: .futureEvents, commit: true)  // committed: now it can be read
    do {
      let lastDue = DueDay.adding(amounts.count - 1, of: frequency, to: firstDue)
      var payments = PaymentOccurrences(store: store).occurrences(
        of: event.eventIdentifier, in: event.calendar, from: firstDue, through: lastDue)
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
    } catch {  // all or nothing: without its last payment the series would be wrong
      try? store.remove(event, span: .futureEvents, commit: true)
      throw error
    }
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

  /// A new all-day event for a payment due on `due`, with an alarm at its start.
  func paymentEvent(title: String, due: Date, in calendar: EKCalendar) -> EKEvent {
    let event = EKEvent(eventStore: store)
    event.calendar = calendar
    event.title = title
    event.isAllDay = true
    event.startDate = due
    event.endDate = due
    event.addAlarm(EKAlarm(relativeOffset: 0))
    return event
  }
}
