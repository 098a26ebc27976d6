import Foundation
import GRDB
import OpenEventKit
import TestSupport
import Testing

/// loan-scheduler on the shared app kit: access taken away while it runs, its private
/// database, payments taken off the calendar with the app, the agenda and month views, and the
/// messages a new user tripped over.
@Suite struct LoanSchedulerKitTests {
  let home: SampleHome

  init() throws { home = try SampleHome() }

  typealias Loans = LoanSchedulerTests

  func session(_ input: String) throws -> (output: String, status: Int32) {
    try SampleRun.session("loan-scheduler", input, arguments: Loans.now, home: home)
  }

  func rows(loan: Int = 1) throws -> [Loans.PaymentRow] {
    try home.database(app: "loan-scheduler", file: "loans.sqlite").read { db in
      try Loans.PaymentRow.fetchAll(
        db, sql: "SELECT * FROM payment WHERE loanId = ? ORDER BY number", arguments: [loan])
    }
  }

  /// The days of the events of March and April 2025, in order.
  func eventDays() throws -> [String] {
    let store = try home.store()
    return store.events(
      matching: store.predicateForEvents(
        withStart: Loans.day("2025-03-01"), end: Loans.day("2025-05-01"), calendars: nil)
    ).map { Loans.dayText($0.startDate) }.sorted()
  }

  // MARK: Access taken away while the app runs

  /// loan-scheduler running with Claire's daily loan of 3, waiting for its next line.
  func claireRunning() throws -> SampleRun {
    let app = try SampleRun(executable: "loan-scheduler", arguments: Loans.now, home: home)
    app.send("new Claire 300 0 3 daily 2025-03-02\n1\nloans\n")
    try app.wait(for: "0 paid\n")
    try app.waitUntilInputIsRead()
    return app
  }

  /// Decides for loan-scheduler's events with `ekctl privacy set`: `full`, `denied`…
  func decide(_ decision: String) throws {
    try home.decide(decision, app: Loans.app, entity: "events")
  }

  @Test func revokedAccessRefusesAndChangesNothing() throws {
    let app = try SampleRun(executable: "loan-scheduler", arguments: Loans.now, home: home)
    app.send("new Claire 300 0 3 daily 2025-03-02\n1\nloans\n")
    try app.wait(for: "0 paid\n")
    let before = try rows()
    let revoke = try home.ekctl([
      "privacy", "set", "--app", Loans.app, "--entity", "events", "denied",
      "--db", home.calendarDatabase.path,
    ])
    #expect(revoke.status == 0, "\(revoke.output)")
    // Decisions are read again at most a second later.
    Thread.sleep(forTimeInterval: 1.5)
    app.send("delete 1\nshow 1\nnew Bob 10 0 1 daily 2025-03-05\nnew\ncalendar\nloans\n")
    let run = try app.finish()
    #expect(run.status == 1)
    let refusal =
      "Error: This app does not have full access to your calendar. To change that: ekctl privacy "
      + "set --app \(Loans.app) --entity events full"
    // The first command after the change says it, then refuses.
    #expect(
      run.output.contains(
        "loans> delete 1\nCalendar: this app may no longer use your calendar. To change that: "
          + "ekctl privacy set --app \(Loans.app) --entity events full\n\(refusal)\n"))
    for command in ["show 1", "new Bob 10 0 1 daily 2025-03-05", "new", "calendar"] {
      #expect(run.output.contains("loans> \(command)\n\(refusal)\n"), "\(command)")
    }
    // Nothing was concluded from seeing no events: no payment told removed, nothing forgotten.
    #expect(!run.output.contains("is no longer in the calendar"))
    #expect(!run.output.contains("not in the calendar"))
    #expect(!run.output.contains("Who owes"))
    #expect(try rows() == before)
    #expect(run.output.contains("1  Claire owes $300.00 at 0% a year: 3 daily payments"))
    #expect(try eventDays() == ["2025-03-02", "2025-03-03", "2025-03-04"])
  }

  /// Access taken away after launch but before any command used the calendar: the first such
  /// command's refusal says it, once; the app never used the calendar, so "no longer" would be
  /// wrong (the thirty-third reader saw both lines).
  @Test func accessTakenAwayBeforeTheFirstCommandIsSaidByTheRefusalAlone() throws {
    let set = { (status: String) throws in
      let result = try self.home.ekctl([
        "privacy", "set", "--app", Loans.app, "--entity", "events", status,
        "--db", self.home.calendarDatabase.path,
      ])
      #expect(result.status == 0, "\(result.output)")
    }
    try set("full")
    let app = try SampleRun(executable: "loan-scheduler", arguments: Loans.now, home: home)
    app.send("loans\n")
    try app.wait(for: "No loans yet")  // launched: the status it started with is read
    try set("denied")
    app.send("calendar\n")
    let run = try app.finish()
    #expect(run.output.contains("Error: This app does not have full access to your calendar."))
    #expect(!run.output.contains("may no longer use your calendar"), "\(run.output)")
  }

  @Test func accessGivenBackIsSaidAndTheAppGoesOn() throws {
    let app = try SampleRun(executable: "loan-scheduler", arguments: Loans.now, home: home)
    app.send("new Claire 300 0 3 daily 2025-03-02\n1\nloans\n")
    try app.wait(for: "0 paid\n")
    try decide("denied")
    Thread.sleep(forTimeInterval: 1.5)
    app.send("show 1\n")
    try app.wait(for: "Error: This app does not have full access")
    try decide("full")
    Thread.sleep(forTimeInterval: 1.5)
    app.send("show 1\n")
    let run = try app.finish()
    #expect(run.output.contains("Calendar: this app may now use your calendar."))
    #expect(!run.output.contains("not in the calendar"))
    #expect(run.output.components(separatedBy: "(repeating)").count - 1 == 6)
  }

  /// Full access at launch, taken away before the first command (which is refused), then given
  /// back: told, as the refusal left the status the next change is told from. And write-only
  /// given back to full with `ekctl`, not at an alert: told too.
  @Test func accessGivenBackAfterARefusedFirstCommandIsTold() throws {
    try decide("full")
    let app = try SampleRun(executable: "loan-scheduler", arguments: Loans.now, home: home)
    try decide("denied")
    Thread.sleep(forTimeInterval: 1.5)  // decisions are read again at most a second later
    app.send("new Claire 300 0 3 daily 2025-03-02\n")
    try app.wait(for: "Error: This app does not have full access")
    try app.waitUntilInputIsRead()
    try decide("full")
    try app.poke(until: "Calendar: this app may now use your calendar.")
    try decide("write-only")
    try app.poke(until: "Calendar: this app may now only add events")
    try decide("full")
    let given = "Calendar: this app may now use your calendar."
    let deadline = Date().addingTimeInterval(20)  // poked (a pipe has no idle prompt)
    while app.output.components(separatedBy: given).count - 1 < 2, Date() < deadline {
      app.send("\n")
      try? app.wait(for: given, count: 2, timeout: 0.25)
    }
    let run = try app.finish()
    #expect(run.output.components(separatedBy: given).count - 1 == 2, "\(run.output)")
  }

  /// The decision forgotten (`ekctl privacy reset`) while the app runs: told that the app asks
  /// again, not sent to `ekctl privacy set`; the next command asks.
  @Test func accessResetIsToldAsAskedAgain() throws {
    let app = try claireRunning()
    try home.ekctl([
      "privacy", "reset", "--app", Loans.app, "--db", home.calendarDatabase.path,
    ])
    try app.poke(
      until: "Calendar: this app may no longer use your calendar. It asks again when a command "
        + "needs it.")
    app.send("show 1\n2\n")
    let run = try app.finish()
    #expect(run.output.contains("Would Like Full Access to Your Calendar"), "\(run.output)")
    // The refusal given at the alert is said by the command, not told again as news.
    #expect(!run.output.contains("Calendar: this app may no longer use your calendar. To"))
  }

  /// Write-only access given while the app runs: told as adding only, and that the app asks
  /// for full access, which the next command does (the upgrade alert), not sent to `ekctl`.
  @Test func writeOnlyGivenWhileRunningIsToldAsAskingForFullAccess() throws {
    let app = try claireRunning()
    try decide("write-only")
    try app.poke(
      until: "Calendar: this app may now only add events, not read them. It asks for full "
        + "access when a command needs it.")
    app.send("show 1\n1\n")
    let run = try app.finish()
    #expect(run.output.contains("Would Like Full Access to Your Calendar"), "\(run.output)")
    #expect(!run.output.contains("To change that"), "\(run.output)")
    // The upgrade the alert gave is its answer, not news.
    #expect(!run.output.contains("may now use your calendar"), "\(run.output)")
    #expect(run.output.components(separatedBy: "(repeating)").count - 1 == 6, "\(run.output)")
  }

  /// Access given back while the prompt waits, after another app removed a payment meanwhile:
  /// "may now use" first, then the removal. The two observers get the same notice in no
  /// promised order; the changes' telling says the access change first.
  @Test func accessGivenBackIsSaidBeforeWhatChangedMeanwhile() throws {
    let app = try claireRunning()
    try decide("denied")
    try app.poke(until: "may no longer use your calendar")
    let store = try home.store()
    let day = ISO8601DateFormatter().date(from: "2025-03-03T00:00:00Z")!
    let second = try #require(
      store.events(
        matching: store.predicateForEvents(
          withStart: day.addingTimeInterval(-43_200), end: day.addingTimeInterval(129_600),
          calendars: nil)
      ).first { $0.title?.hasPrefix("Claire owes") == true })
    try store.remove(second, span: .thisEvent, commit: true)
    try decide("full")
    try app.poke(until: "is no longer in the calendar")
    let output = try app.finish().output
    let access = try #require(output.range(of: "Calendar: this app may now use your calendar."))
    let removal = try #require(output.range(of: "is no longer in the calendar"))
    #expect(access.lowerBound < removal.lowerBound, "\(output)")
  }

  @Test func noAnswerAtTheAlertDecidesNothingAndIsAskedAgain() throws {
    var run = try session("new Claire 100 0 1 daily 2025-03-02\n")
    #expect(run.status == 1)
    #expect(
      run.output.contains(
        "Error: No answer, so the app did not use your calendar; it will ask again next time."))
    #expect(!run.output.contains("To change that"))
    run = try session("new Claire 100 0 1 daily 2025-03-02\n1\n")
    #expect(run.status == 0, "\(run.output)")
    #expect(run.output.contains("Would Like Full Access"))
  }

  @Test func withNoCalendarForEventsOneIsMadeAndSaid() throws {
    // The person removed the only calendar that takes events (Holidays is read-only).
    let store = try EKEventStore(ownerOf: home.calendarDatabase, create: true)
    try store.removeCalendar(try #require(store.defaultCalendarForNewEvents), commit: true)
    let run = try session("new Claire 100 0 1 daily 2025-03-02\n1\n")
    #expect(run.status == 0, "\(run.output)")
    #expect(run.output.contains("No calendar could take new events; made \"Calendar\"."))
    let event = try #require(try home.store().event(withIdentifier: rows()[0].eventIdentifier!))
    #expect(event.calendar.title == "Calendar" && event.calendar.allowsContentModifications)
  }

  // MARK: The app's own database

  @Test func theLoansDatabaseIsPrivate() throws {
    // A database made by an older version, readable by everyone, is narrowed when opened.
    let folder = home.url.appendingPathComponent("loan-scheduler")
    try FileManager.default.createDirectory(
      at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
    let file = folder.appendingPathComponent("loans.sqlite")
    _ = FileManager.default.createFile(atPath: file.path, contents: nil)
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)

    let run = try session("new Claire 100 0 1 daily 2025-03-02\n1\n")
    #expect(run.status == 0, "\(run.output)")
    let mode = { (path: String) in
      try (FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
    }
    #expect(try mode(file.path) == 0o600)
    #expect(try mode(folder.path) == 0o700)
    #expect(try rows().count == 1)
  }

  // MARK: Taking payments off the calendar

  @Test func deletePaymentTakesOneOccurrenceOrTheFollowingOnes() throws {
    var run = try session("new Finn 1000 0 4 weekly 2025-03-03\n1\ndelete-payment Finn 2\n")
    #expect(run.status == 0, "\(run.output)")
    #expect(
      run.output.contains(
        "Took payment 2 off the calendar. The loan keeps it; 'delete' removes the loan."))
    #expect(try eventDays() == ["2025-03-03", "2025-03-17", "2025-03-24"])
    #expect(try rows().map { $0.eventIdentifier == nil } == [false, true, false, false])

    run = try session("delete-payment 1 3 --future\nshow 1\ndelete-payment 1 2\npayment 1 2\n")
    #expect(run.output.contains("Took payments 3 and 4 off the calendar. The loan keeps them"))
    #expect(try eventDays() == ["2025-03-03"])
    let series = try #require(try rows()[0].eventIdentifier)
    #expect(
      try home.store().event(withIdentifier: series)?.recurrenceRules?.first?.recurrenceEnd?
        .occurrenceCount == 2)
    // Taken off with the app: said so, never "removed or changed in another app?".
    #expect(run.output.contains("  2  2025-03-10  $250.00  no    taken off the calendar\n"))
    #expect(!run.output.contains("removed or changed in another app"))
    #expect(
      run.output.contains(
        "delete-payment 1 2\nError: payment 2 of loan 1 was taken off the calendar already"))
    #expect(
      run.output.contains(
        "payment 1 2\nError: payment 2 of loan 1 is not in the calendar (it was taken off with "
          + "this app)"))

    run = try session("delete 1\n")
    #expect(run.status == 0, "\(run.output)")
    #expect(run.output.contains("Removed the event of payment 1."))
    #expect(try eventDays().isEmpty)
  }

  @Test func deletePaymentOfSingleEventsWithTheFollowingOnes() throws {
    var run = try session(
      "new Bob 100 0 3 weekly 2025-03-03 --single-events\n1\ndelete-payment 1 2 --future\n")
    #expect(run.status == 0, "\(run.output)")
    #expect(run.output.contains("Took payments 2 and 3 off the calendar."))
    #expect(try eventDays() == ["2025-03-03"])
    // A loan of events of their own is deleted with one line for all of them.
    run = try session("new Ann 100 0 4 daily 2025-03-05 --single-events\ndelete Ann\n")
    #expect(
      run.output.contains("Deleted loan 2 to Ann.\n  Removed the events of payments 1 to 4.\n"))
  }

  /// `--future` across a split: one `.futureEvents` removal per series, the original cut
  /// after payment 1 and the split-off one removed whole from its first occurrence; the
  /// detached last payment goes with the cut (its instance is after it).
  @Test func deletePaymentWithTheFollowingOnesCutsEachSeriesOnce() throws {
    var run = try session(
      "new Finn 1000 0 4 weekly 2025-03-03\n1\nreschedule Finn 3 2025-03-20\n"
        + "new Claire 1320.38 0 3 daily 2025-03-02\n")
    #expect(run.status == 0, "\(run.output)")
    let before = try rows()
    let (original, split) = (try #require(before[0].eventIdentifier), before[2].eventIdentifier)
    #expect(split != original && before[3].eventIdentifier == split)
    run = try session("delete-payment Finn 2 --future\ndelete-payment Claire 2 --future\n")
    #expect(run.status == 0, "\(run.output)")
    #expect(run.output.contains("Took payments 2 to 4 off the calendar."), "\(run.output)")
    #expect(run.output.contains("Took payments 2 and 3 off the calendar."), "\(run.output)")
    #expect(try eventDays() == ["2025-03-02", "2025-03-03"])
    #expect(try rows().map { $0.eventIdentifier == nil } == [false, true, true, true])
    #expect(try rows(loan: 2).map { $0.eventIdentifier == nil } == [false, true, true])
    let store = try home.store()
    #expect(
      store.event(withIdentifier: original)?.recurrenceRules?.first?.recurrenceEnd?
        .occurrenceCount == 1)
    #expect(store.event(withIdentifier: try #require(split)) == nil)
    let claire = try #require(try rows(loan: 2)[0].eventIdentifier)
    #expect(
      store.event(withIdentifier: claire)?.recurrenceRules?.first?.recurrenceEnd?
        .occurrenceCount == 1)
  }

  @Test func deletingWithTheEditorIsRecordedAsTheAppsOwn() throws {
    // Ten fields kept as they are, then delete, for this occurrence only.
    let run = try session(
      "new Gus 300 0 3 weekly 2025-03-03\n1\nedit 1 2\n" + String(repeating: "\n", count: 10)
        + "delete\nthis\nshow 1\n")
    #expect(run.status == 0, "\(run.output)")
    #expect(run.output.contains("Deleted.\nTook payment 2 off the calendar."))
    #expect(run.output.contains("  2  2025-03-10  $100.00  no    taken off the calendar\n"))
    #expect(!run.output.contains("removed or changed in another app"))
    #expect(!run.output.contains("Calendar: Gus's payment 2"))
    #expect(try eventDays() == ["2025-03-03", "2025-03-17"])
  }

  @Test func anEditThatEndsTheSeriesRecordsTheLaterPaymentsAsTakenOff() throws {
    // Payment 2: Repeat cleared, saved for future events: the series ends before it.
    let run = try session(
      "new Claire 1000 0 5 daily 2025-03-02\n1\nedit 1 2\n\n\n\n\n\n-\n\n\n\n\n\nfuture\nshow 1\n")
    #expect(run.status == 0, "\(run.output)")
    #expect(
      run.output.contains(
        "Payments 3 to 5 are no longer on the calendar: the edit ended the repeating event "
          + "before them. The loan keeps them."))
    #expect(run.output.contains("  5  2025-03-06  $200.00  no    taken off the calendar\n"))
    #expect(!run.output.contains("removed or changed in another app"))
    #expect(try eventDays() == ["2025-03-02", "2025-03-03"])
    #expect(try rows().map { $0.eventIdentifier == nil } == [false, false, true, true, true])
  }

  @Test func deleteSaysWhichPaymentsAnotherAppHadRemoved() throws {
    let app = try SampleRun(executable: "loan-scheduler", arguments: Loans.now, home: home)
    app.send("new Finn 1000 0 4 weekly 2025-03-03\n1\nloans\n")
    try app.wait(for: "0 paid\n")
    let series = try #require(try rows()[1].eventIdentifier)
    let removal = try home.ekctl([
      "rm", series, "--occurrence", "2025-03-10", "--db", home.calendarDatabase.path,
    ])
    #expect(removal.status == 0, "\(removal.output)")
    Thread.sleep(forTimeInterval: 1)
    app.send("delete 1\n")
    let run = try app.finish()
    #expect(run.status == 0, "\(run.output)")
    #expect(
      run.output.contains(
        "  Removed the event of payments 1, 3 and 4.\n"
          + "  The event of payment 2 was no longer in the calendar; nothing to remove.\n"))
    #expect(try eventDays().isEmpty)
  }

  @Test func aWrongAnswerToTheSpanQuestionWhenPipedEndsTheEdit() throws {
    // Payment 2 moved a day, saved, then an answer that is no span: piped, it is not asked
    // again (the next lines are commands), and `loans` then runs as one.
    let run = try session(
      "new Gus 300 0 3 weekly 2025-03-03\n1\nedit 1 2\n\n\n\n2025-03-11\n\n\n\n\n\n\n\n"
        + "sometimes\nloans\n")
    #expect(run.output.contains("Not saved.\nNothing changed.\nloans> loans\n"), "\(run.output)")
    #expect(!run.output.contains("Please answer"), "\(run.output)")
    #expect(try eventDays() == ["2025-03-03", "2025-03-10", "2025-03-17"])
    #expect(try rows().map(\.due) == ["2025-03-03", "2025-03-10", "2025-03-17"])
  }

  // MARK: On a terminal

  @Test func ctrlCLeavesAFormAndFormAnswersStayOutOfTheHistory() throws {
    let outcome = try PseudoTerminal.run(
      BuildProducts.executable("loan-scheduler"), arguments: Loans.now,
      environment: home.environment,
      steps: [
        .after("loans> ", send: "new\r"),
        .after("Choose 1 or 2: ", send: "1\r"),
        .after("Who owes: ", send: "Secret Person\r"),
        .after("Amount: ", send: "\u{03}"),  // Ctrl-C: out of the form, back to the prompt
        .after("Cancelled: no loan was made.", send: "loans\r"),
        .after("No loans yet", send: "\u{04}"),
      ])
    #expect(outcome.stepsTaken == 6, "\(outcome.shown)")
    #expect(outcome.ending == .exited(0), "\(outcome.shown)")
    let history = try String(
      contentsOf: home.url.appendingPathComponent("state/OpenEventKit/loan-scheduler.history"),
      encoding: .utf8)
    // The commands, and neither the privacy answer nor the name.
    #expect(history.split(separator: "\n") == ["new", "loans"])
    #expect(try Self.loanCount(home) == 0)
  }

  /// Ctrl-C at the access alert is no answer, at once: the next command is read whole. (The
  /// alert reads on the request's thread while the main thread waits; the signal went to the
  /// main thread, and the alert went on waiting for a key, then took the next one.)
  @Test func onATerminalCtrlCAtTheAccessAlertLeavesTheNextCommandWhole() throws {
    let outcome = try PseudoTerminal.run(
      BuildProducts.executable("loan-scheduler"), arguments: Loans.now,
      environment: home.environment,
      steps: [
        .after("loans> ", send: "new\r"),
        .after("Choose 1 or 2: ", send: "\u{03}"),  // Ctrl-C: no answer
        .after("it will ask again next time", send: "help\r"),
        .after("Lists the loans.", send: "\u{04}"),
      ])
    #expect(outcome.stepsTaken == 4, "\(outcome.shown)")
    #expect(outcome.ending == .exited(1), "\(outcome.shown)")
    #expect(try Self.loanCount(home) == 0)
  }

  @Test func onATerminalTheNoticeComesWhileThePromptWaits() throws {
    _ = try session("new Claire 1320.38 0 3 daily 2025-03-02\n1\n")
    let home = self.home
    let outcome = try PseudoTerminal.run(
      BuildProducts.executable("loan-scheduler"), arguments: Loans.now,
      environment: home.environment,
      steps: [
        // The agenda reads the calendar, and from then on the app follows the payments there.
        .after("loans> ", send: "agenda 2025-03-01\r"),
        .after(
          "Claire owes",
          .run {
            // Another app removes the payments' events.
            do {
              let identifier = try home.database(app: "loan-scheduler", file: "loans.sqlite")
                .read { db in
                  try String.fetchOne(
                    db, sql: "SELECT eventIdentifier FROM payment WHERE number = 1")
                }
              let store = try home.store()
              let found = try #require(identifier)
              let event = try #require(store.event(withIdentifier: found))
              try store.remove(event, span: .futureEvents, commit: true)
            } catch {
              Issue.record(error)
            }
          }),
        // Nothing typed: the notice comes on its own, and the prompt is drawn again below it.
        .after(
          "Claire's payment 3 of loan 1 (due 2025-03-04) is no longer in the calendar (removed, or changed by another app).",
          send: "\u{04}"),
      ])
    #expect(outcome.stepsTaken == 3, "\(outcome.shown)")
    #expect(outcome.ending == .exited(0), "\(outcome.shown)")
    let after =
      outcome.shown.components(
        separatedBy: "is no longer in the calendar (removed, or changed by another app)."
      ).last ?? ""
    #expect(after.contains("loans> "), "the prompt is drawn again: \(outcome.shown)")
  }

  static func loanCount(_ home: SampleHome) throws -> Int {
    try home.database(app: "loan-scheduler", file: "loans.sqlite").read { db in
      try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM loan") ?? 0
    }
  }

  // MARK: Views

  @Test func agendaAndMonthShowThePaymentsOnly() throws {
    // An event of the person's own in the same calendar is not a payment.
    var run = try session("new Claire 1320.38 0 3 daily 2025-03-02\n1\n")
    let store = try home.store()
    let dentist = EKEvent(eventStore: store)
    dentist.title = "Dentist"
    dentist.startDate = Loans.day("2025-03-12").addingTimeInterval(9 * 3600)
    dentist.endDate = dentist.startDate.addingTimeInterval(3600)
    dentist.calendar = store.defaultCalendarForNewEvents
    try store.save(dentist, span: .thisEvent)

    run = try session(
      "agenda 2025-03-01\nmonth 2025-03\nagenda 2025-03-10\nagenda soon\nmonth 2025-13\n")
    #expect(
      run.output.contains(
        "loans> agenda 2025-03-01\nSaturday 1 March 2025\n  No payments\n"
          + "Sunday 2 March 2025\n  all day      Claire owes $440.13 (repeats) · Calendar\n"
          + "Monday 3 March 2025\n  all day      Claire owes $440.13 (repeats) · Calendar\n"
          + "Tuesday 4 March 2025\n  all day      Claire owes $440.12 (repeats) · Calendar\n"
          + "Wednesday 5 March 2025\n  No payments\n"))
    #expect(run.output.contains(" 3* 4* 5  6  7  8  9\n10 11 12 13 14 15 16\n"))
    #expect(!run.output.contains("Dentist"))
    #expect(run.output.contains("* a day with payments\n"))
    // An occurrence another app changed on its own is still a payment.
    let series = try #require(try rows()[0].eventIdentifier)
    let second = try #require(
      store.events(
        matching: store.predicateForEvents(
          withStart: Loans.day("2025-03-03"), end: Loans.day("2025-03-04"), calendars: nil)
      ).first { $0.eventIdentifier == series })
    second.title = "Claire owes $440.13 (late)"
    try store.save(second, span: .thisEvent)
    #expect(
      run.output.contains(
        "Error: 'soon' is not a date; give one such as 2025-03-01, today or tomorrow"))
    #expect(run.output.contains("Error: '2025-13' is not a month; give one such as 2025-03"))
    let later = try session("agenda 2025-03-03\n")
    #expect(
      later.output.contains(
        "Monday 3 March 2025\n  all day      Claire owes $440.13 (late) (repeats)"))
  }

  // MARK: Messages

  @Test func countsAndDatesAreSaidAsPeopleSayThem() throws {
    let run = try session(
      "new Hal 90 0 3 \"every 3 days\" 2025-03-02\n1\nnew Ivy 10 0 1 monthly 2025-03-05\n"
        + "loans\nnew Jo 10 0 1 daily 1800-01-01\nnew Jo 10\n")
    #expect(
      run.output.contains("Loan 1: Hal owes $90.00, 3 payments every 3 days from 2025-03-02."))
    #expect(run.output.contains("Loan 2: Ivy owes $10.00, 1 monthly payment from 2025-03-05."))
    #expect(run.output.contains("3 payments every 3 days from 2025-03-02, 0 paid"))
    #expect(
      run.output.contains(
        "Error: give a first due date between the years 1900 and 2900; 1800-01-01 is outside them"
      ))
    #expect(
      run.output.contains(
        "Error: a loan's terms are six: CONTACT AMOUNT RATE PAYMENTS FREQUENCY FIRST-DUE, or none "
          + "to be asked for each\n"))
    let words = try session(
      "new Kim 100 0 3 every 3 days 2025-03-02\nnew Kim 100 0 3 daily 2025-03-02 --single\n"
        + "show --help\nreschedule 1 1 1800-01-01\n")
    #expect(
      words.output.contains(
        "Error: 2 unexpected arguments: 'days', '2025-03-02'\n"
          + "Usage: new [<contact>] [<amount>] [<rate>] [<payments>] [<frequency>] [<first-due>] "
          + "[--single-events]\n  See 'new --help' for more information.\n"
          + "  A value of several words goes in quotes: \"Villa Lario\".\n"))
    #expect(words.output.contains("Error: Unknown option '--single'\nUsage: new"))
    #expect(
      words.output.contains(
        "loans> show --help\nOVERVIEW: Shows a loan's schedule: days, amounts, paid, events.\n\n"
          + "USAGE: show <loan>\n"))
    #expect(
      words.output.contains(
        "Error: give a day between the years 1900 and 2900; 1800-01-01 is outside them"))
  }

  @Test func startingWrongSaysWhatIsWrong() throws {
    let unknown = try SampleRun.session("loan-scheduler", "", arguments: ["--verbose"], home: home)
    #expect(unknown.status == 64)
    #expect(
      unknown.output.contains(
        "Error: Unknown option '--verbose'\nUsage: loan-scheduler [--now <iso-date-time>]\n"
          + "  See 'loan-scheduler --help' for more information.\n"))
    // The data folder cannot be made where a file is.
    let file = home.url.appendingPathComponent("loan-scheduler")
    _ = FileManager.default.createFile(atPath: file.path, contents: Data("not a folder".utf8))
    let blocked = try session("loans\n")
    #expect(blocked.status == 1)
    #expect(blocked.output.contains("loan-scheduler: cannot start: cannot create"))
    #expect(!blocked.output.contains("NSCocoaErrorDomain"))
  }
}
