import Foundation
import OpenEventKit
import REPLKit

extension LoanCommands {
  /// `new [CONTACT AMOUNT RATE PAYMENTS FREQUENCY FIRST-DUE] [--single-events]`: makes a
  /// loan, puts its payments on the calendar and records their identifiers.
  func newLoan(_ words: [String]) throws {
    let singleEvents = words.contains("--single-events")
    let arguments = words.filter { $0 != "--single-events" }
    // Terms given as arguments are checked before anything else. Asked for, they come after
    // access: nobody should type a whole loan to learn the calendar is closed to the app.
    let given = arguments.isEmpty ? nil : try LoanTerms(arguments: arguments, now: console.now)
    _ = try given?.amounts()
    let store = try session.requireStore()
    guard let terms = try given ?? askTerms() else {
      console.print("Cancelled: no loan was made.")
      return
    }
    let amounts = try terms.amounts()
    let calendar = try session.calendarForNewLoans(in: store)
    let scheduler = PaymentScheduler(store: store)
    let scheduled =
      singleEvents
      ? try scheduler.scheduleSingleEvents(
        contact: terms.contact, amounts: amounts, frequency: terms.frequency,
        firstDue: terms.firstDue, in: calendar)
      : try scheduler.scheduleRepeating(
        contact: terms.contact, amounts: amounts, frequency: terms.frequency,
        firstDue: terms.firstDue, in: calendar)

    let loan = Loan(
      contact: terms.contact, principalCents: terms.principal.value,
      annualPercent: "\(terms.annualPercent)", paymentCount: terms.paymentCount,
      frequency: terms.frequency.text, firstDue: DueDay.day(terms.firstDue),
      singleEvents: singleEvents, calendarIdentifier: calendar.calendarIdentifier,
      eventStoreIdentifier: store.eventStoreIdentifier)
    let payments = zip(amounts, scheduled).enumerated().map { index, pair in
      Payment(
        loanId: 0, number: index + 1, amountCents: pair.0.value, due: pair.1.due, paid: false,
        eventIdentifier: pair.1.eventIdentifier)
    }
    let saved: Loan
    do {
      saved = try session.database.insert(loan, payments: payments)
    } catch {
      // The calendar must not keep payments the app has no record of.
      _ = try? scheduler.removeEvents(withIdentifiers: scheduled.map(\.eventIdentifier))
      throw error
    }
    let how =
      singleEvents
      ? "one event per payment"
      : "one repeating event"
        + (amounts.last != amounts.first
          ? "; the last payment is an occurrence of its own for its different amount" : "")
    console.print(
      "Loan \(saved.number): \(saved.contact) owes \(saved.principal), "
        + "\(saved.paymentCount) \(saved.frequency) payments from \(saved.firstDue).",
      "In calendar \"\(calendar.title)\" as \(how).")
    try show(saved, in: store)
  }

  /// Asks for each term in turn, again after an answer that does not fit; nil when the person
  /// types `cancel` or the input ends.
  private func askTerms() throws -> LoanTerms? {
    console.print(console.style.dim("Type cancel to stop without making a loan."))
    guard let contact = ask("Who owes", read: LoanTerms.contact),
      let principal = ask("Amount", read: LoanTerms.amount),
      let rate = ask("Yearly interest rate, %", default: "0", read: LoanTerms.rate),
      let count = ask("Number of payments", read: LoanTerms.paymentCount),
      let frequency = ask(
        "How often (\(PaymentFrequency.help))", default: "monthly", read: LoanTerms.frequency)
    else { return nil }
    let tomorrow = DueDay.day(DueDay.nextDay(console.now))
    while true {
      guard
        let firstDue = ask(
          "First due date", default: tomorrow,
          read: { (text) throws(REPLError) in try LoanTerms.firstDue(text, now: console.now) })
      else { return nil }
      do {
        return try LoanTerms(
          contact: contact, principal: principal, annualPercent: rate, paymentCount: count,
          frequency: frequency, firstDue: firstDue)
      } catch {
        console.print("\(error)")
      }
    }
  }

  /// One answer, read with `read` until it fits; nil on `cancel` or at the end of input.
  private func ask<Value>(
    _ label: String, default value: String? = nil, read: (String) throws(REPLError) -> Value
  ) -> Value? {
    while true {
      guard var answer = console.ask("\(label)\(value.map { " [\($0)]" } ?? ""): "),
        answer.lowercased() != "cancel"
      else { return nil }
      if answer.isEmpty, let value { answer = value }
      do {
        return try read(answer)
      } catch {
        console.print(error.description)
      }
    }
  }
}
