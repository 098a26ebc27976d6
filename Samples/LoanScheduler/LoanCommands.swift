import Foundation
import OpenEventKit
import OpenEventKitUI
import REPLKit

/// The app's commands. Each reads its arguments, checks them all before changing anything,
/// and reports a problem by throwing a `REPLError`, which the REPL prints.
struct LoanCommands {
  let session: LoanSession
  var console: Console { session.console }
  var database: LoanDatabase { session.database }

  var all: [REPLCommand] {
    let loans: @Sendable ([String]) -> [String] = { [session] words in
      words.isEmpty ? ((try? session.database.loans()) ?? []).map { "\($0.number)" } : []
    }
    return [
      command(
        "new", "[TERMS] [--single-events]",
        "Lends money and puts every payment on the calendar. TERMS: CONTACT AMOUNT RATE "
          + "PAYMENTS FREQUENCY FIRST-DUE, such as: Claire 1320.38 0 3 daily 2025-03-02; "
          + "without them, each is asked.",
        run: { try $0.newLoan($1) }),
      command("loans", "", "Lists the loans.", run: { try $0.listLoans($1) }),
      command(
        "show", "LOAN", "Shows a loan's schedule: days, amounts, paid, event identifiers.",
        complete: loans, run: { try $0.show($1) }),
      command(
        "payment", "LOAN N", "Shows payment N's event as the calendar has it.", complete: loans,
        run: { try $0.showPayment($1) }),
      command(
        "edit", "LOAN N", "Edits payment N's event (asks whether for later payments too).",
        complete: loans, run: { try $0.edit($1) }),
      command(
        "pay", "LOAN N", "Marks payment N as paid.", complete: loans, run: { try $0.pay($1) }),
      command(
        "reschedule", "LOAN N WHEN",
        "Moves payment N to the day WHEN, and the later payments with it.", complete: loans,
        run: { try $0.reschedule($1) }),
      command(
        "delete", "LOAN", "Deletes a loan and takes its payments off the calendar.",
        complete: loans, run: { try $0.delete($1) }),
      command(
        "calendar", "", "Chooses the calendar for new loans' payments.",
        run: { try $0.chooseCalendar($1) }),
    ]
  }

  /// A command that first tells of calendar changes other apps made, and afterwards records
  /// what the calendar looks like, so that the app's own changes are not reported as others'
  /// (``LoanSession/settleCalendar()``).
  private func command(
    _ name: String, _ synopsis: String, _ help: String,
    complete: (@Sendable ([String]) -> [String])? = nil,
    run: @escaping @Sendable (LoanCommands, [String]) throws -> Void
  ) -> REPLCommand {
    REPLCommand(name, synopsis: synopsis, help: help, complete: complete) { [self] words in
      session.tellOfCalendarChanges()
      defer { session.settleCalendar() }
      try run(self, words)
    }
  }

  // MARK: loans, show

  func listLoans(_ words: [String]) throws {
    guard words.isEmpty else { throw REPLError("usage: loans") }
    let loans = try database.loans()
    guard !loans.isEmpty else {
      console.print("No loans yet: 'new' makes one.")
      return
    }
    for loan in loans {
      let payments = try database.payments(of: loan)
      let paid = payments.filter(\.paid).count
      console.print(
        "  \(loan.number)  \(loan.contact) owes \(loan.principal) at \(loan.annualPercent)% a "
          + "year: \(loan.paymentCount) \(loan.frequency) payments from \(loan.firstDue), "
          + "\(paid) paid")
    }
  }

  func show(_ words: [String]) throws {
    guard words.count == 1 else { throw REPLError("usage: show LOAN") }
    let loan = try database.loan(named: words[0])
    session.touch(loan)
    try show(loan, in: try session.requireStore())
  }

  /// The schedule of a loan, each payment beside its event as the calendar has it now. A
  /// payment whose recorded identifier no longer finds its event is searched for by title
  /// and day, and what is found is recorded.
  func show(_ loan: Loan, in store: EKEventStore) throws {
    if let recorded = loan.eventStoreIdentifier, recorded != store.eventStoreIdentifier {
      // Identifiers belong to one database: these may find nothing here, and recovery by
      // title and day does the work. From now on the loan belongs to this database.
      console.print(
        "Loan \(loan.number) was scheduled in another calendar database; its payments are "
          + "looked for here by title and day.")
      var moved = loan
      moved.eventStoreIdentifier = store.eventStoreIdentifier
      try database.update(moved)
    }
    var payments = try database.payments(of: loan)
    var notes: [String] = []
    var rows: [[String]] = [["#", "due", "amount", "paid", "event"]]
    let found = PaymentFinder(store: store).events(for: payments)
    for index in payments.indices {
      let (event, note) = try findEvent(
        of: &payments[index], loan: loan, in: store, found: .some(found[index]))
      if let note { notes.append(note) }
      let payment = payments[index]
      let kind =
        event.map { $0.isDetached ? " (detached)" : $0.hasRecurrenceRules ? " (repeating)" : "" }
        ?? ""
      rows.append([
        "\(payment.number)", payment.due, payment.amount.description, payment.paid ? "yes" : "no",
        event.map { $0.eventIdentifier + kind } ?? "not in the calendar",
      ])
    }
    try database.update(payments)
    let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
    for row in rows {
      let cells = row.enumerated().map { column, cell in
        column == row.count - 1
          ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
      }
      console.print("  " + cells.joined(separator: "  "))
    }
    for note in notes { console.print(note) }
  }

  /// The event of a payment: from its recorded identifier (an identifier of its own is
  /// recorded when the occurrence was detached meanwhile), else recovered by title and day;
  /// with a note when it was moved, recovered or lost.
  private func findEvent(
    of payment: inout Payment, loan: Loan, in store: EKEventStore, found: EKEvent?? = nil
  ) throws -> (EKEvent?, String?) {
    let finder = PaymentFinder(store: store)
    if let event = found ?? finder.event(for: payment) {
      var notes: [String] = []
      if event.eventIdentifier != payment.eventIdentifier {
        payment.eventIdentifier = event.eventIdentifier
        notes.append("it was changed on its own in the calendar; its identifier is recorded")
      }
      let day = DueDay.day(event.startDate)
      if day != payment.due { notes.append("its event is on \(day), not on its due day") }
      let note = notes.isEmpty ? nil : "Payment \(payment.number): " + notes.joined(separator: "; ")
      return (event, note.map { $0 + "." })
    }
    let title = PaymentScheduler.title(contact: loan.contact, amount: payment.amount)
    let recorded = try database.recordedIdentifiers()
    if let event = finder.recover(payment, title: title, recorded: recorded) {
      payment.eventIdentifier = event.eventIdentifier
      return (
        event,
        "Payment \(payment.number): its recorded event was gone; found \"\(title)\" on "
          + "\(payment.due) and recorded its identifier."
      )
    }
    return (
      nil,
      "Payment \(payment.number): not in the calendar, by its identifier or by title and day "
        + "(removed in another app?)."
    )
  }

  // MARK: payment, edit, pay

  /// The loan and payment `LOAN N` names, with all the loan's payments.
  private func payment(_ words: [String], usage: String) throws -> (Loan, [Payment], Int) {
    guard words.count == 2 else { throw REPLError("usage: \(usage)") }
    let loan = try database.loan(named: words[0])
    session.touch(loan)
    let payments = try database.payments(of: loan)
    guard let number = Int(words[1]), number >= 1, number <= payments.count else {
      throw REPLError(
        "loan \(loan.number) has payments 1 to \(payments.count), not '\(words[1])'")
    }
    return (loan, payments, number - 1)
  }

  /// The event of payment `index`, recovering and recording it when needed; an error when
  /// the calendar has none.
  private func event(
    of payments: inout [Payment], _ index: Int, loan: Loan, in store: EKEventStore
  ) throws -> EKEvent {
    let (event, note) = try findEvent(of: &payments[index], loan: loan, in: store)
    if let note { console.print(note) }
    guard let event else {
      throw REPLError("payment \(index + 1) of loan \(loan.number) is not in the calendar")
    }
    try database.update([payments[index]])
    return event
  }

  func showPayment(_ words: [String]) throws {
    var (loan, payments, index) = try payment(words, usage: "payment LOAN N")
    let store = try session.requireStore()
    let event = try event(of: &payments, index, loan: loan, in: store)
    EKEventViewController(event: event).show(on: console)
  }

  func edit(_ words: [String]) throws {
    var (loan, payments, index) = try payment(words, usage: "edit LOAN N")
    let store = try session.requireStore()
    let event = try event(of: &payments, index, loan: loan, in: store)
    // The later payments on this event's series: those a split may move to a new series.
    let finder = PaymentFinder(store: store)
    let sameSeries = payments.indices.filter {
      $0 > index && payments[$0].eventIdentifier == event.eventIdentifier
        && finder.event(for: payments[$0]) != nil
    }
    let editor = EKEventEditViewController(eventStore: store, event: event)
    switch editor.run(on: console) {
    case .canceled:
      console.print("Nothing changed.")
    case .deleted:
      let gone = payments[index...].filter { finder.event(for: $0) == nil }.map(\.number)
      console.print(
        "Removed from the calendar: payment\(gone.count == 1 ? "" : "s") "
          + gone.map(String.init).joined(separator: ", ")
          + ". The loan keeps them; 'delete' removes the loan.")
    case .saved:
      guard let edited = editor.event else { return }
      try record(
        edited, asPayment: index, later: sameSeries, of: &payments, loan: loan, in: store)
    }
  }

  /// Records what an edit did. The edited occurrence may have a new identifier (detached with
  /// "this event", or the start of a new series with "future events") and a new day; a split
  /// also gave the `later` payments of the series the new series' identifier, so those the
  /// old one no longer finds are matched, in order, with the new series' later occurrences.
  private func record(
    _ edited: EKEvent, asPayment index: Int, later: [Int], of payments: inout [Payment],
    loan: Loan, in store: EKEventStore
  ) throws {
    let start: Date = edited.startDate
    payments[index].eventIdentifier = edited.eventIdentifier
    payments[index].due = DueDay.day(start)
    let finder = PaymentFinder(store: store)
    let lost = later.filter { finder.event(for: payments[$0]) == nil }
    if !lost.isEmpty, edited.hasRecurrenceRules, !edited.isDetached {
      let later = PaymentScheduler(store: store).occurrences(
        of: edited.eventIdentifier, in: nil, from: DueDay.nextDay(start), count: lost.count)
      for (position, occurrence) in zip(lost, later) {
        payments[position].eventIdentifier = occurrence.eventIdentifier
        payments[position].due = DueDay.day(occurrence.startDate)
      }
    }
    try recordAfterCalendarChange(payments, loan: loan)
    console.print("Recorded payment \(index + 1)'s event: \(edited.eventIdentifier ?? "").")
    let expected = loan.paymentFrequency.recurrence
    if let rule = edited.recurrenceRules?.first, !edited.isDetached,
      rule.frequency != expected.frequency || rule.interval != expected.interval
    {
      console.print(
        "The repeat rule is no longer the loan's \(loan.frequency): the later payments' days "
          + "now follow the calendar, and 'show \(loan.number)' says which are where.")
    }
  }

  func pay(_ words: [String]) throws {
    var (loan, payments, index) = try payment(words, usage: "pay LOAN N")
    guard !payments[index].paid else {
      console.print("Payment \(index + 1) of loan \(loan.number) was paid already.")
      return
    }
    payments[index].paid = true
    try database.update([payments[index]])
    let left = payments.filter { !$0.paid }.count
    console.print(
      "\(loan.contact) paid \(payments[index].amount) (payment \(index + 1)); "
        + (left == 0 ? "the loan is repaid." : "\(left) payment\(left == 1 ? "" : "s") to go."))
  }

  // MARK: reschedule

  func reschedule(_ words: [String]) throws {
    guard words.count == 3 else { throw REPLError("usage: reschedule LOAN N WHEN") }
    var (loan, payments, index) = try payment(
      Array(words.prefix(2)), usage: "reschedule LOAN N WHEN")
    let when = try LoanTerms.firstDue(words[2], now: console.now)
    if index > 0, let previous = DueDay.date(payments[index - 1].due), when <= previous {
      throw REPLError(
        "payment \(index + 1) must stay after payment \(index), due \(payments[index - 1].due)")
    }
    if let paid = payments[index...].first(where: \.paid) {
      throw REPLError("payment \(paid.number) is paid already; reschedule from a later one")
    }
    try LoanTerms.checkMonthly(loan.paymentFrequency, firstDue: when)
    let store = try session.requireStore()
    let events = try payments.indices.filter { $0 >= index }.map {
      try event(of: &payments, $0, loan: loan, in: store)
    }
    let moved = try PaymentScheduler(store: store).reschedule(
      events, frequency: loan.paymentFrequency, firstDue: when)
    for (offset, scheduled) in moved.enumerated() {
      payments[index + offset].due = scheduled.due
      payments[index + offset].eventIdentifier = scheduled.eventIdentifier
    }
    try recordAfterCalendarChange(payments, loan: loan)
    console.print(
      index + 1 == payments.count
        ? "Moved payment \(index + 1) to \(payments[index].due)."
        : "Moved payments \(index + 1) to \(payments.count), from \(payments[index].due) on.")
    try show(loan, in: store)
  }

  /// Saves payments after the calendar has changed. Should that fail, the calendar is
  /// already changed: say so, and how the app finds its events again.
  private func recordAfterCalendarChange(_ payments: [Payment], loan: Loan) throws {
    do {
      try database.update(payments)
    } catch {
      throw REPLError(
        "the calendar was changed, but the loans database could not record it (\(error)); "
          + "'show \(loan.number)' looks for the payments by title and day")
    }
  }

  // MARK: delete

  func delete(_ words: [String]) throws {
    guard words.count == 1 else { throw REPLError("usage: delete LOAN") }
    let loan = try database.loan(named: words[0])
    session.touch(loan)
    let store = try session.requireStore()
    let payments = try database.payments(of: loan)
    let identifiers = payments.compactMap(\.eventIdentifier)
    let outcomes = try PaymentScheduler(store: store).removeEvents(withIdentifiers: identifiers)
    try database.delete(loan)
    console.print("Deleted loan \(loan.number) to \(loan.contact).")
    for outcome in outcomes {
      let numbers = payments.filter { $0.eventIdentifier == outcome.identifier }.map(\.number)
      let which =
        (numbers.count == 1 ? "payment " : "payments ")
        + Console.list(numbers.map(String.init))
      switch outcome.result {
      case .removed:
        console.print("  Removed the event of \(which).")
      case .wentWithItsSeries:
        console.print("  The event of \(which) went with its repeating event, as expected.")
      case .alreadyGone:
        console.print("  The event of \(which) was no longer in the calendar; nothing to remove.")
      }
    }
  }

  // MARK: calendar

  func chooseCalendar(_ words: [String]) throws {
    guard words.isEmpty else { throw REPLError("usage: calendar") }
    let store = try session.requireStore()
    let chooser = EKCalendarChooser(
      selectionStyle: .single, displayStyle: .writableCalendarsOnly, entityType: .event,
      eventStore: store)
    chooser.selectedCalendars = [try session.calendarForNewLoans(in: store)]
    guard chooser.run(on: console), let calendar = chooser.selectedCalendars.first else {
      console.print("The calendar stays as it was.")
      return
    }
    try database.setChosenCalendarIdentifier(calendar.calendarIdentifier)
    console.print("New loans' payments will go in \"\(calendar.title)\".")
  }
}
