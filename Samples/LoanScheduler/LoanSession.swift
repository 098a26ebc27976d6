import Foundation
import OpenEventKit
import OpenEventKitUI
import REPLKit

/// The state of one run of the app: its database, and the calendar store once the person has
/// given access.
final class LoanSession: @unchecked Sendable {
  let console: Console
  let database: LoanDatabase
  private(set) var store: EKEventStore?
  private var watcher: CalendarWatcher?

  init(console: Console, database: LoanDatabase) {
    self.console = console
    self.database = database
  }

  // MARK: Asking for access

  /// The calendar store, asking for full access to events the first time a command needs
  /// it, not at launch: the person sees what the app is doing when asked. A denied or
  /// restricted access throws a message that says how to change it.
  func requireStore() throws -> EKEventStore {
    if let store { return store }
    let store = EKEventStore()
    try CalendarAccess.requireFullAccess(to: .event, store: store, console: console)
    self.store = store
    watcher = CalendarWatcher(store: store)
    _ = watcher?.settle(snapshot(in: store), touchedLoans: [])
    return store
  }

  // MARK: Calendars

  /// The calendar for new loans' payments: the one chosen with `calendar`, else the
  /// default calendar for new events.
  func calendarForNewLoans(in store: EKEventStore) throws -> EKCalendar {
    let chosen = try database.chosenCalendarIdentifier
    if let chosen, let calendar = store.calendar(withIdentifier: chosen),
      calendar.allowsContentModifications
    {
      return calendar
    }
    guard let calendar = store.defaultCalendarForNewEvents else {
      throw REPLError("there is no calendar to put payments in; 'calendar' chooses one")
    }
    if chosen != nil {
      console.print(
        "The calendar chosen for loans is gone or read-only; using \"\(calendar.title)\".")
    }
    return calendar
  }

  // MARK: Noticing other apps' changes

  /// Says which payments changed in the calendar since the app last looked; run before each
  /// prompt and before each command.
  func tellOfCalendarChanges() {
    guard let store, let watcher else { return }
    for change in watcher.changes(current: { snapshot(in: store) }) {
      console.print("Calendar: \(change)")
    }
  }

  /// The loans the running command works on: their calendar changes are its own.
  private var touchedLoans: Set<Int64> = []

  /// Marks a loan as one the running command changes (or records identifiers for).
  func touch(_ loan: Loan) { touchedLoans.insert(loan.number) }

  /// After a command: records what the app sees, so that the command's own changes are not
  /// reported, and tells what other apps changed meanwhile in the loans it did not touch.
  func settleCalendar() {
    defer { touchedLoans = [] }
    guard let store, let watcher else { return }
    for change in watcher.settle(snapshot(in: store), touchedLoans: touchedLoans) {
      console.print("Calendar: \(change)")
    }
  }

  private func snapshot(in store: EKEventStore) -> CalendarWatcher.Snapshot {
    let finder = PaymentFinder(store: store)
    var snapshot: CalendarWatcher.Snapshot = [:]
    for loan in (try? database.loans()) ?? [] {
      let payments = (try? database.payments(of: loan)) ?? []
      for (payment, whereabouts) in zip(payments, finder.whereabouts(of: payments)) {
        snapshot[CalendarWatcher.Key(loan: loan.number, payment: payment.number)] = (
          "\(loan.contact)'s payment \(payment.number) of loan \(loan.number) (due \(payment.due))",
          whereabouts
        )
      }
    }
    return snapshot
  }
}
