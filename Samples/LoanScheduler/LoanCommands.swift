import Foundation
import OpenEventKit
import OpenEventKitApp
import OpenEventKitUI
import REPLKit

/// The app's commands, over the kit's session. Each reads its arguments (the REPL has checked
/// their number against the synopsis), checks them all before changing anything, and reports
/// a problem by throwing, which the REPL prints. The commands that change the calendar or
/// record identifiers mark their loan's payments as their own in ``changes``, so that what
/// they do is not told as another app's doing.
struct LoanCommands {
  let session: AppSession
  let database: LoanDatabase
  /// Access to the calendar, checked at every command that needs it (CalendarAccess.swift).
  let access: EventAccess
  /// Where each payment's event is, as the app last saw it; other apps' changes are told at
  /// the next prompt (StoreChanges.swift).
  let changes: StoreChanges

  init(session: AppSession) {
    let database = LoanDatabase(session.database)
    self.session = session
    self.database = database
    access = EventAccess(console: session.console)
    changes = StoreChanges(session: session, database: database)
    changes.sayFirst = { [access] in access.tellIfAccessChanged() }
    // A run stopped half way through making or deleting a loan is repaired at the start,
    // through the app's own access check, when access is already full (CrashSafeLoans.swift).
    session.storeForRepair = { [self] _ in try store() }
  }

  var console: Console { session.console }

  /// The calendar new loans' payments go in (the kit's `calendar` command chooses it).
  var calendars: CalendarChoice {
    CalendarChoice(
      session: session, for: .event, purpose: "loans", newItems: "New loans' payments",
      store: { [self] in try store() })
  }

  /// The calendar store, asking for access the first time; refusing when the app may not use
  /// the calendar (now, or any more).
  func store() throws -> EKEventStore {
    let store = try access.store()  // CalendarAccess.swift: the switch, asking at need
    // CrashSafeLoans.swift; before the first look, so that what it removes is no news.
    session.repairUnfinishedWork(of: .event, in: store)
    changes.start(watching: store)  // StoreChanges.swift: once
    changes.tellWhatChanged()  // a change whose notice has not come yet: told before any write
    return store
  }

  /// Takes payments of a loan (all, or those `numbered`) as the person sees them now, once a
  /// command wrote them: their calendar changes are not told as news (StoreChanges.swift).
  /// Only those the command wrote: another app's change to any other is news.
  func noteOwnChange(_ loan: Loan, numbered: ClosedRange<Int>? = nil) {
    changes.noteOwnChange(
      (numbered ?? 1...max(loan.paymentCount, 1)).map {
        PaymentKey(loan: loan.number, payment: $0)
      })
  }

  var all: [REPLCommand] {
    let loans: @Sendable ([String]) -> [String] = { [database] words in
      words.isEmpty ? ((try? database.loans()) ?? []).map { "\($0.number)" } : []
    }
    // The payments' events: those whose identifiers the loans recorded, and the occurrences
    // of their series that another app changed on their own (detached, with identifiers of
    // their own, which `show` records when it next looks).
    let isPayment: @Sendable (EKEventStore) throws -> (EKEvent) -> Bool = { [database] store in
      let recorded = try database.recordedIdentifiers()
      let series = Set(
        recorded.compactMap { store.event(withIdentifier: $0) }
          .filter { $0.hasRecurrenceRules && !$0.isDetached }
          .map(\.calendarItemExternalIdentifier))
      return {
        recorded.contains($0.eventIdentifier)
          || ($0.isDetached && series.contains($0.calendarItemExternalIdentifier))
      }
    }
    return [
      REPLCommand(
        "new", NewLoan.self,
        help: "Lends money and puts every payment on the calendar (new Claire 1320.38 0 3 "
          + "daily 2025-03-02); without terms, asks for each."
      ) { try newLoan($0.terms, singleEvents: $0.singleEvents) },
      REPLCommand("loans", help: "Lists the loans.") { try listLoans() },
      REPLCommand(
        "show", LoanNumber.self, help: "Shows a loan's schedule: days, amounts, paid, events.",
        complete: loans
      ) { try show($0.loan) },
      REPLCommand(
        "payment", PaymentNumber.self, help: "Shows payment N's event as the calendar has it.",
        complete: loans
      ) { try showPayment($0) },
      REPLCommand(
        "edit", PaymentNumber.self,
        help: "Edits payment N's event (asks whether for later payments too).", complete: loans
      ) { try edit($0) },
      REPLCommand(
        "delete-payment", DeletePayment.self,
        help: "Takes payment N's event off the calendar (with --future, the later ones too).",
        complete: loans
      ) { try deletePayment($0.payment, future: $0.future) },
      REPLCommand(
        "pay", PaymentNumber.self, help: "Marks payment N as paid.", complete: loans
      ) { try pay($0) },
      REPLCommand(
        "reschedule", Reschedule.self,
        help: "Moves payment N to the day WHEN, and the later payments with it.",
        complete: loans
      ) { try reschedule($0.payment, to: $0.when) },
      REPLCommand(
        "delete", LoanNumber.self,
        help: "Deletes a loan and takes its payments off the calendar.", complete: loans
      ) { try delete($0.loan) },
      calendars.command,
      CalendarViews.agenda(
        session: session, items: "payments", store: { [self] in try store() },
        include: isPayment),
      CalendarViews.month(
        session: session, items: "payments", store: { [self] in try store() },
        include: isPayment),
    ]
  }

  // MARK: loans, show

  func listLoans() throws {
    let loans = try database.loans()
    guard !loans.isEmpty else {
      console.print("No loans yet: 'new' makes one.")
      return
    }
    for loan in loans {
      let paid = try database.payments(of: loan).filter(\.paid).count
      console.print(
        "  \(loan.number)  \(loan.contact) owes \(loan.principal) at \(loan.annualPercent)% a "
          + "year: \(loan.paymentFrequency.payments(loan.paymentCount)) from \(loan.firstDue), "
          + "\(paid) paid")
    }
  }

  func show(_ name: String) throws {
    let loan = try database.loan(named: name)
    let store = try store()
    defer { noteOwnChange(loan) }  // it may record recovered identifiers: StoreChanges.swift
    try show(loan, in: store)
  }

  /// The schedule of a loan, each payment beside its event as the calendar has it now. A
  /// payment whose recorded identifier no longer finds its event is searched for by title
  /// and day, and what is found is recorded.
  func show(_ loan: Loan, in store: EKEventStore) throws {
    var loan = loan
    if let recorded = loan.eventStoreIdentifier, recorded != store.eventStoreIdentifier {
      // Identifiers belong to one database: these may find nothing here, and recovery by
      // title and day, in any calendar, does the work. From now on the loan belongs to this
      // database; its calendar's identifier, of the other one, is forgotten.
      console.print(
        "Loan \(loan.number) was scheduled in another calendar database; its payments are "
          + "looked for here by title and day.")
      (loan.eventStoreIdentifier, loan.calendarIdentifier) = (store.eventStoreIdentifier, nil)
      try database.update(loan)
    }
    var payments = try database.payments(of: loan)
    let read = payments
    var notes: [String] = []
    var rows: [[String]] = []
    let found = PaymentFinder(store: store, loan: loan).events(for: payments)
    for index in payments.indices {
      let (event, note) = try findEvent(
        of: &payments[index], loan: loan, in: store, found: found[index])
      if let note { notes.append(note) }
      let payment = payments[index]
      let kind =
        event.map { $0.isDetached ? " (detached)" : $0.hasRecurrenceRules ? " (repeating)" : "" }
        ?? ""
      let placement =
        event.map { $0.eventIdentifier + kind }
        ?? (payment.eventIdentifier == nil ? "taken off the calendar" : "not in the calendar")
      rows.append([
        "\(payment.number)", payment.due, payment.amount.description,
        payment.paid ? "yes" : "no", placement,
      ])
    }
    try database.update(payments, readAs: read)
    console.table(rows, header: ["#", "due", "amount", "paid", "event"])
    for note in notes { console.print(note) }
  }

  /// The event of a payment: from its recorded identifier (an identifier of its own is
  /// recorded when the occurrence was detached meanwhile), else recovered by title and day;
  /// with a note when it was moved, recovered or lost. A payment this app took off the
  /// calendar has no identifier, and is not looked for.
  func findEvent(
    of payment: inout Payment, loan: Loan, in store: EKEventStore, found: EKEvent?
  ) throws -> (EKEvent?, String?) {
    guard payment.eventIdentifier != nil else { return (nil, nil) }
    let title = PaymentSeries.title(contact: loan.contact, amount: payment.amount)
    let result = try PaymentFinder(store: store, loan: loan).find(
      payment, title: title, found: found, recorded: database.recordedIdentifiers)
    guard case (let event, let byIdentifier)? = result else {
      return (
        nil,
        "Payment \(payment.number): not in the calendar, by its identifier or by title and day "
          + "(removed or changed in another app?)."
      )
    }
    var notes: [String] = []
    if !byIdentifier {
      notes.append(
        "not found by its recorded identifier; found \"\(title)\" due on \(payment.due) and "
          + "recorded its identifier")
    } else if event.eventIdentifier != payment.eventIdentifier {
      notes.append("it was changed on its own in the calendar; its identifier is recorded")
    }
    payment.eventIdentifier = event.eventIdentifier
    let day = DueDay.day(event.startDate)
    if day != payment.due { notes.append("its event is on \(day), not on its due day") }
    let note = notes.isEmpty ? nil : "Payment \(payment.number): " + notes.joined(separator: "; ")
    return (event, note.map { $0 + "." })
  }

  /// Saves the payments that differ from `read` (as the command read them) after the
  /// calendar has changed. Should that fail, the calendar is already changed: say so, and how
  /// the app finds its events again.
  func recordAfterCalendarChange(_ payments: [Payment], readAs read: [Payment], loan: Loan)
    throws
  {
    do {
      try database.update(payments, readAs: read)
    } catch {
      throw LoanError(
        "the calendar was changed, but the loans database could not record it (\(error)); "
          + "'show \(loan.number)' looks for the payments by title and day")
    }
  }

  // MARK: delete

  /// Deletes a loan, then its payments' events (each distinct one once, span-correctly); a
  /// run stopped between the two has the rest removed at the next start
  /// (CrashSafeLoans.swift). Payments whose events were already gone are said, not taken for
  /// removed.
  func delete(_ name: String) throws {
    let loan = try database.loan(named: name)
    let store = try store()
    defer { noteOwnChange(loan) }  // once written: StoreChanges.swift
    let payments = try database.payments(of: loan)
    // As `show` finds them: by the recorded identifier, else by title and due day (a part
    // another app split off has a new identifier, and is the loan's all the same).
    let finder = PaymentFinder(store: store, loan: loan)
    let recorded = try database.recordedIdentifiers()  // read once, not per payment recovered
    let found = zip(payments, finder.events(for: payments)).map { payment, event in
      let title = PaymentSeries.title(contact: loan.contact, amount: payment.amount)
      return finder.find(payment, title: title, found: event, recorded: { recorded })?.event
    }
    let onCalendar = zip(payments, found).compactMap { payment, event in
      event.map { (number: payment.number, event: $0, identifier: $0.eventIdentifier as String) }
    }
    let outcomes = try deleteLoanRecorded(loan, events: onCalendar.map(\.event), in: store)
    console.print("Deleted loan \(loan.number) to \(loan.contact).")
    // A line for each way it went: "the event of payments 1 and 2" (one repeating event),
    // "the events of payments 3 to 12" (one each).
    let events = { (identifiers: Set<String>) in
      let numbers = onCalendar.filter { identifiers.contains($0.identifier) }.map(\.number)
      return (identifiers.count == 1 ? "event of " : "events of ") + Self.payments(numbers)
    }
    let ways = Dictionary(grouping: outcomes, by: \.result).mapValues { Set($0.map(\.identifier)) }
    if let removed = ways[.removed] { console.print("  Removed the \(events(removed)).") }
    if let withSeries = ways[.wentWithItsSeries] {
      let one = withSeries.count == 1
      console.print(
        "  The \(events(withSeries)) went with \(one ? "its" : "their") repeating "
          + "event\(one ? "" : "s"), as expected.")
    }
    // Gone before the deletion began: found by nothing, or by nothing in its turn.
    let gone =
      zip(payments, found).filter { $0.0.eventIdentifier != nil && $0.1 == nil }.map(\.0.number)
      + onCalendar.filter { ways[.alreadyGone]?.contains($0.identifier) ?? false }.map(\.number)
    if !gone.isEmpty {
      let one = gone.count == 1
      console.print(
        "  The event\(one ? "" : "s") of \(Self.payments(gone)) \(one ? "was" : "were") no "
          + "longer in the calendar; nothing to remove.")
    }
  }

  /// "payment 2", "payments 1, 3 and 4", "payments 1 and 5 to 9": runs of three or more
  /// said as a range, so that a long loan's list stays short.
  static func payments(_ numbers: [Int], capitalized: Bool = false) -> String {
    var parts: [String] = []
    var run: [Int] = []
    for number in numbers.sorted() + [Int.max] {
      if let last = run.last, number == last + 1 {
        run.append(number)
        continue
      }
      if run.count >= 3 {
        parts.append("\(run[0]) to \(run[run.count - 1])")
      } else {
        parts += run.map(String.init)
      }
      run = [number]
    }
    let noun = numbers.count == 1 ? "payment " : "payments "
    return (capitalized ? noun.capitalized : noun) + Console.list(parts)
  }
}
