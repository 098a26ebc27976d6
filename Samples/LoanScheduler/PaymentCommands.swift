import Foundation
import OpenEventKit
import OpenEventKitUI
import REPLKit

/// The commands on one payment: `payment`, `edit`, `delete-payment`, `pay`, `reschedule`.
extension LoanCommands {
  /// The loan and payment `LOAN N` names, with all the loan's payments.
  private func payment(_ which: PaymentNumber) throws -> (Loan, [Payment], Int) {
    let loan = try database.loan(named: which.loan)
    let payments = try database.payments(of: loan)
    guard let number = Int(which.n), number >= 1, number <= payments.count else {
      throw LoanError(
        "loan \(loan.number) has payments 1 to \(payments.count), not '\(which.n)'")
    }
    return (loan, payments, number - 1)
  }

  /// The event of payment `index`, recovering and recording it when needed; an error when
  /// the calendar has none. `found` is what `PaymentFinder.events(for:)` found for all the
  /// payments (one event is one payment's only), fetched here when not given.
  private func event(
    of payments: inout [Payment], _ index: Int, loan: Loan, in store: EKEventStore,
    found: [EKEvent?]? = nil
  ) throws -> EKEvent {
    let read = payments[index]
    let found = found ?? PaymentFinder(store: store, loan: loan).events(for: payments)
    let (event, note) = try findEvent(
      of: &payments[index], loan: loan, in: store, found: found[index])
    if let note { console.print(note) }
    guard let event else {
      throw LoanError(
        "payment \(index + 1) of loan \(loan.number) is not in the calendar"
          + (payments[index].eventIdentifier == nil ? " (it was taken off with this app)" : ""))
    }
    try database.update([payments[index]], readAs: [read])
    return event
  }

  // MARK: payment, edit

  func showPayment(_ which: PaymentNumber) throws {
    var (loan, payments, index) = try payment(which)
    let store = try store()
    // Reads only, but may record a recovered identifier, which changes how the payment is
    // found: taken as the app's own (StoreChanges.swift), not told at the next notice.
    defer { noteOwnChange(loan, numbered: (index + 1)...(index + 1)) }
    let event = try event(of: &payments, index, loan: loan, in: store)
    EKEventViewController(event: event).show(on: console)
  }

  func edit(_ which: PaymentNumber) throws {
    var (loan, payments, index) = try payment(which)
    let store = try store()
    // Taken as the app's own once written (StoreChanges.swift): what the edit wrote, nothing
    // when cancelled; another app's change meanwhile to any other payment is told.
    var written: ClosedRange<Int>?
    defer { if let written { noteOwnChange(loan, numbered: written) } }
    let event = try event(of: &payments, index, loan: loan, in: store)
    // The payments from this one on whose events are there (a deletion may take them away),
    // and the later ones on this event's series (a split may move them to a new series).
    let found = PaymentFinder(store: store, loan: loan).events(for: payments)
    let onCalendar = payments.indices.filter { $0 >= index && found[$0] != nil }
    let sameSeries = onCalendar.filter {
      $0 > index && payments[$0].eventIdentifier == event.eventIdentifier
    }
    let editor = EKEventEditViewController(eventStore: store, event: event)
    switch editor.run(on: console) {
    case .canceled:
      console.print("Nothing changed.")
    case .deleted:  // this one, or it and the later ones: the span is the editor's
      written = (index + 1)...payments.count
      try recordRemovals(of: &payments, among: onCalendar, loan: loan, in: store)
    case .saved:
      guard let edited = editor.event else { return }
      // This payment; for future events, the later payments of its series too.
      let future = !edited.isDetached && !sameSeries.isEmpty
      written = (index + 1)...(future ? payments.count : index + 1)
      try record(
        edited, asPayment: index, later: sameSeries, of: &payments, loan: loan, in: store)
    }
  }

  /// Records what an edit did. The edited occurrence may have a new identifier (detached with
  /// "this event", or the start of a new series with "future events") and a new day. Saved for
  /// future events, the `later` payments of the series are its next occurrences, in order,
  /// whatever their days now: a split gave them the new series' identifier, and a whole series
  /// moved may put one on another's old day, so a lookup by day would find the wrong one.
  /// Those the series no longer reaches (the edit ended it, or stopped it repeating) are off
  /// the calendar by the app's own doing, and recorded as taken off.
  private func record(
    _ edited: EKEvent, asPayment index: Int, later: [Int], of payments: inout [Payment],
    loan: Loan, in store: EKEventStore
  ) throws {
    let read = payments
    let start: Date = edited.startDate
    payments[index].eventIdentifier = edited.eventIdentifier
    payments[index].due = DueDay.day(start)
    var ended: [Int]
    if edited.hasRecurrenceRules, !edited.isDetached {  // saved for future events
      let next = PaymentOccurrences(store: store).occurrences(
        of: edited.eventIdentifier, in: nil, from: DueDay.nextDay(start), count: later.count)
      for (position, occurrence) in zip(later, next) {
        payments[position].eventIdentifier = occurrence.eventIdentifier
        payments[position].due = DueDay.day(occurrence.startDate)
      }
      ended = Array(later.dropFirst(next.count))
    } else if edited.isDetached {  // this event only: the series keeps the later ones (another
      // app's removal of one meanwhile is that app's, told by the notice)
      ended = []
    } else {  // future events, no longer repeating: the later ones went with the series
      let found = PaymentFinder(store: store, loan: loan).events(for: payments)
      ended = later.filter { found[$0] == nil }
    }
    for position in ended { payments[position].eventIdentifier = nil }
    try recordAfterCalendarChange(payments, readAs: read, loan: loan)
    console.print("Recorded payment \(index + 1)'s event: \(edited.eventIdentifier ?? "").")
    if !ended.isEmpty {
      let one = ended.count == 1
      console.print(
        Self.payments(ended.map { $0 + 1 }, capitalized: true)
          + " \(one ? "is" : "are") no longer on the calendar: the edit ended the repeating "
          + "event before \(one ? "it" : "them"). The loan keeps \(one ? "it" : "them").")
    }
    let expected = loan.paymentFrequency.recurrence
    if let rule = edited.recurrenceRules?.first, !edited.isDetached,
      rule.frequency != expected.frequency || rule.interval != expected.interval
    {
      console.print(
        "The repeat rule is no longer the loan's \(loan.frequency): the later payments' days "
          + "now follow the calendar, and 'show \(loan.number)' says which are where.")
    }
  }

  // MARK: delete-payment

  /// `delete-payment LOAN N [--future]`: takes payment N's event off the calendar, and with
  /// `--future` the later payments' events too. An occurrence of the loan's repeating event
  /// is removed with `.thisEvent` (an exception date in its series) or, for the later ones
  /// too, `.futureEvents` (the series ends before it); an event of its own is removed alone.
  /// The loan keeps the payments, recorded as taken off the calendar.
  func deletePayment(_ which: PaymentNumber, future: Bool) throws {
    var (loan, payments, index) = try payment(which)
    let store = try store()
    defer {  // payment N, or N and those after: StoreChanges.swift
      noteOwnChange(loan, numbered: (index + 1)...(future ? payments.count : index + 1))
    }
    let targets = future ? Array(payments.indices.suffix(from: index)) : [index]
    let found = PaymentFinder(store: store, loan: loan).events(for: payments)
    var events: [Int: EKEvent] = [:]
    for target in targets where payments[target].eventIdentifier != nil {
      let (event, note) = try findEvent(
        of: &payments[target], loan: loan, in: store, found: found[target])
      if let note { console.print(note) }
      events[target] = event
    }
    guard !events.isEmpty else {
      let which = "\(Self.payments(targets.map { $0 + 1 })) of loan \(loan.number)"
      let allTakenOff = targets.allSatisfy { payments[$0].eventIdentifier == nil }
      throw LoanError(
        allTakenOff
          ? "\(which) \(targets.count == 1 ? "was" : "were") taken off the calendar already"
          : "\(which) \(targets.count == 1 ? "is" : "are") not in the calendar")
    }
    do {
      let removing = targets.compactMap { events[$0] }
      try PaymentRemoval(store: store).remove(
        future ? PaymentRemoval.oncePerSeries(removing) : removing, laterOnesToo: future)
    } catch {
      // What was removed before the failure is recorded all the same.
      try? recordRemovals(of: &payments, among: Array(events.keys).sorted(), loan: loan, in: store)
      throw error
    }
    try recordRemovals(of: &payments, among: Array(events.keys).sorted(), loan: loan, in: store)
  }

  /// After the app took events off the calendar (with `delete-payment` or the editor): the
  /// payments among `candidates` (positions whose events were there before) whose events are
  /// gone are recorded as taken off (no identifier), so that they are neither looked for nor
  /// reported as removed by another app.
  private func recordRemovals(
    of payments: inout [Payment], among candidates: [Int], loan: Loan, in store: EKEventStore
  ) throws {
    let found = PaymentFinder(store: store, loan: loan).events(for: payments)
    let gone = candidates.filter { payments[$0].eventIdentifier != nil && found[$0] == nil }
    guard !gone.isEmpty else { return }
    let read = payments
    for position in gone { payments[position].eventIdentifier = nil }
    try recordAfterCalendarChange(payments, readAs: read, loan: loan)
    console.print(
      "Took \(Self.payments(gone.map { $0 + 1 })) off the calendar. The loan keeps "
        + (gone.count == 1 ? "it" : "them") + "; 'delete' removes the loan.")
  }

  // MARK: pay

  func pay(_ which: PaymentNumber) throws {
    var (loan, payments, index) = try payment(which)
    guard !payments[index].paid else {
      console.print("Payment \(index + 1) of loan \(loan.number) was paid already.")
      return
    }
    let read = payments[index]
    payments[index].paid = true
    try database.update([payments[index]], readAs: [read])
    let left = payments.filter { !$0.paid }.count
    console.print(
      "\(loan.contact) paid \(payments[index].amount) (payment \(index + 1)); "
        + (left == 0 ? "the loan is repaid." : "\(left) payment\(left == 1 ? "" : "s") to go."))
  }

  // MARK: reschedule

  func reschedule(_ which: PaymentNumber, to day: String) throws {
    var (loan, payments, index) = try payment(which)
    let when = try LoanTerms.firstDue(day, now: console.now, as: "a day")
    if index > 0, let previous = DueDay.date(payments[index - 1].due), when <= previous {
      throw LoanError(
        "payment \(index + 1) must stay after payment \(index), due \(payments[index - 1].due)")
    }
    // "reschedule from a later one", when there is one.
    let hint = { (number: Int) in number < payments.count ? "; reschedule from a later one" : "" }
    if let paid = payments[index...].first(where: \.paid) {
      throw LoanError("payment \(paid.number) is paid already" + hint(paid.number))
    }
    if let removed = payments[index...].first(where: { $0.eventIdentifier == nil }) {
      throw LoanError(
        "payment \(removed.number) was taken off the calendar" + hint(removed.number))
    }
    try LoanTerms.checkMonthly(loan.paymentFrequency, firstDue: when)
    let store = try store()
    defer { noteOwnChange(loan, numbered: (index + 1)...payments.count) }  // StoreChanges.swift
    let found = PaymentFinder(store: store, loan: loan).events(for: payments)
    let events = try payments.indices.filter { $0 >= index }.map {
      try event(of: &payments, $0, loan: loan, in: store, found: found)
    }
    let moved = try PaymentBatch(store: store).reschedule(
      events, frequency: loan.paymentFrequency, firstDue: when)
    let read = payments
    for (offset, scheduled) in moved.enumerated() {
      payments[index + offset].due = scheduled.due
      payments[index + offset].eventIdentifier = scheduled.eventIdentifier
    }
    try recordAfterCalendarChange(payments, readAs: read, loan: loan)
    console.print(
      index + 1 == payments.count
        ? "Moved payment \(index + 1) to \(payments[index].due)."
        : "Moved payments \(index + 1) to \(payments.count), from \(payments[index].due) on.")
    try show(loan, in: store)
  }
}
