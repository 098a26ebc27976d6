import Foundation
import GRDB
import OpenEventKit
import TestSupport
import Testing

/// loan-scheduler run as a person runs it, with piped input, in a temporary home; each test
/// checks both the app's own database and the shared calendar store.
@Suite struct LoanSchedulerTests {
  let home: SampleHome

  init() throws { home = try SampleHome() }

  static let now = ["--now", "2025-03-01T10:00"]
  static let app = "org.openeventkit.loan-scheduler"

  /// A session of loan-scheduler with `input`.
  func session(_ input: String) throws -> (output: String, status: Int32) {
    try SampleRun.session("loan-scheduler", input, arguments: Self.now, home: home)
  }

  struct PaymentRow: FetchableRecord, Decodable, Equatable {
    var number: Int
    var amountCents: Int
    var due: String
    var paid: Bool
    var eventIdentifier: String?
  }

  func payments(loan: Int = 1) throws -> [PaymentRow] {
    try home.database(app: "loan-scheduler", file: "loans.sqlite").read { db in
      try PaymentRow.fetchAll(
        db, sql: "SELECT * FROM payment WHERE loanId = ? ORDER BY number", arguments: [loan])
    }
  }

  func loanCount() throws -> Int {
    try home.database(app: "loan-scheduler", file: "loans.sqlite").read { db in
      try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM loan") ?? 0
    }
  }

  /// The occurrence of series `series` on `day` ("2025-03-04"), as another app fetches it.
  func occurrence(of series: String?, on day: String, in store: EKEventStore) throws -> EKEvent {
    let start = Self.day(day)
    let predicate = store.predicateForEvents(
      withStart: start, end: start.addingTimeInterval(86_400), calendars: nil)
    return try #require(store.events(matching: predicate).first { $0.eventIdentifier == series })
  }

  /// The events of March and April 2025, in start order.
  func events(_ store: EKEventStore) -> [EKEvent] {
    store.events(
      matching: store.predicateForEvents(
        withStart: Self.day("2025-03-01"), end: Self.day("2025-05-01"), calendars: nil)
    ).sorted { $0.compareStartDate(with: $1) == .orderedAscending }
  }

  /// Sends empty lines to `app` until it has told each of `texts`, for up to ten seconds. The
  /// app tells what other apps changed before each prompt, once `EKEventStoreChanged` has
  /// reached it (a tenth of a second or so after the commit, by its own watcher); a piped app
  /// has no idle prompt that would tell it sooner.
  func waitUntilTold(_ texts: [String], by app: SampleRun) throws {
    let deadline = Date().addingTimeInterval(10)
    while let missing = texts.first(where: { !app.output.contains($0) }) {
      guard Date() < deadline else { throw NeverTold(text: missing) }
      // One empty line at a time, each answered (its prompt echoed) before the next.
      let lines = app.output.count { $0 == "\n" }
      app.send("\n")
      try app.wait(for: "\n", count: lines + 1, timeout: 10)
    }
  }

  /// What ``waitUntilTold(_:by:)`` waited ten seconds for and never saw.
  struct NeverTold: Error, CustomStringConvertible {
    let text: String
    var description: String { "never told within 10 s of prompts: \(text)" }
  }

  /// How many times `text` is in `output`.
  static func count(_ text: String, in output: String) -> Int {
    output.components(separatedBy: text).count - 1
  }

  /// Midnight of a day on this process's clock, where all-day events' dates are.
  static func day(_ text: String) -> Date { dayFormatter().date(from: text)! }

  static func dayText(_ date: Date) -> String { dayFormatter().string(from: date) }

  static func dayFormatter() -> DateFormatter {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = .current
    formatter.dateFormat = "yyyy-MM-dd"
    return formatter
  }

  // MARK: Scheduling

  @Test func anUnevenLoanIsOneSeriesAndADetachedLastPayment() throws {
    let run = try session("new Claire 1320.38 0 3 daily 2025-03-02\n1\n")
    #expect(run.status == 0, "\(run.output)")
    #expect(run.output.contains("Loan 1: Claire owes $1,320.38, 3 daily payments from 2025-03-02."))

    let rows = try payments()
    #expect(rows.map(\.amountCents) == [44013, 44013, 44012])
    #expect(rows.map(\.due) == ["2025-03-02", "2025-03-03", "2025-03-04"])
    let series = try #require(rows[0].eventIdentifier)
    #expect(rows[1].eventIdentifier == series)
    let detached = try #require(rows[2].eventIdentifier)
    #expect(detached != series)

    let store = try home.store()
    let found = events(store)
    #expect(
      found.map(\.title) == ["Claire owes $440.13", "Claire owes $440.13", "Claire owes $440.12"])
    #expect(found.map { Self.dayText($0.startDate) } == rows.map(\.due))
    #expect(found.map(\.eventIdentifier) == [series, series, detached])
    #expect(found.map(\.isDetached) == [false, false, true])
    #expect(found.allSatisfy { $0.isAllDay && $0.alarms?.map(\.relativeOffset) == [0] })
    let rule = try #require(store.event(withIdentifier: series)?.recurrenceRules?.first)
    #expect(rule.frequency == .daily && rule.interval == 1)
    #expect(rule.recurrenceEnd?.occurrenceCount == 3)
  }

  /// Another app made the loan's repeating event a single one (no rule): it is the first
  /// payment's event only. The later payments, sharing its identifier, are not in the
  /// calendar; removing one must not remove the first payment's event.
  @Test func aSeriesAnotherAppMadeSingleIsTheFirstPaymentsOnly() throws {
    #expect(try session("new Claire 300 0 3 daily 2025-03-02\n1\n").status == 0)
    let rows = try payments()
    let store = try home.store()
    let identifier = try #require(rows[0].eventIdentifier)
    let series = try #require(store.event(withIdentifier: identifier))
    series.recurrenceRules = nil
    try store.save(series, span: .futureEvents, commit: true)
    let run = try session("show 1\ndelete-payment Claire 3\n")
    #expect(
      run.output.contains("Error: payment 3 of loan 1 is not in the calendar"), "\(run.output)")
    let left = try home.store()
    #expect(left.event(withIdentifier: series.eventIdentifier)?.title == "Claire owes $100.00")
    #expect(try payments()[0].eventIdentifier == series.eventIdentifier)
  }

  /// Claire's daily loan of 3, whose series another app made single (no rule) and moved to
  /// `day`; the series' identifier.
  func claireMadeSingleAndMoved(to day: String) throws -> String {
    #expect(try session("new Claire 300 0 3 daily 2025-03-02\n1\n").status == 0)
    let store = try home.store()
    let identifier = try #require(try payments()[0].eventIdentifier)
    let series = try #require(store.event(withIdentifier: identifier))
    series.recurrenceRules = nil
    try store.save(series, span: .futureEvents, commit: true)
    series.startDate = Self.day(day)
    series.endDate = series.startDate.addingTimeInterval(86_400)
    try store.save(series, span: .thisEvent, commit: true)
    return identifier
  }

  /// The same, then moved a day: still the first payment's event, told as moved.
  @Test func aSeriesAnotherAppMadeSingleAndMovedIsTheFirstPayments() throws {
    let identifier = try claireMadeSingleAndMoved(to: "2025-03-05")
    let run = try session("show 1\n")
    #expect(run.status == 0, "\(run.output)")
    #expect(!run.output.contains("Payment 1: not in the calendar"), "\(run.output)")
    #expect(
      run.output.contains("Payment 1: its event is on 2025-03-05, not on its due day"),
      "\(run.output)")
    #expect(try payments()[0].eventIdentifier == identifier)
  }

  /// The same, moved onto payment 3's due day: still the first payment's event only, so that
  /// payment 3 is not in the calendar and deleting it leaves payment 1's event.
  @Test func aSeriesMadeSingleAndMovedOntoALaterPaymentsDayIsTheFirstPaymentsOnly() throws {
    let identifier = try claireMadeSingleAndMoved(to: "2025-03-04")
    let run = try session("show 1\ndelete-payment Claire 3\n")
    #expect(
      run.output.contains("Payment 1: its event is on 2025-03-04, not on its due day"),
      "\(run.output)")
    #expect(
      run.output.contains("Error: payment 3 of loan 1 is not in the calendar"), "\(run.output)")
    #expect(try home.store().event(withIdentifier: identifier)?.title == "Claire owes $100.00")
    #expect(try payments()[0].eventIdentifier == identifier)
  }

  /// A copy of the loan's events in another calendar (an export imported there) is not the
  /// loan's: a payment removed from the loan's own calendar is not recovered from the copy,
  /// and `delete-payment` leaves the copy alone.
  @Test func aCopyInAnotherCalendarIsNotTakenForAPayment() throws {
    #expect(try session("new Claire 300 0 3 daily 2025-03-02\n1\n").status == 0)
    let store = try home.store()
    let identifier = try #require(try payments()[0].eventIdentifier)
    let own = try #require(store.event(withIdentifier: identifier)).calendar!
    _ = try store.importICalendar(
      try store.exportICalendar(calendars: [own]), calendarTitle: "Partner")
    try store.remove(
      try occurrence(of: identifier, on: "2025-03-04", in: store), span: .thisEvent, commit: true)
    let run = try session("show 1\ndelete-payment Claire 3\n")
    #expect(
      run.output.contains("Error: payment 3 of loan 1 is not in the calendar"), "\(run.output)")
    let after = try home.store()
    let partner = try #require(after.calendars(for: .event).first { $0.title == "Partner" })
    let copies = after.events(
      matching: after.predicateForEvents(
        withStart: Self.day("2025-03-02"), end: Self.day("2025-03-05"), calendars: [partner]))
    #expect(
      copies.map { Self.dayText($0.startDate) } == ["2025-03-02", "2025-03-03", "2025-03-04"])
  }

  /// The payments' alarms, as the alarm agent sees them: one at midnight (the home's clock,
  /// Paris) of each payment's day, the detached last payment's included.
  @Test func eachPaymentsAlarmFiresOnItsDay() throws {
    let run = try session("new Claire 1320.38 0 3 daily 2025-03-02\n1\n")
    #expect(run.status == 0, "\(run.output)")
    let alarms = try home.ekctl(["alarms", "--from", "2025-03-01", "--to", "2025-03-08"])
    #expect(alarms.status == 0, "\(alarms.output)")
    let lines = alarms.output.split(separator: "\n").map { $0.components(separatedBy: "  ") }
    #expect(
      lines.map { $0[0] } == ["2025-03-02T00:00:00", "2025-03-03T00:00:00", "2025-03-04T00:00:00"])
    #expect(
      lines.map { $0[1] } == ["Claire owes $440.13", "Claire owes $440.13", "Claire owes $440.12"])
  }

  @Test func interestIsAmortisedInWholeCents() throws {
    // $10,000 at 5% a year over 12 months: 856.07 a month, the last settling the rounding.
    let run = try session("new Dana 10000 5% 12 monthly 2025-03-15\n1\n")
    #expect(run.status == 0, "\(run.output)")
    let rows = try payments()
    #expect(rows.map(\.amountCents) == Array(repeating: 85607, count: 11) + [85612])
    #expect(rows.last?.due == "2026-02-15")
    let rule = try #require(
      try home.store().event(withIdentifier: rows[0].eventIdentifier!)?.recurrenceRules?.first)
    #expect(rule.frequency == .monthly && rule.recurrenceEnd?.occurrenceCount == 12)
  }

  @Test func biweeklyIsWeeklyEveryTwoWeeks() throws {
    let run = try session("new Eve 300 0 3 biweekly 2025-03-03\n1\n")
    #expect(run.status == 0, "\(run.output)")
    #expect(try payments().map(\.due) == ["2025-03-03", "2025-03-17", "2025-03-31"])
    let rule = try #require(
      try home.store().event(withIdentifier: payments()[0].eventIdentifier!)?.recurrenceRules?
        .first)
    #expect(rule.frequency == .weekly && rule.interval == 2)
  }

  @Test func singleEventsGiveEachPaymentItsOwnEvent() throws {
    let run = try session("new Bob 100 0 3 weekly 2025-03-03 --single-events\n1\n")
    #expect(run.status == 0, "\(run.output)")
    #expect(run.output.contains("as one event per payment"))
    let rows = try payments()
    let identifiers = rows.compactMap(\.eventIdentifier)
    #expect(Set(identifiers).count == 3)
    #expect(rows.map(\.amountCents) == [3333, 3333, 3334])
    let found = events(try home.store())
    #expect(found.map(\.eventIdentifier) == identifiers)
    #expect(found.allSatisfy { !$0.hasRecurrenceRules })
    #expect(found.map(\.title) == ["Bob owes $33.33", "Bob owes $33.33", "Bob owes $33.34"])
  }

  @Test func theFormAsksAgainAfterABadAnswer() throws {
    let run = try session(
      "new\n1\nClaire\n-3\n1320.38\n\n3\nsometimes\nfortnightly\n2025-02-30\n2025-03-02\n")
    #expect(run.status == 0, "\(run.output)")
    #expect(run.output.contains("Amount: -3\n'-3' is not an amount"))
    #expect(run.output.contains("'sometimes' is not a frequency"))
    #expect(run.output.contains("'2025-02-30' is not a date"))
    #expect(try payments().map(\.due) == ["2025-03-02", "2025-03-16", "2025-03-30"])
  }

  @Test func everyNDaysIsDailyWithAnInterval() throws {
    let run = try session("new Hal 90 0 3 \"every 3 days\" 2025-03-02\n1\n")
    #expect(run.status == 0, "\(run.output)")
    #expect(try payments().map(\.due) == ["2025-03-02", "2025-03-05", "2025-03-08"])
    let rule = try #require(
      try home.store().event(withIdentifier: payments()[0].eventIdentifier!)?.recurrenceRules?
        .first)
    #expect(rule.frequency == .daily && rule.interval == 3)
  }

  @Test func aLoanLongerThanFourYearsIsFoundWindowByWindow() throws {
    // 120 monthly payments: ten years, found four years at a time.
    let run = try session("new Ida 12000 0 120 monthly 2025-03-02\n1\n")
    #expect(run.status == 0, "\(run.output)")
    let rows = try payments()
    #expect(rows.count == 120)
    #expect(rows.last?.due == "2035-02-02")
    #expect(Set(rows.map(\.eventIdentifier)).count == 1)
  }

  @Test func theChosenCalendarTakesNewLoansUntilItIsGone() throws {
    // A calendar of the person's, made before the app runs (access given there).
    var run = try session("loans\nnew Jo 10 0 1 daily 2025-03-02\n1\n")
    let store = try home.store()
    let loans = EKCalendar(for: .event, eventStore: store)
    loans.title = "Loans"
    loans.source = store.defaultCalendarForNewEvents?.source
    try store.saveCalendar(loans, commit: true)

    run = try session("calendar\nLoans\nnew Kim 10 0 1 daily 2025-03-03\n")
    #expect(run.status == 0, "\(run.output)")
    #expect(run.output.contains("New loans' payments will go in \"Loans\"."))
    let kim = try #require(try payments(loan: 2).first?.eventIdentifier)
    #expect(try home.store().event(withIdentifier: kim)?.calendar.title == "Loans")

    try store.removeCalendar(loans, commit: true)
    run = try session("new Lee 10 0 1 daily 2025-03-04\n")
    #expect(
      run.output.contains("The calendar chosen for loans is gone or read-only; using \"Calendar\".")
    )
    let lee = try #require(try payments(loan: 3).first?.eventIdentifier)
    #expect(try home.store().event(withIdentifier: lee)?.calendar.title == "Calendar")
  }

  @Test func aPaymentShowsAsTheEventView() throws {
    let run = try session("new Claire 1320.38 0 3 daily 2025-03-02\n1\npayment 1 3\n")
    #expect(run.status == 0, "\(run.output)")
    #expect(
      run.output.contains(
        "loans> payment 1 3\nClaire owes $440.12\n  When        Tue 4 Mar 2025, all day\n"))
    #expect(run.output.contains("  Detached    This occurrence was changed on its own\n"))
  }

  // MARK: Deleting

  @Test func deletingALoanLeavesNothingAndNoError() throws {
    let run = try session("new Claire 1320.38 0 3 daily 2025-03-02\n1\ndelete 1\nloans\n")
    #expect(run.status == 0, "\(run.output)")
    #expect(!run.output.contains("error"))
    #expect(
      run.output.contains("The event of payment 3 went with its repeating event, as expected."))
    #expect(events(try home.store()).isEmpty)
    #expect(try loanCount() == 0)
    #expect(run.output.contains("No loans yet"))
  }

  @Test func deletingAfterAnotherAppRemovedTheEventsIsNoError() throws {
    var run = try session("new Bob 100 0 2 weekly 2025-03-03 --single-events\n1\n")
    let rows = try payments()
    let store = try home.store()
    try store.remove(
      try #require(store.event(withIdentifier: rows[0].eventIdentifier!)), span: .thisEvent)
    run = try session("delete Bob\n")
    #expect(run.status == 0, "\(run.output)")
    #expect(
      run.output.contains(
        "The event of payment 1 was no longer in the calendar; nothing to remove."))
    #expect(run.output.contains("Removed the event of payment 2."))
    #expect(events(try home.store()).isEmpty)
  }

  // MARK: One batch

  /// The batch's failure path, as LoanScheduler.md's "Try it" shows it: another process holds
  /// the calendar database longer than a commit waits for it (10 s), so the commit of the new
  /// loan's events fails. None of them is written, no loan is recorded, and the app says so;
  /// `reset()` dropped the staged events, so the same command, once the database is free,
  /// writes its own two events, not four, and the next start has nothing to repair.
  @Test func aBatchWhoseCommitFailsWritesNothingAndIsDropped() throws {
    let first = try session("new Ann 100 0 1 weekly 2025-03-03 --single-events\n1\n")
    #expect(first.status == 0, "\(first.output)")
    let app = try SampleRun(executable: "loan-scheduler", arguments: Self.now, home: home)
    let line = "new Dan 200 0 2 weekly 2025-03-10 --single-events\n"
    try holdingTheCalendarDatabase {
      app.send(line)
      try app.wait(for: "No loan was made")
    }
    #expect(
      app.output.contains(
        "Error: The calendar database refused the change: another process kept it locked for "
          + "over 10 s. No loan was made: none of its payments went on the calendar."),
      "\(app.output)")
    let dan = { (store: EKEventStore) in
      self.events(store).filter { $0.title?.hasPrefix("Dan owes") == true }
    }
    #expect(dan(try home.store()).isEmpty)
    #expect(try loanCount() == 1)
    app.send(line)
    let output = try app.finish().output
    #expect(output.contains("Loan 2: Dan owes $200.00, 2 weekly payments from 2025-03-10."))
    let written = dan(try home.store())
    #expect(written.map { Self.dayText($0.startDate) } == ["2025-03-10", "2025-03-17"])
    #expect(try payments(loan: 2).map(\.eventIdentifier) == written.map(\.eventIdentifier))
    let next = try session("loans\n")
    #expect(!next.output.contains("Repaired"), "\(next.output)")
  }

  /// Runs `body` while another connection holds the calendar database's write lock (an
  /// immediate transaction, rolled back after): a commit meanwhile waits its 10 s and fails.
  func holdingTheCalendarDatabase(_ body: () throws -> Void) throws {
    var configuration = Configuration()
    configuration.busyMode = .timeout(10)
    let database = try DatabaseQueue(
      path: home.calendarDatabase.path, configuration: configuration)
    try database.writeWithoutTransaction { db in
      try db.inTransaction(.immediate) {
        try body()
        return .rollback
      }
    }
  }

  /// A reschedule whose commit fails moves nothing: the series stays whole where it was, the
  /// loan's records keep their days, and the person is told.
  @Test func aRescheduleWhoseCommitFailsMovesNothing() throws {
    let made = try session("new Gil 300 0 3 weekly 2025-03-03\n1\n")
    #expect(made.status == 0, "\(made.output)")
    let before = try payments()
    let app = try SampleRun(executable: "loan-scheduler", arguments: Self.now, home: home)
    try holdingTheCalendarDatabase {
      app.send("reschedule Gil 2 2025-03-12\n")
      try app.wait(for: "No payment was moved.")
    }
    let output = try app.finish().output
    #expect(output.contains("another process kept it locked"), "\(output)")
    #expect(try payments().map(\.due) == before.map(\.due))
    let days = events(try home.store()).filter { $0.title?.hasPrefix("Gil owes") == true }
      .map { Self.dayText($0.startDate) }
    #expect(days == ["2025-03-03", "2025-03-10", "2025-03-17"])
  }

  // MARK: Rescheduling and editing

  @Test func reschedulingFromTheMiddleSplitsTheSeries() throws {
    let run = try session(
      "new Finn 1000 0 4 weekly 2025-03-03\n1\nreschedule Finn 3 2025-03-20\n")
    #expect(run.status == 0, "\(run.output)")
    let rows = try payments()
    #expect(rows.map(\.due) == ["2025-03-03", "2025-03-10", "2025-03-20", "2025-03-27"])
    let original = try #require(rows[0].eventIdentifier)
    let split = try #require(rows[2].eventIdentifier)
    #expect(rows[1].eventIdentifier == original && rows[3].eventIdentifier == split)
    #expect(split != original)
    let store = try home.store()
    #expect(
      store.event(withIdentifier: original)?.recurrenceRules?.first?.recurrenceEnd?.occurrenceCount
        == 2)
    #expect(
      store.event(withIdentifier: split)?.recurrenceRules?.first?.recurrenceEnd?.occurrenceCount
        == 2)
    #expect(events(store).map { Self.dayText($0.startDate) } == rows.map(\.due))
  }

  @Test func reschedulingMovesADetachedLastPaymentWithTheOthers() throws {
    var run = try session(
      "new Claire 1320.38 0 3 daily 2025-03-02\n1\nreschedule 1 2 2025-03-10\n"
        + "reschedule 1 1 2025-03-05\n")
    #expect(run.status == 0, "\(run.output)")
    let rows = try payments()
    #expect(rows.map(\.due) == ["2025-03-05", "2025-03-06", "2025-03-07"])
    let found = events(try home.store())
    #expect(found.map { Self.dayText($0.startDate) } == rows.map(\.due))
    #expect(found.map(\.eventIdentifier) == rows.map(\.eventIdentifier))
    #expect(found.last?.title == "Claire owes $440.12")
    // Two series and a detached occurrence: all removed, no error.
    run = try session("delete 1\n")
    #expect(run.status == 0, "\(run.output)")
    #expect(events(try home.store()).isEmpty)
  }

  @Test func editingOnePaymentDetachesItAndRecordsItsIdentifier() throws {
    // Title, Location, All day, Starts (moved a day), Ends, Repeat, Alarms, Calendar, URL,
    // Notes; save; then the span: this event only.
    let run = try session(
      "new Gus 300 0 3 weekly 2025-03-03\n1\nedit 1 2\n\n\n\n2025-03-11\n\n\n\n\n\n\n\nthis\n")
    #expect(run.status == 0, "\(run.output)")
    let rows = try payments()
    #expect(rows[1].due == "2025-03-11")
    #expect(rows[1].eventIdentifier != rows[0].eventIdentifier)
    #expect(rows[2].eventIdentifier == rows[0].eventIdentifier)
    let moved = try #require(try home.store().event(withIdentifier: rows[1].eventIdentifier!))
    #expect(moved.isDetached && Self.dayText(moved.startDate) == "2025-03-11")
  }

  @Test func editingForFuturePaymentsRecordsTheNewSeries() throws {
    // Payment 2 on: every two weeks instead of weekly; saved for future events.
    let run = try session(
      "new Gus 300 0 3 weekly 2025-03-03\n1\nedit 1 2\n\n\n\n\n\nevery 2 weeks, 2 times\n\n\n\n\n\nfuture\n"
    )
    #expect(run.status == 0, "\(run.output)")
    #expect(run.output.contains("The repeat rule is no longer the loan's weekly"))
    let rows = try payments()
    #expect(rows.map(\.due) == ["2025-03-03", "2025-03-10", "2025-03-24"])
    #expect(rows[1].eventIdentifier != rows[0].eventIdentifier)
    #expect(rows[2].eventIdentifier == rows[1].eventIdentifier)
    #expect(events(try home.store()).map { Self.dayText($0.startDate) } == rows.map(\.due))
    // The split-off series goes with the loan.
    #expect(try session("delete 1\n").status == 0)
    #expect(events(try home.store()).isEmpty)
  }

  @Test func movingTheWholeSeriesRecordsEachLaterPaymentOnItsMovedOccurrence() throws {
    // $33.33, $33.33 and $33.34: the last is an occurrence of its own. Payment 1 moves a week
    // later for future events, onto payment 2's old day, where a lookup by day would take it
    // for payment 2's.
    let run = try session(
      "new Gus 100 0 3 weekly 2025-03-03\n1\nedit 1 1\n\n\n\n2025-03-10\n\n\n\n\n\n\n\nfuture\n")
    #expect(run.status == 0, "\(run.output)")
    var rows = try payments()
    #expect(rows.map(\.due) == ["2025-03-10", "2025-03-17", "2025-03-17"], "\(run.output)")
    #expect(rows[1].eventIdentifier == rows[0].eventIdentifier)
    #expect(rows[2].eventIdentifier != rows[0].eventIdentifier)  // the last, detached
    // Taking payments 2 and 3 off leaves payment 1's event.
    #expect(try session("delete-payment 1 2 --future\n").status == 0)
    rows = try payments()
    #expect(rows.map { $0.eventIdentifier == nil } == [false, true, true])
    let left = events(try home.store())
    #expect(left.map { Self.dayText($0.startDate) } == ["2025-03-10"])
    #expect(left.map(\.eventIdentifier) == [rows[0].eventIdentifier])
  }

  // MARK: Identifiers

  @Test func aLostIdentifierIsRecoveredByTitleAndDay() throws {
    _ = try session("new Bob 100 0 2 weekly 2025-03-03 --single-events\n1\n")
    let before = try payments()
    // Another app re-creates payment 2's event: same title and day, a new identifier.
    let store = try home.store()
    let old = try #require(store.event(withIdentifier: before[1].eventIdentifier!))
    let again = EKEvent(eventStore: store)
    again.title = old.title
    again.isAllDay = true
    again.startDate = old.startDate
    again.endDate = old.startDate
    again.calendar = old.calendar
    try store.remove(old, span: .thisEvent, commit: false)
    try store.save(again, span: .thisEvent, commit: false)
    try store.commit()

    let run = try session("show 1\n")
    #expect(run.status == 0, "\(run.output)")
    #expect(
      run.output.contains(
        "Payment 2: not found by its recorded identifier; found \"Bob owes $50.00\" due on "
          + "2025-03-10 and recorded its identifier."))
    #expect(try payments()[1].eventIdentifier == again.eventIdentifier)
    // Recorded: the next look finds it by its identifier, with nothing to say.
    #expect(!(try session("show 1\n").output.contains("Payment 2:")))

    try store.remove(again, span: .thisEvent)
    let missing = try session("show 1\n")
    #expect(missing.output.contains("Payment 2: not in the calendar"))
  }

  /// The loans database copied to another calendar database into which the calendar was
  /// exported and imported: the payments are found there by title and day, in any calendar
  /// (the loan's calendar identifier is the other database's), and recorded.
  @Test func aLoanCopiedToAnotherDatabaseFindsItsImportedPayments() throws {
    #expect(try session("new Dan 300 0 3 monthly 2026-05-02\n1\n").status == 0)
    let other = try home.copy(app: "loan-scheduler", into: "Imported")
    let run = try SampleRun.session(
      "loan-scheduler", "show 1\n1\nshow 1\n", arguments: Self.now, home: other)
    #expect(run.output.contains("was scheduled in another calendar database"), "\(run.output)")
    #expect(!run.output.contains("not in the calendar"), "\(run.output)")
    #expect(Self.count("(repeating)", in: run.output) == 6, "\(run.output)")
  }

  /// A running session with Claire's daily loan of 3 payments, whose payment 2 another
  /// process (ekctl) has just removed from the calendar.
  func claireWithPayment2RemovedElsewhere() throws -> SampleRun {
    let app = try SampleRun(executable: "loan-scheduler", arguments: Self.now, home: home)
    // Piped, a prompt shows with the line that answers it: wait for the answer to a command
    // sent after `new`, so that `new` has finished and recorded what it saw.
    app.send("new Claire 1320.38 0 3 daily 2025-03-02\n1\nloans\n")
    try app.wait(for: "0 paid\n")
    let series = try #require(try payments()[1].eventIdentifier)
    let removal = try home.ekctl([
      "rm", series, "--occurrence", "2025-03-03", "--db", home.calendarDatabase.path,
    ])
    #expect(removal.status == 0, "\(removal.output)")
    return app
  }

  @Test func aPaymentRemovedByAnotherProcessIsNoticedAtTheNextPrompt() throws {
    let app = try claireWithPayment2RemovedElsewhere()
    let told =
      "Calendar: Claire's payment 2 of loan 1 (due 2025-03-03) is no longer in the calendar (removed, or changed by another app)."
    try waitUntilTold([told], by: app)
    app.send("loans\nshow 1\n")
    let run = try app.finish()
    #expect(run.status == 0, "\(run.output)")
    #expect(Self.count(told, in: run.output) == 1)
    #expect(!run.output.contains("payment 1 of loan 1 (due 2025-03-02) was"))
    #expect(run.output.contains("Payment 2: not in the calendar"))
  }

  @Test func aPaymentRemovedByAnotherProcessJustBeforeACommandOnTheLoanIsTold() throws {
    let app = try claireWithPayment2RemovedElsewhere()
    // At once, before the notice comes (a moment after the commit): a command that writes
    // payment 1 of the same loan must not take payment 2's removal for its own.
    app.send("delete-payment Claire 1\n")
    let told =
      "Calendar: Claire's payment 2 of loan 1 (due 2025-03-03) is no longer in the calendar (removed, or changed by another app)."
    try waitUntilTold([told], by: app)
    let run = try app.finish()
    #expect(run.status == 0, "\(run.output)")
    #expect(Self.count(told, in: run.output) == 1)
    #expect(!run.output.contains("payment 1 of loan 1 (due 2025-03-02) was"), "\(run.output)")
  }

  @Test func eventsMovedOrRetitledByAnotherProcessAreNoticed() throws {
    let app = try SampleRun(executable: "loan-scheduler", arguments: Self.now, home: home)
    app.send("new Bob 100 0 2 weekly 2025-03-03 --single-events\n1\n")
    app.send("loans\n")
    try app.wait(for: "0 paid\n")
    let rows = try payments()
    // This test process is another app: it moves payment 1 and retitles payment 2.
    let store = try home.store()
    let first = try #require(store.event(withIdentifier: rows[0].eventIdentifier!))
    first.startDate = Self.day("2025-03-05")
    first.endDate = first.startDate
    try store.save(first, span: .thisEvent)
    let second = try #require(store.event(withIdentifier: rows[1].eventIdentifier!))
    second.title = "Bob owes $50.00 (call him)"
    try store.save(second, span: .thisEvent)
    let told = [
      "Calendar: Bob's payment 1 of loan 1 (due 2025-03-03) was moved to 2025-03-05 in the "
        + "calendar.",
      "Calendar: Bob's payment 2 of loan 1 (due 2025-03-10) was changed in the calendar: now "
        + "\"Bob owes $50.00 (call him)\".",
    ]
    try waitUntilTold(told, by: app)
    app.send("loans\nshow 1\n")
    let run = try app.finish()
    #expect(
      run.output.contains(
        "Payment 1: its event is on 2025-03-05, not on its due day."))
    #expect(told.map { Self.count($0, in: run.output) } == [1, 1])
  }

  /// The same for the first occurrence of a repeating event: moved on its own by another
  /// app, it is detached, and the series' identifier still finds the series on its first day;
  /// the payment's own occurrence is found by its occurrence date.
  @Test func aRepeatingLoansFirstPaymentMovedByAnotherProcessIsNoticed() throws {
    let app = try SampleRun(executable: "loan-scheduler", arguments: Self.now, home: home)
    app.send("new Cy 300 0 3 weekly 2025-03-03\n1\nloans\n")
    try app.wait(for: "0 paid\n")
    let rows = try payments()
    let store = try home.store()
    let first = try occurrence(of: rows[0].eventIdentifier, on: "2025-03-03", in: store)
    first.startDate = Self.day("2025-03-05")
    first.endDate = first.startDate
    try store.save(first, span: .thisEvent)
    let told =
      "Calendar: Cy's payment 1 of loan 1 (due 2025-03-03) was moved to 2025-03-05 in the "
      + "calendar."
    try waitUntilTold([told], by: app)
    app.send("show 1\n")
    let run = try app.finish()
    #expect(
      run.output.contains(
        "Payment 1: it was changed on its own in the calendar; its identifier is recorded; its "
          + "event is on 2025-03-05, not on its due day."), "\(run.output)")
    #expect(Self.count(told, in: run.output) == 1)
  }

  /// A running session with Dana's weekly loan of 4 payments from 2026-07-01 (one series), shown.
  func danaWeekly() throws -> (SampleRun, series: String) {
    let app = try SampleRun(
      executable: "loan-scheduler", arguments: ["--now", "2026-06-20T12:00"], home: home)
    app.send("new Dana 1000 0 4 weekly 2026-07-01\n1\nshow Dana\nloans\n")
    try app.wait(for: "0 paid\n")
    let rows = try payments()
    #expect(Set(rows.map(\.eventIdentifier)).count == 1)
    return (app, try #require(rows[0].eventIdentifier))
  }

  /// Another app changes payment 2 "and future events" (its notes): the series is split, and
  /// payments 2 to 4 are the occurrences of a new series with a new identifier. They are still
  /// on the calendar: nothing is told of them, and `show` finds them by title and day.
  @Test func aSeriesSplitByAnotherProcessIsNotToldAsRemoved() throws {
    let (app, series) = try danaWeekly()
    let store = try home.store()
    let second = try occurrence(of: series, on: "2026-07-08", in: store)
    second.notes = "Pays by transfer from now on."
    try store.save(second, span: .futureEvents)
    #expect(second.eventIdentifier != series)
    // Then a change that is told, to payment 1 (still on the first series): once it is told,
    // the split has been looked at too.
    let first = try #require(store.event(withIdentifier: series))
    first.title = "Dana owes $250.00 (first)"
    try store.save(first, span: .thisEvent)
    let told =
      "Calendar: Dana's payment 1 of loan 1 (due 2026-07-01) was changed in the calendar: now "
      + "\"Dana owes $250.00 (first)\"."
    try waitUntilTold([told], by: app)
    app.send("show 1\n")
    let run = try app.finish()
    #expect(run.status == 0, "\(run.output)")
    #expect(!run.output.contains("no longer in the calendar"), "\(run.output)")
    #expect(Self.count(told, in: run.output) == 1)
    #expect(
      run.output.contains("Payment 3: not found by its recorded identifier; found"), "\(run.output)"
    )
    #expect(try payments().map(\.eventIdentifier).dropFirst().allSatisfy { $0 != series })
  }

  /// Another app changes payment 3 "and future events" (a split): `delete` removes the
  /// split-off series too, found by title and due day as `show` finds it.
  @Test func deleteRemovesWhatASplitCutOff() throws {
    let (app, series) = try danaWeekly()
    _ = try app.finish()
    let store = try home.store()
    let third = try occurrence(of: series, on: "2026-07-15", in: store)
    third.notes = "Pays by transfer from now on."
    try store.save(third, span: .futureEvents)
    #expect(third.eventIdentifier != series)
    let run = try session("delete Dana\n")
    #expect(run.status == 0, "\(run.output)")
    #expect(!run.output.contains("no longer in the calendar"), "\(run.output)")
    expectNoPaymentLeft(in: store)
  }

  /// Dana's weekly loan (the session ended), whose payment 3 another app then moved a day
  /// later with `span`: the store, the loan's series' identifier, and the moved occurrence.
  func danaWithThirdMovedADay(span: EKSpan) throws -> (EKEventStore, series: String, EKEvent) {
    let (app, series) = try danaWeekly()
    _ = try app.finish()
    let store = try home.store()
    let third = try occurrence(of: series, on: "2026-07-15", in: store)
    third.startDate = Self.day("2026-07-16")
    third.endDate = Self.day("2026-07-17")
    try store.save(third, span: span)
    return (store, series, third)
  }

  /// No "Dana owes" event left in the store over June to August 2026.
  func expectNoPaymentLeft(
    in store: EKEventStore, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let left = store.events(
      matching: store.predicateForEvents(
        withStart: Self.day("2026-06-01"), end: Self.day("2026-09-01"), calendars: nil))
    #expect(
      !left.contains { $0.title.hasPrefix("Dana owes") }, "\(left.map(\.startDate))",
      sourceLocation: sourceLocation)
  }

  /// Another app moves payment 3 a day later "and future events": payments 3 and 4 are a new
  /// series, each a day after its due day. `show` finds them (nearest their due days), and
  /// again once it recorded the new series' identifier; `delete` removes them.
  @Test func aSplitThatMovesTheLaterPaymentsADayStillFindsThem() throws {
    let (store, series, third) = try danaWithThirdMovedADay(span: .futureEvents)
    #expect(third.eventIdentifier != series)
    let run = try session("show Dana\nshow Dana\n")
    #expect(run.status == 0, "\(run.output)")
    #expect(!run.output.contains("not in the calendar"), "\(run.output)")
    for day in ["2026-07-16", "2026-07-23"] {
      let told = "its event is on \(day), not on its due day"
      #expect(run.output.components(separatedBy: told).count - 1 == 2, "\(run.output)")
    }
    #expect(
      Array(try payments().map(\.eventIdentifier).suffix(2)) == [
        third.eventIdentifier, third.eventIdentifier,
      ])
    let deleted = try session("delete Dana\n")
    #expect(!deleted.output.contains("no longer in the calendar"), "\(deleted.output)")
    expectNoPaymentLeft(in: store)
  }

  /// A split that moved payments 3 and 4 a day, then the loan's own series (payments 1 and 2)
  /// removed before the app looked: 3 and 4 are still found, near their due days, and deleted.
  @Test func aSplitThatMovedTheDayIsFoundOnceTheLoansOwnSeriesIsRemoved() throws {
    let (store, series, _) = try danaWithThirdMovedADay(span: .futureEvents)
    try store.remove(try occurrence(of: series, on: "2026-07-01", in: store), span: .futureEvents)
    let run = try session("show Dana\n")
    #expect(run.output.contains("its event is on 2026-07-23, not on its due day"), "\(run.output)")
    let deleted = try session("delete Dana\n")
    #expect(deleted.status == 0, "\(deleted.output)")
    expectNoPaymentLeft(in: store)
  }

  /// A split that moved payments 3 and 4 a day, then payment 4 moved on its own: found by the
  /// day its series put it on (its `occurrenceDate`), and removed by `delete`.
  @Test func aPaymentMovedOnItsOwnAfterASplitThatMovedItADayIsFound() throws {
    let (store, _, third) = try danaWithThirdMovedADay(span: .futureEvents)
    let fourth = try occurrence(of: third.eventIdentifier, on: "2026-07-23", in: store)
    fourth.startDate = Self.day("2026-07-25")
    fourth.endDate = Self.day("2026-07-26")
    try store.save(fourth, span: .thisEvent)
    let run = try session("show Dana\n")
    #expect(!run.output.contains("not in the calendar"), "\(run.output)")
    #expect(run.output.contains("its event is on 2026-07-25, not on its due day"), "\(run.output)")
    let deleted = try session("delete Dana\n")
    #expect(!deleted.output.contains("no longer in the calendar"), "\(deleted.output)")
    expectNoPaymentLeft(in: store)
  }

  /// Another app moves payment 3 on its own, then changes payment 2 "and future events": the
  /// moved occurrence goes to the new series (a new identifier), still off its due day. `show`
  /// finds it by its `occurrenceDate` (the day it was due) and records its identifier.
  @Test func anOccurrenceMovedBeforeASplitIsFoundByTheDayItWasDue() throws {
    let (store, series, _) = try danaWithThirdMovedADay(span: .thisEvent)
    let second = try occurrence(of: series, on: "2026-07-08", in: store)
    second.notes = "Pays by transfer from now on."
    try store.save(second, span: .futureEvents)
    let run = try session("show Dana\n")
    #expect(run.status == 0, "\(run.output)")
    #expect(!run.output.contains("Payment 3: not in the calendar"), "\(run.output)")
    #expect(run.output.contains("its event is on 2026-07-16, not on its due day"), "\(run.output)")
    let recorded = try payments().map(\.eventIdentifier)
    let onTheSixteenth = store.events(
      matching: store.predicateForEvents(
        withStart: Self.day("2026-07-16"), end: Self.day("2026-07-17"), calendars: nil))
    #expect(onTheSixteenth.count == 1)
    #expect(recorded[2] == onTheSixteenth.first?.eventIdentifier)
    #expect(recorded[2] != series)
  }

  /// Another app moves the whole series to another calendar: each payment is told moved there.
  @Test func aSeriesMovedToAnotherCalendarByAnotherProcessIsTold() throws {
    let (app, series) = try danaWeekly()
    let store = try home.store()
    let other = EKCalendar(for: .event, eventStore: store)
    other.title = "Debts"
    other.source = store.sources.first { $0.sourceType == .local }
    try store.saveCalendar(other, commit: true)
    let event = try #require(store.event(withIdentifier: series))
    event.calendar = other
    try store.save(event, span: .futureEvents)
    #expect(event.eventIdentifier == series)
    let told = ["2026-07-01", "2026-07-08", "2026-07-15", "2026-07-22"].enumerated().map {
      "Calendar: Dana's payment \($0.offset + 1) of loan 1 (due \($0.element)) was moved to "
        + "calendar \"Debts\"."
    }
    try waitUntilTold(told, by: app)
    app.send("show 1\n")
    let run = try app.finish()
    #expect(run.status == 0, "\(run.output)")
    #expect(told.map { Self.count($0, in: run.output) } == [1, 1, 1, 1], "\(run.output)")
    #expect(!run.output.contains("no longer in the calendar"), "\(run.output)")
    #expect(try payments().map(\.eventIdentifier) == Array(repeating: series, count: 4))
  }

  /// Then the calendar it was moved to deleted: each payment told as gone with its calendar,
  /// named, not as "removed, or changed by another app".
  @Test func aCalendarDeletedByAnotherProcessIsNamedForItsPayments() throws {
    let (app, series) = try danaWeekly()
    let store = try home.store()
    let other = EKCalendar(for: .event, eventStore: store)
    other.title = "Debts"
    other.source = store.sources.first { $0.sourceType == .local }
    try store.saveCalendar(other, commit: true)
    let event = try #require(store.event(withIdentifier: series))
    event.calendar = other
    try store.save(event, span: .futureEvents)
    try app.poke(until: "was moved to calendar \"Debts\".")
    try store.removeCalendar(other, commit: true)
    let told = ["2026-07-01", "2026-07-08", "2026-07-15", "2026-07-22"].enumerated().map {
      "Calendar: Dana's payment \($0.offset + 1) of loan 1 (due \($0.element)) is no longer in "
        + "the calendar: its calendar \"Debts\" was deleted."
    }
    try waitUntilTold(told, by: app)
    let run = try app.finish()
    #expect(told.map { Self.count($0, in: run.output) } == [1, 1, 1, 1], "\(run.output)")
  }

  @Test func changesMadeWhileTheEditorWaitsAreToldAfterIt() throws {
    let app = try SampleRun(executable: "loan-scheduler", arguments: Self.now, home: home)
    app.send(
      "new Ann 100 0 2 weekly 2025-03-03 --single-events\n1\n"
        + "new Ben 100 0 2 weekly 2025-03-04 --single-events\nedit Ann 1\n")
    try app.wait(for: "cancel stops without saving.\n")
    // While the person is in the editor, another app removes one of Ben's payments. Its
    // notice waits for the main thread, which the editor holds; it is told after the editor,
    // at the first line read once the store has posted it (poked: a pipe has no idle prompt).
    let store = try home.store()
    let ben = try #require(try payments(loan: 2)[0].eventIdentifier)
    try store.remove(try #require(store.event(withIdentifier: ben)), span: .thisEvent)
    app.send("\n\n\n\n\n\n\n\n\n\ncancel\n")
    try app.wait(for: "Nothing changed.\n")
    let told =
      "Calendar: Ben's payment 1 of loan 2 (due 2025-03-04) is no longer in the calendar (removed, or changed by another app)."
    try app.poke(until: told)
    let run = try app.finish()
    #expect(run.status == 0, "\(run.output)")
    let after = run.output.components(separatedBy: "Nothing changed.\n").last ?? ""
    #expect(after.contains(told), "\(run.output)")
    #expect(Self.count(told, in: run.output) == 1)
  }

  /// An edit cancelled, or saved for its own payment only, writes no later payment: another
  /// app's removal of a later one while the editor waited is told, and not taken for the
  /// edit's doing. Cancelled, it writes nothing: a move of the payment in the editor is told.
  @Test(arguments: ["cancel", "this"])
  func anEditOfOnePaymentLeavesAnotherAppsChangeToALaterOneTold(_ ending: String) throws {
    let app = try SampleRun(executable: "loan-scheduler", arguments: Self.now, home: home)
    app.send("new Fay 400 0 4 daily 2025-03-02\n1\nedit 1 1\n")
    try app.wait(for: "cancel stops without saving.\n")
    let store = try home.store()
    let series = try #require(try payments()[0].eventIdentifier)
    let third = try occurrence(of: series, on: "2025-03-04", in: store)
    try store.remove(third, span: .thisEvent)
    if ending == "cancel" {  // and the very payment in the editor, moved a day
      let first = try #require(store.event(withIdentifier: series))
      first.startDate = Self.day("2025-03-09")
      first.endDate = first.startDate
      try store.save(first, span: .thisEvent)
    }
    let title = ending == "cancel" ? "\n" : "Fay owes $100.00 (first)\n"
    // The ten fields, then cancel; or saved (an empty answer) for this event only.
    app.send(title + "\n\n\n\n\n\n\n\n\n" + (ending == "cancel" ? "cancel\n" : "\nthis\n"))
    try app.wait(for: ending == "cancel" ? "Nothing changed.\n" : "Recorded payment 1's event")
    let told =
      "Calendar: Fay's payment 3 of loan 1 (due 2025-03-04) is no longer in the calendar (removed, or changed by another app)."
    try app.poke(until: told)
    let run = try app.finish()
    #expect(run.status == 0, "\(run.output)")
    #expect(Self.count(told, in: run.output) == 1)
    #expect(!run.output.contains("the edit ended"), "\(run.output)")
    if ending == "cancel" {
      let moved =
        "Calendar: Fay's payment 1 of loan 1 (due 2025-03-02) was moved to 2025-03-09 in the "
        + "calendar."
      #expect(Self.count(moved, in: run.output) == 1, "\(run.output)")
    }
  }

  /// Two loan-scheduler processes at once: an edit that waited in the editor while the other
  /// took payments 3 and 4 off the calendar writes only the payment it edited, so that the
  /// other's record of 3 and 4 (taken off) is kept, not overwritten by what it read before.
  @Test func anEditWritesOnlyItsOwnPaymentOverAnotherProcessesDeletion() throws {
    let app = try SampleRun(executable: "loan-scheduler", arguments: Self.now, home: home)
    app.send("new Fay 400 0 4 daily 2025-03-02\n1\nedit 1 1\n")
    try app.wait(for: "cancel stops without saving.\n")
    let other = try session("delete-payment Fay 3 --future\n")
    #expect(other.output.contains("Took payments 3 and 4 off the calendar"), "\(other.output)")
    app.send("Fay owes $100.00 (first)\n" + String(repeating: "\n", count: 9) + "\nthis\n")
    try app.wait(for: "Recorded payment 1's event")
    let run = try app.finish()
    #expect(run.status == 0, "\(run.output)")
    let rows = try payments()
    #expect(rows[0].eventIdentifier != rows[1].eventIdentifier, "payment 1 detached")
    #expect(rows[2].eventIdentifier == nil && rows[3].eventIdentifier == nil, "\(rows)")
  }

  @Test func anOccurrenceDetachedByAnotherProcessIsFollowed() throws {
    let app = try SampleRun(executable: "loan-scheduler", arguments: Self.now, home: home)
    app.send("new Claire 300 0 3 daily 2025-03-02\n1\n")
    app.send("loans\n")
    try app.wait(for: "0 paid\n")
    let series = try #require(try payments()[1].eventIdentifier)
    // Another app retitles payment 2's occurrence only: it is detached, with its own identifier.
    let store = try home.store()
    let second = try occurrence(of: series, on: "2025-03-03", in: store)
    second.title = "Claire owes $100.00 (late)"
    try store.save(second, span: .thisEvent)
    let detached = try #require(second.eventIdentifier)
    #expect(detached != series)
    let told =
      "Calendar: Claire's payment 2 of loan 1 (due 2025-03-03) was changed in the calendar: now "
      + "\"Claire owes $100.00 (late)\"."
    try waitUntilTold([told], by: app)
    app.send("loans\nshow 1\n")
    let run = try app.finish()
    #expect(Self.count(told, in: run.output) == 1)
    #expect(
      run.output.contains(
        "Payment 2: it was changed on its own in the calendar; its identifier is recorded."))
    #expect(try payments().map(\.eventIdentifier) == [series, detached, series])
    // Deleting the loan removes the series and, with it, the detached occurrence.
    #expect(try session("delete 1\n").status == 0)
    #expect(events(try home.store()).isEmpty)
  }

  // MARK: Access

  @Test func accessIsAskedAtTheFirstCommandThatNeedsTheCalendar() throws {
    let run = try session("loans\nnew Claire 100 0 1 daily 2025-03-02\n1\nshow 1\n")
    #expect(run.status == 0, "\(run.output)")
    let loans = try #require(run.output.range(of: "No loans yet"))
    let alert = try #require(
      run.output.range(of: "\"Loan Scheduler\" Would Like Full Access to Your Calendar"))
    #expect(loans.upperBound < alert.lowerBound)
    #expect(run.output.components(separatedBy: "Would Like Full Access").count == 2)
  }

  @Test func deniedAtThePromptChangesNothing() throws {
    let run = try session("new Claire 100 0 1 daily 2025-03-02\n2\nloans\n")
    #expect(run.status == 1)
    #expect(
      run.output.contains(
        "Error: This app does not have full access to your calendar. To change that: ekctl "
          + "privacy set --app \(Self.app) --entity events full"))
    #expect(try loanCount() == 0)
    #expect(events(try home.store()).isEmpty)
  }

  @Test(arguments: [
    ("denied", "This app does not have full access to your calendar."),
    ("restricted", "Access to your calendar is restricted on this system."),
  ])
  func decidedBeforehandIsNotAskedAgain(decision: String, message: String) throws {
    let set = try home.ekctl([
      "privacy", "set", "--app", Self.app, "--entity", "events", decision,
      "--db", home.calendarDatabase.path,
    ])
    #expect(set.status == 0, "\(set.output)")
    let run = try session("new Claire 100 0 1 daily 2025-03-02\n")
    #expect(run.status == 1)
    #expect(!run.output.contains("Would Like Full Access"))
    #expect(run.output.contains("Error: \(message) To change that: ekctl privacy set"))
    #expect(try loanCount() == 0)
  }

  // MARK: Bad input

  @Test func badCommandLineOptionsExitAsEkctlDoes() throws {
    let badClock = try SampleRun.session(
      "loan-scheduler", "", arguments: ["--now", "soon"], home: home)
    #expect(badClock.status == 64)
    #expect(
      badClock.output.hasPrefix(
        "Error: The value 'soon' is invalid for '--now <iso-date-time>': give a date and time"))
    let unknown = try SampleRun.session("loan-scheduler", "", arguments: ["--verbose"], home: home)
    #expect(unknown.status == 64)
    #expect(unknown.output.hasPrefix("Error: Unknown option '--verbose'"))
    #expect(unknown.output.contains("\nUsage: loan-scheduler [--now <iso-date-time>]\n"))
  }

  /// Each bad command, and the one line it must answer with.
  static let badCommands = [
    (
      "new Claire +5 0 3 daily 2025-03-02",
      "'+5' is not an amount; give one such as 1320.38 (no sign)"
    ),
    // A word that starts with a dash is an option to swift-argument-parser, as to ekctl.
    ("new Claire -5 0 3 daily 2025-03-02", "Unknown option '-5'; a number below zero goes after"),
    (
      "new Claire 100 0 0 daily 2025-03-02",
      "the number of payments must be a whole number from 1 to 1000"
    ),
    (
      "new Claire 100 0 3 sometimes 2025-03-02",
      "'sometimes' is not a frequency; say daily, every N days, weekly, biweekly or monthly"
    ),
    (
      "new Claire 100 0 3 monthly 2025-01-31",
      "monthly payments need a first due date from the 1st to the 28th"
    ),
    ("new Claire 100 0 3 daily 2025-02-30", "'2025-02-30' is not a date"),
    ("new Claire 100 150 3 daily 2025-03-02", "'150' is not an interest rate"),
    (
      "new Claire 0.02 0 3 daily 2025-03-02",
      "$0.02 cannot be repaid in whole cents over 3 payments"
    ),
    ("new Claire 100 0 200 every-365-days 2025-03-02", "a loan may run 100 years at most"),
    (
      "new Claire 100 0 3 daily 2999-03-02", "give a first due date between the years 1900 and 2900"
    ),
    ("new Claire 100", "a loan's terms are six: CONTACT AMOUNT RATE PAYMENTS FREQUENCY"),
    ("show 9", "there is no loan '9'; 'loans' lists them"),
    ("pay 9 1", "there is no loan '9'; 'loans' lists them"),
    ("reschedule 9 1 2025-03-02", "there is no loan '9'; 'loans' lists them"),
    ("delete Nobody", "there is no loan 'Nobody'; 'loans' lists them"),
  ]

  @Test func badInputGetsAClearMessageAndChangesNothing() throws {
    // Access given beforehand, so that no line of the session answers the privacy alert.
    try home.ekctl([
      "privacy", "set", "--app", Self.app, "--entity", "events", "full",
      "--db", home.calendarDatabase.path,
    ])
    let run = try session(Self.badCommands.map(\.0).joined(separator: "\n") + "\n")
    #expect(run.status == 1)
    // Each command is answered by its own message, on the line after it.
    for (command, message) in Self.badCommands {
      #expect(run.output.contains("loans> \(command)\nError: \(message)"), "\(command)")
    }
    #expect(try loanCount() == 0)
    // No command got as far as the calendar: the store was not even made.
    #expect(!FileManager.default.fileExists(atPath: home.calendarDatabase.path))
  }

  @Test func badTermsAreRefusedBeforeAccessIsAsked() throws {
    let run = try session("new Claire 0.02 0 3 daily 2025-03-02\n")
    #expect(run.status == 1)
    #expect(!run.output.contains("Would Like Full Access"))
    #expect(run.output.contains("Error: $0.02 cannot be repaid in whole cents"))
  }

  @Test func paymentNumbersOutOfRangeAreRefused() throws {
    let run = try session(
      "new Claire 100 0 2 daily 2025-03-02\n1\npay 1 3\npay 1 -9223372036854775808\n"
        + "pay 1 -- -1\npay 1 1\npay 1 1\n"
        + "reschedule 1 2 2025-03-01\n")
    #expect(run.output.contains("Error: loan 1 has payments 1 to 2, not '3'"))
    #expect(
      run.output.contains(
        "Error: Unknown option '-9223372036854775808'; a number below zero goes after '--'\n"))
    #expect(run.output.contains("Error: loan 1 has payments 1 to 2, not '-1'"))
    #expect(run.output.contains("Claire paid $50.00 (payment 1); 1 payment to go."))
    #expect(run.output.contains("Payment 1 of loan 1 was paid already."))
    #expect(run.output.contains("Error: payment 2 must stay after payment 1, due 2025-03-02"))
    #expect(run.status == 1)
    #expect(try payments().map(\.paid) == [true, false])
    #expect(try payments().map(\.due) == ["2025-03-02", "2025-03-03"])
    #expect(
      events(try home.store()).map { Self.dayText($0.startDate) } == ["2025-03-02", "2025-03-03"])
  }
}
