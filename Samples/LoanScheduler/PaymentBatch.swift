import Foundation
import OpenEventKit
import REPLKit

/// Changes to several payments' events that go together, committed in one transaction: one
/// event per payment, and a reschedule's moves.
struct PaymentBatch {
  let store: EKEventStore

  // MARK: pattern batch
  /// Saves every change with `commit: false`, which checks the event and stages it in this
  /// store object, writing nothing; then one `commit()` writes them all. Other apps are told
  /// once, by one `EKEventStoreChanged`, and in OpenEventKit the commit is one transaction:
  /// another app sees all of the payments or none of them (Apple does not document that:
  /// after a failure, fetch again rather than assume either).
  ///
  /// When a save is refused or the commit fails, `reset()` drops what was staged: without it
  /// the events staged so far stay staged, and the store's next commit, by any command, would
  /// write them after all. On Apple's platforms it also invalidates every object from this
  /// store: fetch again before using any. Read a new event's `eventIdentifier` after the
  /// commit: EventKit does not promise that it, or a fetch, reflects what `commit: false`
  /// staged.
  func saveTogether(_ changes: [(event: EKEvent, span: EKSpan)]) throws {
    do {
      for (event, span) in changes {
        try store.save(event, span: span, commit: false)
      }
      try store.commit()
    } catch {
      store.reset()
      throw error
    }
  }

  // MARK: One event per payment

  /// A new event for each payment, not saved yet: each will have its own identifier, and no
  /// series ties them, so moving or removing one never touches the others; the app works out
  /// the dates itself.
  func paymentEvents(
    contact: String, amounts: [Cents], frequency: PaymentFrequency, firstDue: Date,
    in calendar: EKCalendar
  ) -> [EKEvent] {
    let series = PaymentSeries(store: store)
    return amounts.enumerated().map { index, amount in
      series.paymentEvent(
        title: PaymentSeries.title(contact: contact, amount: amount),
        due: DueDay.adding(index, of: frequency, to: firstDue), in: calendar)
    }
  }

  /// Puts `events` (``paymentEvents(contact:amounts:frequency:firstDue:in:)``) on the calendar
  /// in one batch, and says where each went.
  func schedule(_ events: [EKEvent]) throws -> [ScheduledPayment] {
    try saveTogether(events.map { ($0, .thisEvent) })
    // Identifiers are read once the events are committed.
    return events.map {
      ScheduledPayment(due: DueDay.day($0.startDate), eventIdentifier: $0.eventIdentifier)
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
    // Events of their own first: a split made after keeps the times they have by then.
    let moves: [(index: Int, span: EKSpan)] =
      events.indices.filter { !inSeries[$0] }.map { ($0, .thisEvent) }
      + firstOfSeries.map { ($0, .futureEvents) }
    for (index, _) in moves {
      events[index].startDate = dues[index]
      events[index].endDate = dues[index]
    }
    do {
      try saveTogether(moves.map { (events[$0.index], $0.span) })
    } catch {  // all or nothing: reset() dropped every move
      let reason = ErrorText.of(error)
      throw LoanError(reason + (reason.hasSuffix(".") ? "" : ".") + " No payment was moved.")
    }
    // Committed: each moved series' occurrences, in order, go to the payments that were its own.
    let finder = PaymentOccurrences(store: store)
    var occurrences: [String: IndexingIterator<[EKEvent]>] = [:]
    for first in firstOfSeries {
      let own = events.indices.filter { inSeries[$0] && identifiers[$0] == identifiers[first] }
      occurrences[identifiers[first]] = finder.occurrences(
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
}
