import Foundation
import OpenEventKit
import OpenEventKitApp
import REPLKit

extension LoanCommands {
  /// `new [CONTACT AMOUNT RATE PAYMENTS FREQUENCY FIRST-DUE] [--single-events]`: makes a
  /// loan, puts its payments on the calendar and records their identifiers. The terms not
  /// given are asked for, one by one, with the kit's `Console.ask`.
  func newLoan(_ arguments: [String], singleEvents: Bool) throws {
    // Terms given as arguments are checked before anything else. Asked for, they come after
    // access: nobody should type a whole loan to learn the calendar is closed to the app.
    let given = arguments.isEmpty ? nil : try LoanTerms(arguments: arguments, now: console.now)
    _ = try given?.amounts()
    let store = try store()
    guard let terms = try given ?? askTerms() else {
      console.print("Cancelled: no loan was made.")
      return
    }
    let amounts = try terms.amounts()
    let calendar = try calendars.calendar()
    let loan = Loan(
      contact: terms.contact, principalCents: terms.principal.value,
      annualPercent: "\(terms.annualPercent)", paymentCount: terms.paymentCount,
      frequency: terms.frequency.text, firstDue: DueDay.day(terms.firstDue),
      singleEvents: singleEvents, calendarIdentifier: calendar.calendarIdentifier,
      eventStoreIdentifier: store.eventStoreIdentifier)
    // The payments' events, made but not saved yet: one per payment, or one repeating event.
    let batch = PaymentBatch(store: store)
    let series = PaymentSeries(store: store)
    let events =
      singleEvents
      ? batch.paymentEvents(
        contact: terms.contact, amounts: amounts, frequency: terms.frequency,
        firstDue: terms.firstDue, in: calendar)
      : [
        series.repeatingEvent(
          contact: terms.contact, amounts: amounts, frequency: terms.frequency,
          firstDue: terms.firstDue, in: calendar)
      ]
    // Optional, advanced (CrashSafeLoans.swift): the events are written down before they are
    // saved, so that a run stopped between the calendar and loans.sqlite is repaired at the
    // next start. An app without it calls the same `schedule`, then records the loan with
    // `database.insert`.
    let saved: Loan
    do {
      saved = try makeLoanRecorded(loan, amounts: amounts, adding: events, in: store) {
        singleEvents
          ? try batch.schedule(events)
          : try series.scheduleRepeating(
            events[0], contact: terms.contact, amounts: amounts, frequency: terms.frequency,
            firstDue: terms.firstDue)
      }
    } catch let failure where Self.noneOnCalendar(events, in: store) {
      // All or nothing: the batch was reset, the series removed again. (Were any left, the
      // next start would remove them, and say so.)
      let reason = ErrorText.of(failure)
      throw LoanError(
        reason + (reason.hasSuffix(".") ? "" : ".")
          + " No loan was made: none of its payments went on the calendar.")
    }
    let how =
      singleEvents
      ? "one event per payment"
      : "one repeating event"
        + (amounts.last != amounts.first
          ? "; the last payment is an occurrence of its own for its different amount" : "")
    defer { noteOwnChange(saved) }  // once written: StoreChanges.swift
    console.print(
      "Loan \(saved.number): \(saved.contact) owes \(saved.principal), "
        + "\(terms.frequency.payments(saved.paymentCount)) from \(saved.firstDue).",
      "In calendar \"\(calendar.title)\" as \(how).")
    try show(saved, in: store)
  }

  /// Whether none of `events` is in the store: fetched again by identifier, since the objects
  /// keep their values after a failed save.
  static func noneOnCalendar(_ events: [EKEvent], in store: EKEventStore) -> Bool {
    !events.contains { store.calendarItem(withIdentifier: $0.calendarItemIdentifier) != nil }
  }

  /// A new loan's payments, numbered from 1, each where it was scheduled.
  static func newPayments(_ amounts: [Cents], _ scheduled: [ScheduledPayment]) -> [Payment] {
    zip(amounts, scheduled).enumerated().map { index, pair in
      Payment(
        loanId: 0, number: index + 1, amountCents: pair.0.value, due: pair.1.due, paid: false,
        eventIdentifier: pair.1.eventIdentifier)
    }
  }

  /// Asks for each term in turn, again after an answer that does not fit; nil when the person
  /// types `cancel`, presses Ctrl-C or the input ends.
  private func askTerms() throws -> LoanTerms? {
    console.print(console.style.dim("Type cancel to stop without making a loan."))
    guard let contact = console.ask("Who owes", read: LoanTerms.contact),
      let principal = console.ask("Amount", read: LoanTerms.amount),
      let rate = console.ask("Yearly interest rate, %", default: "0", read: LoanTerms.rate),
      let count = console.ask("Number of payments", read: LoanTerms.paymentCount),
      let frequency = console.ask(
        "How often (\(PaymentFrequency.help))", default: "monthly", read: LoanTerms.frequency)
    else { return nil }
    let tomorrow = DueDay.day(DueDay.nextDay(console.now))
    // The date is asked again when it does not fit the other terms (a monthly loan from the
    // 31st, one that would run too long).
    return console.ask("First due date", default: tomorrow) { text in
      try LoanTerms(
        contact: contact, principal: principal, annualPercent: rate, paymentCount: count,
        frequency: frequency, firstDue: LoanTerms.firstDue(text, now: console.now))
    }
  }
}
