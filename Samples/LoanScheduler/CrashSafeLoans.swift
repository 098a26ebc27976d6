// Optional, advanced: an app whose own database must agree with the calendar across a crash.
//
// The calendar store and loans.sqlite are two databases; no transaction spans both. A run
// killed after the store's commit and before loans.sqlite records the loan would leave
// payments on the calendar that no loan knows of (or, deleting, a loan whose events are half
// gone). Most apps can live with that and recover by title and day (PaymentFinder.swift). This
// one writes down what it is about to do first, with the kit's `CalendarWork`, and the kit
// undoes unfinished work at the next start ("Repaired: …"; Tests/ReliabilityTests/
// SampleCrashTests.swift kills the app to prove it).
import Foundation
import OpenEventKit
import OpenEventKitApp

extension LoanCommands {
  // MARK: pattern crash-safe
  /// Puts a loan's new `events` on the calendar with `schedule` and records the loan. Their
  /// `calendarItemIdentifier`s are written down first: OpenEventKit sets it when an event is
  /// made, so it is known before the save, unlike `eventIdentifier` (Apple does not document
  /// when), and `calendarItem(withIdentifier:)` finds the event by it. The note is finished in
  /// the transaction that records the loan: a run killed in between has those events removed
  /// at the next start.
  func makeLoanRecorded(
    _ loan: Loan, amounts: [Cents], adding events: [EKEvent], in store: EKEventStore,
    schedule: () throws -> [ScheduledPayment]
  ) throws -> Loan {
    let work = try session.database.beginAdding(
      "making a loan to \(loan.contact)", .event, items: events.map(\.calendarItemIdentifier))
    let scheduled: [ScheduledPayment]
    do {
      scheduled = try schedule()
    } catch {
      // A failed schedule leaves nothing (the batch is reset, the series removed again), and
      // the note is done; should anything be left, the note stays for the next start.
      if Self.noneOnCalendar(events, in: store) { try? session.database.finish(work) }
      throw error
    }
    do {
      return try database.insert(
        loan, payments: Self.newPayments(amounts, scheduled), finishing: work)
    } catch {  // the calendar must not keep payments the app has no record of
      _ = try? PaymentRemoval(store: store).removeEvents(
        withIdentifiers: scheduled.map(\.eventIdentifier))
      try? session.database.finish(work)
      throw error
    }
  }

  // MARK: pattern crash-safe-delete
  /// Deletes a loan, then its events: the loan goes in the transaction that writes down the
  /// events to remove (by `calendarItemIdentifier`, which the repair finds with
  /// `calendarItem(withIdentifier:)`; removed by `eventIdentifier`: one string in OpenEventKit,
  /// two on Apple's systems), so a run killed half way has the rest removed at the next start.
  func deleteLoanRecorded(
    _ loan: Loan, events: [EKEvent], in store: EKEventStore
  ) throws -> [(identifier: String, result: PaymentRemoval.Removal)] {
    let items = events.map(\.calendarItemIdentifier)
    let work = try session.database.beginRemoving(
      "deleting loan \(loan.number) to \(loan.contact)", .event, items: items
    ) { db in try LoanDatabase.delete(loan, in: db) }
    let removal = PaymentRemoval(store: store)
    let outcomes = try removal.removeEvents(withIdentifiers: events.map(\.eventIdentifier))
    try session.database.finish(work)
    return outcomes
  }

  // MARK: -
}
