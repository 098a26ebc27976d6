import Foundation
import GRDB
import OpenEventKit
import TestSupport
import Testing

/// wedding-planner driven as a couple would drive it, piped, on a temporary store: what it
/// writes is read back from the store by the test.
@Suite struct WeddingPlannerTests {
  let home: SampleHome

  static let app = "org.openeventkit.wedding-planner"
  /// Monday 23 November 2026, 10:00 in Paris.
  static let now = ["--now", "2026-11-23T10:00"]
  /// The answers to the editor's ten fields (each kept) and its save question.
  static let keepAndSave = String(repeating: "\n", count: 11)

  init() throws { home = try SampleHome() }

  func decide(_ decision: String) throws {
    try home.decide(decision, app: Self.app, entity: "events")
  }

  @discardableResult
  func session(_ input: String) throws -> (output: String, status: Int32) {
    try SampleRun.session("wedding-planner", input, arguments: Self.now, home: home)
  }

  func running(_ input: String, until shown: String) throws -> SampleRun {
    let run = try SampleRun(executable: "wedding-planner", arguments: Self.now, home: home)
    run.send(input)
    try run.wait(for: shown)
    return run
  }

  func date(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

  /// Every event of 2026–2028 in `calendar` (titled), by start.
  func events(in calendar: String? = nil, store: EKEventStore) -> [EKEvent] {
    let calendars = calendar.map { title in
      store.calendars(for: .event).filter { $0.title == title }
    }
    let predicate = store.predicateForEvents(
      withStart: date("2026-01-01T00:00:00Z"), end: date("2028-12-31T00:00:00Z"),
      calendars: calendars)
    return store.events(matching: predicate).sorted { $0.startDate < $1.startDate }
  }

  /// The plan a couple makes first: the day in Rome's zone, the ceremony, a tasting through
  /// the editor, and the fittings.
  static let plan = """
    wedding 2027-06-12 "Villa Lario" --zone Europe/Rome
    ceremony 15:30
    add tasting 2027-05-14 15:00 --vendor "Sweet Things"
    \(keepAndSave)fittings 2027-04-03 10:00

    """

  @Test func aQuotedWhenReadsAsItsWordsTypedApart() throws {
    try decide("full")
    let quoted = Self.plan.replacingOccurrences(
      of: "fittings 2027-04-03 10:00", with: "fittings \"2027-04-03 10:00\"")
    let run = try session(quoted + "move-fitting 2 \"2027-04-12 18:00\"\n")
    #expect(!run.output.contains("is not a day and a time"), "\(run.output)")
    let fittings = events(in: "Wedding", store: try home.store()).filter {
      $0.title?.contains("fitting") == true
    }
    #expect(fittings.first?.startDate == date("2027-04-03T08:00:00Z"), "\(run.output)")
    #expect(fittings.contains { $0.startDate == date("2027-04-12T16:00:00Z") }, "\(run.output)")
  }

  // MARK: On a terminal

  @Test func onATerminalTheNoticeComesWhileThePromptWaits() throws {
    try decide("full")
    try session(Self.plan)
    let home = self.home
    let outcome = try PseudoTerminal.run(
      BuildProducts.executable("wedding-planner"), arguments: Self.now,
      environment: home.environment,
      steps: [
        .after("wedding> ", send: "plan\r"),
        .after(
          "Dress fitting",
          .run {
            // Another app deletes the Wedding calendar.
            guard let store = try? home.store(),
              let wedding = store.calendars(for: .event).first(where: { $0.title == "Wedding" })
            else { return }
            try? store.removeCalendar(wedding, commit: true)
          }),
        // Nothing typed: the notice comes on its own, and the prompt is drawn again below it.
        .after("'restore' makes it again, with the plan's appointments.", send: "\u{04}"),
      ])
    #expect(outcome.stepsTaken == 3, "\(outcome.shown)")
    #expect(outcome.ending == .exited(0), "\(outcome.shown)")
    #expect(
      outcome.shown.contains("Calendar: The \"Wedding\" calendar was deleted in another app"),
      "\(outcome.shown)")
    let after = outcome.shown.components(separatedBy: "plan's appointments.").last ?? ""
    #expect(after.contains("wedding> "), "the prompt is drawn again: \(outcome.shown)")
  }

  // MARK: The calendar, the day, the editor

  @Test func aWholePlanLandsOnAWeddingCalendarMadeOnce() throws {
    try decide("full")
    let run = try session(Self.plan + "plan\n")
    #expect(run.status == 0, "\(run.output)")
    #expect(run.output.components(separatedBy: "Made the calendar \"Wedding\"").count - 1 == 1)
    let store = try home.store()
    #expect(store.calendars(for: .event).filter { $0.title == "Wedding" }.count == 1)
    let events = events(in: "Wedding", store: store)
    let day = try #require(events.first { $0.title == "Wedding day" })
    #expect(day.isAllDay)
    #expect(day.location == "Villa Lario")
    #expect(day.url?.absoluteString == "wedding-planner://item/1")
    #expect(
      DateText(timeZone: TimeZone(identifier: "Europe/Paris")!).day(day.startDate)
        == "Sat 12 Jun 2027")
    let ceremony = try #require(events.first { $0.title == "Ceremony" })
    #expect(ceremony.timeZone?.identifier == "Europe/Rome")
    #expect(ceremony.startDate == date("2027-06-12T13:30:00Z"))
    let tasting = try #require(events.first { $0.title == "Tasting: Sweet Things" })
    #expect(tasting.location == "Sweet Things")
    #expect(tasting.url?.absoluteString == "wedding-planner://item/3")
    #expect(tasting.startDate == date("2027-05-14T13:00:00Z"))
    #expect(tasting.endDate == date("2027-05-14T14:00:00Z"))
    #expect(tasting.alarms?.map(\.relativeOffset) == [-86_400, -3_600])
    // Weekly from 3 April until 29 May (two weeks before the day): nine, one series.
    let fittings = events.filter { $0.title == "Dress fitting" }
    #expect(fittings.count == 9)
    #expect(Set(fittings.map(\.eventIdentifier)).count == 1)
    #expect(fittings.last?.startDate == date("2027-05-29T08:00:00Z"))
    #expect(
      run.output.contains(
        "  3  Tasting: Sweet Things  Fri 14 May 2027 15:00–16:00  planned  on \"Wedding\""),
      "\(run.output)")
    #expect(run.output.contains("9 times, on \"Wedding\""))
  }

  @Test func theEditorGetsTheBuiltEventAndKeepsWhatIsChanged() throws {
    try decide("full")
    let run = try session(
      """
      wedding 2027-06-12 "Villa Lario"
      add florist 2027-05-20 11:00 --at "Rue des Fleurs 3"
      Flowers with Anna
      \(String(repeating: "\n", count: 9))
      add rehearsal 2027-06-11 18:00
      \(String(repeating: "\n", count: 10))cancel
      plan

      """)
    #expect(run.status == 0, "\(run.output)")
    #expect(run.output.contains("Title [Florist]: Flowers with Anna"))
    #expect(run.output.contains("Location [Rue des Fleurs 3]: "))
    #expect(run.output.contains("Alarms [1 day before, 1 hour before]: "))
    #expect(run.output.contains("URL [wedding-planner://item/2]: "))
    #expect(
      run.output.contains(
        "Added 2: Flowers with Anna, Thu 20 May 2027 11:00–12:00, on \"Wedding\"."))
    #expect(run.output.contains("Nothing added."))
    let events = events(in: "Wedding", store: try home.store())
    #expect(events.map(\.title) == ["Flowers with Anna", "Wedding day"])
  }

  @Test func aCeremonyAtAVenueInAnotherZoneKeepsItsTimeThereAcrossADSTChange() throws {
    try decide("full")
    // Paris changes to summer time on 28 March 2027, New York on 14 March: on 20 March they
    // are five hours apart, on 3 April six.
    let run = try session(
      """
      wedding 2027-03-20 "Hudson Hall" --zone America/New_York
      ceremony 3:30pm
      wedding 2027-04-03 "Hudson Hall" --zone America/New_York

      """)
    #expect(run.status == 0, "\(run.output)")
    #expect(
      run.output.contains(
        "Ceremony: Sat 20 Mar 2027 20:30–21:30 (15:30–16:30 America/New_York), at Hudson Hall."),
      "\(run.output)")
    #expect(
      run.output.contains(
        "Ceremony: Sat 3 Apr 2027 21:30–22:30 (15:30–16:30 America/New_York), at Hudson Hall."))
    let ceremony = try #require(events(store: try home.store()).first { $0.title == "Ceremony" })
    #expect(ceremony.timeZone?.identifier == "America/New_York")
    #expect(ceremony.startDate == date("2027-04-03T19:30:00Z"))
    let day = try #require(events(store: try home.store()).first { $0.title == "Wedding day" })
    #expect(day.isAllDay)
    #expect(
      DateText(timeZone: TimeZone(identifier: "Europe/Paris")!).day(day.startDate)
        == "Sat 3 Apr 2027")
  }

  /// `cancel` takes off the whole series even when it began more than a year before today,
  /// out of the window the plan is fetched in: the recorded identifier finds its start.
  @Test func cancelTakesOffASeriesThatBeganBeforeTheWindow() throws {
    try decide("full")
    let early = try SampleRun.session(
      "wedding-planner",
      "wedding 2027-06-12 \"Villa Lario\" --zone Europe/Rome\nfittings 2025-02-01 10:00\n",
      arguments: ["--now", "2025-01-10T10:00"], home: home)
    #expect(early.status == 0, "\(early.output)")
    let run = try session("cancel 2\n")
    #expect(run.output.contains("Cancelled Dress fitting; it is off the calendar."), "\(run)")
    let store = try home.store()
    let predicate = store.predicateForEvents(
      withStart: date("2025-01-01T00:00:00Z"), end: date("2027-12-31T00:00:00Z"), calendars: nil)
    let left = store.events(matching: predicate).filter { $0.title == "Dress fitting" }
    #expect(left.isEmpty, "left: \(left.map(\.startDate))")
  }

  /// A copy of the plan in another calendar (the Wedding calendar exported, imported into
  /// "Backup") carries the same URLs: with the item's own event removed by another app,
  /// `show` and `cancel` do not take the copy for it, nor remove it.
  @Test func aCopyOfThePlanInAnotherCalendarIsNotCancelled() throws {
    try decide("full")
    #expect(try session(Self.plan).status == 0)
    let store = try home.store()
    let wedding = try #require(store.calendars(for: .event).first { $0.title == "Wedding" })
    let copy = try store.exportICalendar(calendars: [wedding])
    _ = try store.importICalendar(copy, calendarTitle: "Backup")
    let copied = events(in: "Backup", store: store).filter { $0.title == "Dress fitting" }.count
    #expect(copied > 1)
    let fittings = try #require(
      events(in: "Wedding", store: store).first { $0.title == "Dress fitting" })
    try store.remove(fittings, span: .futureEvents, commit: true)
    let run = try session("show 4\ncancel 4\n")
    #expect(!run.output.contains("Backup"), "\(run.output)")
    let backup = events(in: "Backup", store: try home.store())
    #expect(
      backup.filter { $0.title == "Dress fitting" }.count == copied, "\(backup.map(\.title))")
  }

  /// The plan made with full access, and a copy of its calendar imported as "Shared copy"
  /// (an export another app imported): the copy's events carry the items' URLs too.
  func planWithACopy() throws -> EKEventStore {
    try decide("full")
    #expect(try session(Self.plan).status == 0)
    let store = try home.store()
    let wedding = try #require(store.calendars(for: .event).first { $0.title == "Wedding" })
    _ = try store.importICalendar(
      try store.exportICalendar(calendars: [wedding]), calendarTitle: "Shared copy")
    return store
  }

  /// A copy of the plan in another calendar beside the Wedding calendar: each item is its
  /// events in the calendar of its recorded event; `plan` counts the fittings once, and a
  /// command that changes them records no copy's identifier.
  @Test func aCopyOfThePlanBesideItIsNotCountedNorRecorded() throws {
    let store = try planWithACopy()
    let before = events(in: "Shared copy", store: store).filter { $0.title == "Dress fitting" }
      .count
    let run = try session("fittings-from 1 2027-04-03 11:00\nplan\n")
    #expect(run.status == 0, "\(run.output)")
    #expect(!run.output.contains("Shared copy"), "\(run.output)")
    let copied = events(in: "Shared copy", store: try home.store())
    #expect(copied.filter { $0.title == "Dress fitting" }.count == before, "\(copied.map(\.title))")
  }

  /// With an item's own events removed by another app, a copy of the plan in another calendar
  /// is not taken for it: `plan` says it is not on the calendar and `fittings-from` moves
  /// nothing there (both took the copy's events for the item before).
  @Test func aCopyOfThePlanAloneIsNotTakenForAnItemWhoseEventsWereRemoved() throws {
    let store = try planWithACopy()
    let copied = events(in: "Shared copy", store: store).map(\.startDate)
    let fitting = try #require(
      events(in: "Wedding", store: store).first { $0.title == "Dress fitting" })
    try store.remove(fitting, span: .futureEvents, commit: true)
    let run = try session("plan\nfittings-from 1 2027-04-25 11:00\nplan\n")
    #expect(run.output.contains("not on the calendar"), "\(run.output)")
    #expect(run.output.contains("Error: There are no fittings left."), "\(run.output)")
    #expect(!run.output.contains("Shared copy"), "\(run.output)")
    #expect(events(in: "Shared copy", store: try home.store()).map(\.startDate) == copied)
  }

  /// `cancel` after a move, a split and an exception on the first fitting: the item is two
  /// series (the original one standing for a detached first occurrence) and a detached
  /// occurrence with an identifier of its own; each series is removed once, from its first
  /// occurrence, and the other items' events stay.
  @Test func cancelTakesOffEverySeriesASplitAndAMoveLeft() throws {
    try decide("full")
    let run = try session(Self.planMovedAndSplit + "cancel-fitting 1\ncancel 4\n")
    #expect(run.status == 0, "\(run.output)")
    #expect(run.output.contains("Cancelled Dress fitting; it is off the calendar."))
    try expectNoFittingLeft()
  }

  /// The plan with its second fitting moved alone and the fittings from the fourth on split off.
  static let planMovedAndSplit =
    plan + "move-fitting 2 2027-04-12 18:00\nfittings-from 4 2027-04-25 11:00\n"

  /// No fitting left in the Wedding calendar, and the other items' three events still there.
  func expectNoFittingLeft() throws {
    let left = events(in: "Wedding", store: try home.store())
    #expect(!left.contains { $0.title == "Dress fitting" }, "\(left.map(\.startDate))")
    #expect(left.count == 3, "\(left.map(\.title))")
  }

  /// `cancel-fittings-from 1` after a move and a split: the fittings are two series and a
  /// detached occurrence; each series is cut (the first from its first occurrence, whole), the
  /// moved one goes with its series, and no fitting is left (the split-off series was left).
  @Test func cancelFittingsFromCutsEverySeriesASplitLeft() throws {
    try decide("full")
    let run = try session(Self.planMovedAndSplit + "cancel-fittings-from 1\n")
    #expect(run.status == 0, "\(run.output)")
    try expectNoFittingLeft()
  }

  // MARK: The fittings, with spans

  @Test func eachFittingCommandChangesTheRightOccurrences() throws {
    try decide("full")
    let run = try running(Self.plan, until: "9  Sat 29 May 2027 10:00–11:00")
    let store = try home.store()
    func fittings() -> [EKEvent] {
      store.refreshSourcesIfNecessary()
      return events(in: "Wedding", store: store).filter { $0.title == "Dress fitting" }
    }
    let series = try #require(fittings().first?.eventIdentifier)
    // This event: the second fitting moves alone, detached from the series.
    run.send("move-fitting 2 2027-04-12 18:00\n")
    try run.wait(for: "2  Mon 12 Apr 2027 18:00–19:00  moved")
    var now = fittings()
    #expect(now.count == 9)
    #expect(now[1].isDetached)
    #expect(now[1].startDate == date("2027-04-12T16:00:00Z"))
    #expect(now.filter { !$0.isDetached }.allSatisfy { $0.eventIdentifier == series })
    // Future events: the fourth and the later ones move to Sundays at 11:00; the series is
    // split, and the new one ends where the old did (two weeks before the day).
    run.send("fittings-from 4 2027-04-25 11:00\n")
    try run.wait(for: "8  Sun 23 May 2027 11:00–12:00")
    now = fittings()
    #expect(now.count == 8)
    #expect(
      Array(now[3...]).map(\.startDate) == [
        date("2027-04-25T09:00:00Z"), date("2027-05-02T09:00:00Z"), date("2027-05-09T09:00:00Z"),
        date("2027-05-16T09:00:00Z"), date("2027-05-23T09:00:00Z"),
      ])
    let split = now[3].eventIdentifier
    #expect(split != series)
    #expect(now[4...].allSatisfy { $0.eventIdentifier == split })
    #expect(now[0].eventIdentifier == series && now[2].eventIdentifier == series)
    // This event: the first is cancelled alone.
    run.send("cancel-fitting 1\n")
    try run.wait(for: "cancel-fitting 1\nBefore:")
    try run.wait(for: "7  Sun 23 May 2027 11:00–12:00")
    now = fittings()
    #expect(now.count == 7)
    #expect(now[0].startDate == date("2027-04-12T16:00:00Z"))
    // Future events: the fifth on are cancelled: the new series ends before it.
    run.send("cancel-fittings-from 5\n")
    try run.wait(for: "cancel-fittings-from 5\nBefore:")
    let output = try run.finish().output
    now = fittings()
    #expect(
      now.map(\.startDate) == [
        date("2027-04-12T16:00:00Z"), date("2027-04-17T08:00:00Z"), date("2027-04-25T09:00:00Z"),
        date("2027-05-02T09:00:00Z"),
      ])
    #expect(
      output.contains(
        """
        After:
          1  Mon 12 Apr 2027 18:00–19:00  moved
          2  Sat 17 Apr 2027 10:00–11:00
          3  Sun 25 Apr 2027 11:00–12:00
          4  Sun 2 May 2027 11:00–12:00

        """), "\(output)")
    // Issue 41: `ekctl show` of each series shows the series, and names the last occurrence
    // left, not the UNTIL the cut left just before 9 May.
    // The original series: its first fitting cancelled, its second moved, cut before the 24th.
    let original = try home.ekctl(["show", series])
    #expect(original.status == 0, "\(original.output)")
    for line in [
      "Title         Dress fitting\n", "Starts        Sat 10 Apr 2027 10:00\n",
      "Repeats       Weekly, last on 17 April 2027\n", "Removed       Sat 3 Apr 2027 10:00\n",
      "Detached      the occurrence of Sat 10 Apr 2027 10:00 is now Mon 12 Apr 2027 18:00: "
        + "Dress fitting (\(now[0].calendarItemIdentifier))\n",
      "Last          Sat 17 Apr 2027 10:00\n",
    ] {
      #expect(original.output.contains(line), "\(original.output)")
    }
    // The split, cut before 9 May: its UNTIL is 9 May 08:59:59 UTC, its last fitting 2 May.
    let rest = try home.ekctl(["show", try #require(split)])
    #expect(rest.status == 0, "\(rest.output)")
    #expect(rest.output.contains("Repeats       Weekly, last on 2 May 2027\n"), "\(rest.output)")
    #expect(rest.output.contains("Last          Sun 2 May 2027 11:00\n"))
    #expect(!rest.output.contains("until"))
  }

  /// What the wedding article says of its alarms, as the alarm agent's listing sees them: a
  /// day and an hour before each fitting, a moved one at its new time, a cancelled one not
  /// at all; the day itself at 09:00 the day before, beside the ceremony's day-before alarm.
  @Test func theAgentFiresEachFittingsTwoAlarmsAndTheDaysOne() throws {
    try decide("full")
    let run = try session(Self.plan + "move-fitting 2 2027-04-12 18:00\ncancel-fitting 3\n")
    #expect(run.status == 0, "\(run.output)")
    func fired(_ from: String, _ to: String) throws -> [String] {
      let alarms = try home.ekctl([
        "alarms", "--from", from, "--to", to, "--calendar", "Wedding",
      ])
      #expect(alarms.status == 0, "\(alarms.output)")
      return alarms.output.split(separator: "\n").map {
        let fields = $0.components(separatedBy: "  ")
        return fields[0] + " " + fields[1]
      }
    }
    #expect(
      try fired("2027-04-01", "2027-04-20") == [
        "2027-04-02T10:00:00 Dress fitting", "2027-04-03T09:00:00 Dress fitting",
        "2027-04-11T18:00:00 Dress fitting", "2027-04-12T17:00:00 Dress fitting",
      ])
    #expect(
      try fired("2027-06-11", "2027-06-12") == [
        "2027-06-11T09:00:00 Wedding day", "2027-06-11T15:30:00 Ceremony",
      ])
  }

  @Test func fittingNumbersAndStartsAreChecked() throws {
    try decide("full")
    let run = try session(
      """
      fittings 2027-04-03 10:00
      wedding 2027-06-12 "Villa Lario"
      fittings 2027-06-01 10:00
      fittings 2027-04-03 10:00
      fittings 2027-04-10 10:00
      move-fitting 12 2027-04-12 18:00
      move-fitting 2 someday

      """)
    #expect(run.status == 1)
    #expect(run.output.contains("fittings 2027-04-03 10:00\nError: Set the day first"))
    #expect(
      run.output.contains("Error: The fittings end two weeks before the day, on Sat 29 May 2027"))
    #expect(run.output.contains("Error: The fittings are planned already, as item 2"))
    #expect(run.output.contains("Error: There is no fitting 12; they are numbered 1 to 9."))
    #expect(run.output.contains("Error: 'someday' is not a day and a time"))
  }

  // MARK: The plan's items

  @Test func countdownSkipsAnItemWhoseEventAnotherAppRemoved() throws {
    try decide("full")
    var run = try session(
      "wedding 2027-06-12 \"Villa Lario\"\nceremony 15:30\nfittings 2027-04-03 10:00\ncountdown\n")
    #expect(run.status == 0, "\(run.output)")
    #expect(run.output.contains("Next: Dress fitting, Sat 3 Apr 2027 10:00."), "\(run.output)")
    // Another app removes the fittings. series: the day itself is next.
    let store = try home.store()
    let fitting = try #require(
      events(in: "Wedding", store: store).first { $0.title == "Dress fitting" })
    try store.remove(fitting, span: .futureEvents, commit: true)
    run = try session("countdown\n")
    #expect(run.status == 0, "\(run.output)")
    #expect(run.output.contains("Next: Wedding day, Sat 12 Jun 2027 00:00."), "\(run.output)")
  }

  /// The day, the ceremony and the weekly fittings, made with full access: a store of
  /// another app's, and the fittings' first occurrence in it.
  func dayCeremonyAndFittings() throws -> (EKEventStore, EKEvent) {
    try decide("full")
    let run = try session(
      "wedding 2027-06-12 \"Villa Lario\"\nceremony 15:30\nfittings 2027-04-03 10:00\n")
    #expect(run.status == 0, "\(run.output)")
    let store = try home.store()
    let first = try #require(
      events(in: "Wedding", store: store).first { $0.title == "Dress fitting" })
    return (store, first)
  }

  /// `countdown` says the next occurrence as the calendar has it: with the first fitting
  /// removed by another app, the second is next (it named the first, as the plan recorded it).
  @Test func countdownSaysTheNextOccurrenceAsTheCalendarHasIt() throws {
    let (store, first) = try dayCeremonyAndFittings()
    var run: (output: String, status: Int32)
    try store.remove(first, span: .thisEvent, commit: true)
    run = try session("countdown\n")
    #expect(run.output.contains("Next: Dress fitting, Sat 10 Apr 2027 10:00."), "\(run.output)")
  }

  /// `show` of the fittings after another app moved the first one on its own: the view shows
  /// the series as its row has it, and the moved fitting is said beside it (it was not).
  @Test func showSaysTheOccurrencesMovedOnTheirOwn() throws {
    let (store, first) = try dayCeremonyAndFittings()
    var run: (output: String, status: Int32)
    first.startDate = first.startDate.addingTimeInterval(-16 * 3600)  // Fri 2 Apr, 18:00
    first.endDate = first.endDate.addingTimeInterval(-16 * 3600)
    try store.save(first, span: .thisEvent, commit: true)
    run = try session("show 3\n")
    #expect(run.status == 0, "\(run.output)")
    #expect(
      run.output.contains("Moved on their own or split off: Fri 2 Apr 2027 18:00 (Dress fitting)."),
      "\(run.output)")
  }

  /// `show` of the fittings once the only one left is the first, moved on its own (another
  /// app removed the others): the view shows it where it is, not the series' row's time.
  @Test func showOfASeriesLeftWithOnlyAMovedOccurrenceShowsThatOne() throws {
    let (store, first) = try dayCeremonyAndFittings()
    let second = try #require(
      events(in: "Wedding", store: store).filter { $0.title == "Dress fitting" }.dropFirst().first)
    try store.remove(second, span: .futureEvents, commit: true)
    first.startDate = first.startDate.addingTimeInterval(-16 * 3600)  // Fri 2 Apr, 18:00
    first.endDate = first.endDate.addingTimeInterval(-16 * 3600)
    try store.save(first, span: .thisEvent, commit: true)
    let run = try session("show 3\n")
    #expect(run.status == 0, "\(run.output)")
    #expect(run.output.contains("When        Fri 2 Apr 2027 18:00–19:00"), "\(run.output)")
    #expect(!run.output.contains("Moved on their own"), "\(run.output)")
  }

  /// Choosing another calendar is the couple's own doing: the plan seen from there is not told
  /// back as another app's change (it said the items were taken off and the calendar renamed).
  @Test func choosingAnotherCalendarIsNotToldBack() throws {
    try decide("full")
    #expect(try session(Self.plan).status == 0)
    let added = try home.ekctl(["calendars", "add", "Home", "--db", home.calendarDatabase.path])
    #expect(added.status == 0, "\(added.output)")
    let run = try session("plan\ncalendar\n2\ncountdown\n")
    #expect(run.output.contains("will go in \"Home\""), "\(run.output)")
    #expect(!run.output.contains("Calendar: "), "\(run.output)")
  }

  @Test func editAsksTheSpanOfARepeatingEventAndTheOtherCommandsWork() throws {
    try decide("full")
    let run = try session(
      """
      wedding 2027-06-12 "Villa Lario" --zone America/New_York
      ceremony 15:30
      fittings 2027-04-03 10:00
      edit 3



      2027-04-05T18:00
      2027-04-05T19:00






      this
      show 2
      done 2
      countdown
      week 2027-06-07
      month 2027-04
      cancel 3
      plan

      """)
    #expect(run.status == 0, "\(run.output)")
    #expect(run.output.contains("Repeat [Weekly, last on 29 May 2027]: "))
    #expect(run.output.contains("This is a repeating event."))
    #expect(
      run.output.contains(
        "  When        Sat 12 Jun 2027 21:30–22:30\n              Sat 12 Jun 2027 15:30–16:30 America/New_York"
      ))
    #expect(run.output.contains("Ceremony is done."))
    #expect(run.output.contains("201 days to go: Sat 12 Jun 2027 at Villa Lario."))
    #expect(
      run.output.contains(
        "Saturday 12 June 2027\n  all day      Wedding day · Wedding\n  21:30–22:30  Ceremony · Wedding"
      ))
    #expect(run.output.contains(" 5* 6  7  8  9 10*11"), "\(run.output)")
    #expect(run.output.contains("Cancelled Dress fitting; it is off the calendar."))
    #expect(
      run.output.contains(
        "  2  Ceremony       Sat 12 Jun 2027 21:30–22:30 (15:30–16:30 America/New_York)  done"))
    #expect(run.output.contains("cancelled  not on the calendar"))
    let events = events(in: "Wedding", store: try home.store())
    #expect(events.map(\.title) == ["Wedding day", "Ceremony"])
  }

  @Test func anItemFoundByItsURLIsItsSeriesNotTheFirstOccurrenceLeftWhole() throws {
    try decide("full")
    try session("wedding 2027-06-12 \"Villa Lario\"\nfittings 2027-04-03 10:00\n")
    // Another app moves the first fitting alone (a detached occurrence), and the fittings'
    // recorded identifier finds nothing any more (as after a sync): the app finds them by URL.
    let store = try home.store()
    let first = try #require(
      events(in: "Wedding", store: store).first { $0.title == "Dress fitting" })
    first.startDate = date("2027-04-04T08:00:00Z")
    first.endDate = date("2027-04-04T09:00:00Z")
    try store.save(first, span: .thisEvent, commit: true)
    let plan = try DatabaseQueue(
      path: home.url.appendingPathComponent("wedding-planner/wedding.sqlite").path)
    try plan.write { db in
      try db.execute(sql: "UPDATE item SET eventIdentifier = 'gone' WHERE kind = 'fittings'")
    }
    let run = try session("show 2\n")
    #expect(run.status == 0, "\(run.output)")
    // The series (its first occurrence, on its own day), not 10 April, the first left whole:
    // editing that one's "future events" would split the series instead of changing it all.
    #expect(run.output.contains("When        Sat 3 Apr 2027 10:00–11:00"), "\(run.output)")
  }

  @Test func theEditedOccurrenceAloneIsDetached() throws {
    try decide("full")
    let run = try session(
      """
      wedding 2027-06-12 "Villa Lario"
      fittings 2027-04-03 10:00
      edit 2



      2027-04-05T18:00
      2027-04-05T19:00






      this

      """)
    #expect(run.status == 0, "\(run.output)")
    let fittings = events(in: "Wedding", store: try home.store()).filter {
      $0.title == "Dress fitting"
    }
    #expect(fittings.count == 9)
    #expect(fittings[0].startDate == date("2027-04-05T16:00:00Z"))
    #expect(fittings[0].isDetached)
    #expect(fittings[1].startDate == date("2027-04-10T08:00:00Z"))
    #expect(fittings.filter(\.isDetached).count == 1)
  }

  // MARK: Conflicts

  @Test func conflictsAreFoundAcrossCalendars() throws {
    try decide("full")
    let ics = home.url.appendingPathComponent("sports.ics")
    try """
    BEGIN:VCALENDAR\r
    VERSION:2.0\r
    PRODID:-//test//EN\r
    BEGIN:VEVENT\r
    UID:golf@test\r
    DTSTAMP:20261101T000000Z\r
    DTSTART;TZID=Europe/Paris:20270514T140000\r
    DTEND;TZID=Europe/Paris:20270514T180000\r
    SUMMARY:Golf\r
    END:VEVENT\r
    BEGIN:VEVENT\r
    UID:dentist@test\r
    DTSTAMP:20261101T000000Z\r
    DTSTART;TZID=Europe/Paris:20270514T160000\r
    DTEND;TZID=Europe/Paris:20270514T170000\r
    SUMMARY:Dentist\r
    END:VEVENT\r
    END:VCALENDAR\r

    """.write(to: ics, atomically: true, encoding: .utf8)
    #expect(try home.ekctl(["import", ics.path, "--calendar", "Sports"]).status == 0)
    let run = try session(Self.plan + "conflicts\n")
    #expect(run.status == 0, "\(run.output)")
    #expect(
      run.output.contains(
        "Tasting: Sweet Things  Fri 14 May 2027 15:00–16:00  |  Golf (Sports)  Fri 14 May 2027 14:00–18:00"
      ),
      "\(run.output)")
    // Touching is not overlapping: the dentist starts when the tasting ends.
    #expect(!run.output.contains("Dentist"))
    // The holidays are marked free: 1 May is no conflict for the fitting that day.
    #expect(!run.output.contains("Workers"))
  }

  // MARK: Other apps' changes

  /// While `edit 3` waits in the editor, another process takes one fitting off: that is told
  /// after the command. The tasting the edit moves is the couple's own doing: not told.
  @Test func anotherAppsChangeWhileACommandRunsIsToldButNotTheCommandsOwn() throws {
    try decide("full")
    let run = try SampleRun(executable: "wedding-planner", arguments: Self.now, home: home)
    run.send(Self.plan + "edit 3\n")
    // The plan's `add` opened the editor once; the second header is `edit 3`'s.
    try run.wait(for: "cancel stops without saving.\n", count: 2)
    let fitting = try #require(
      events(in: "Wedding", store: try home.store()).first { $0.title == "Dress fitting" })
    let removal = try home.ekctl([
      "rm", fitting.eventIdentifier, "--occurrence", "2027-05-01",
      "--db", home.calendarDatabase.path,
    ])
    #expect(removal.status == 0, "\(removal.output)")
    // Title, place and all-day kept; the tasting moved two hours later; the rest kept; saved.
    run.send("\n\n\n2027-05-14T17:00\n2027-05-14T18:00\n\n\n\n\n\n\n")
    // Told at the first line read once the store posted its notice: poked until then.
    let told =
      "Calendar: Dress fitting now has 8 occurrences, none on Sat 1 May 2027 10:00 any more.\n"
    try run.poke(until: told)
    run.send("plan\n")
    let output = try run.finish().output
    #expect(output.components(separatedBy: told).count - 1 == 1, "\(output)")
    #expect(!output.contains("Tasting: Sweet Things now starts"), "\(output)")
    #expect(!output.contains("Calendar: Tasting"), "\(output)")
    let tasting = try #require(
      events(in: "Wedding", store: try home.store()).first { $0.title == "Tasting: Sweet Things" })
    #expect(tasting.startDate == date("2027-05-14T15:00:00Z"), "\(output)")
  }

  /// `edit 3` cancelled writes nothing: another app's move of that very item while the editor
  /// waited is told, not taken for the couple's own.
  @Test func aCancelledEditLeavesAnotherAppsChangeToTheSameItemTold() throws {
    try decide("full")
    let run = try SampleRun(executable: "wedding-planner", arguments: Self.now, home: home)
    run.send(Self.plan + "edit 3\n")
    try run.wait(for: "cancel stops without saving.\n", count: 2)
    let store = try home.store()
    let tasting = try #require(
      events(in: "Wedding", store: store).first { $0.title == "Tasting: Sweet Things" })
    tasting.startDate = tasting.startDate.addingTimeInterval(3600)
    tasting.endDate = tasting.endDate.addingTimeInterval(3600)
    try store.save(tasting, span: .thisEvent, commit: true)
    run.send(String(repeating: "\n", count: 10) + "cancel\n")
    try run.wait(for: "Nothing changed.\n")
    try run.poke(until: "Calendar: Tasting: Sweet Things now starts")
    let output = try run.finish().output
    #expect(output.contains("Tasting: Sweet Things now starts Fri 14 May 2027 16:00"), "\(output)")
  }

  /// Another app renames the fittings from the third on ("this and future"): the first
  /// fitting, their number and the title the plan shows are as they were, and the change is
  /// still told; then moves them an hour, told by their starts.
  @Test func anotherAppsChangeToLaterOccurrencesIsTold() throws {
    try decide("full")
    let run = try running(Self.plan + "plan\n", until: "Dress fitting")
    try run.waitUntilInputIsRead()
    let store = try home.store()
    let third = try #require(
      events(in: "Wedding", store: store).filter { $0.title == "Dress fitting" }.dropFirst(2)
        .first)
    third.title = "Dress fitting (new shop)"
    try store.save(third, span: .futureEvents, commit: true)
    let told = "Calendar: Some later occurrences of Dress fitting were renamed."
    try run.poke(until: told)
    // Then moved an hour later: told as where they no longer are, and where they are now.
    let renamed = try #require(
      events(in: "Wedding", store: store).first { $0.title == "Dress fitting (new shop)" })
    renamed.startDate = renamed.startDate.addingTimeInterval(3600)
    renamed.endDate = renamed.endDate.addingTimeInterval(3600)
    try store.save(renamed, span: .futureEvents, commit: true)
    try run.poke(until: "Calendar: Some later occurrences of Dress fitting were moved, none on ")
    let output = try run.finish().output
    #expect(output.components(separatedBy: told).count - 1 == 1, "\(output)")
    #expect(
      output.contains(
        "were moved, none on Sat 17 Apr 2027 10:00 and 6 later any more, now also on Sat 17 Apr "
          + "2027 11:00 and 6 later."), "\(output)")
  }

  /// The first fitting renamed on its own by another app, then a later one moved: the move is
  /// told by the item's name, not by the renamed first fitting's title.
  @Test func laterOccurrencesAreToldByTheItemsNameThoughTheFirstWasRenamed() throws {
    try decide("full")
    let run = try running(Self.plan + "plan\n", until: "Dress fitting")
    try run.waitUntilInputIsRead()
    let store = try home.store()
    let fittings = events(in: "Wedding", store: store).filter { $0.title == "Dress fitting" }
    let first = try #require(fittings.first)
    first.title = "Fit!"
    try store.save(first, span: .thisEvent, commit: true)
    try run.poke(until: "Calendar: The first Dress fitting is now \"Fit!\".")
    let third = try #require(fittings.dropFirst(2).first)
    third.startDate = third.startDate.addingTimeInterval(3600)
    third.endDate = third.endDate.addingTimeInterval(3600)
    try store.save(third, span: .thisEvent, commit: true)
    try run.poke(until: "Calendar: Some later occurrences of Dress fitting were moved")
    let output = try run.finish().output
    #expect(!output.contains("occurrences of Fit!"), "\(output)")
  }

  // MARK: The calendar deleted elsewhere

  @Test func aWeddingCalendarDeletedElsewhereIsSaidAndRestored() throws {
    try decide("full")
    let run = try running(
      Self.plan + "move-fitting 2 2027-04-12 18:00\n",
      until: "2  Mon 12 Apr 2027 18:00–19:00  moved")
    let store = try home.store()
    let wedding = try #require(store.calendars(for: .event).first { $0.title == "Wedding" })
    let before = events(in: "Wedding", store: store).map { "\($0.title ?? "") \($0.startDate!)" }
    // Deleted as the article's walkthrough does it, by another process.
    let removed = try home.ekctl(["calendars", "rm", "Wedding", "--yes"])
    #expect(removed.status == 0 && removed.output.hasPrefix("Removed \"Wedding\" and its "))
    try run.poke(until: "Calendar: The \"Wedding\" calendar was deleted in another app")
    run.send("add tasting 2027-05-20 15:00\nrestore\nplan\n")
    try run.wait(for: "4  Dress fitting")
    let output = try run.finish().output
    #expect(
      output.contains(
        "Calendar: The \"Wedding\" calendar was deleted in another app; 'restore' makes it again, "
          + "with the plan's appointments."), "\(output)")
    // Told once, before the next line read (an empty one: the test pokes the piped REPL until
    // it tells); the command after it is refused.
    let notice =
      "Calendar: The \"Wedding\" calendar was deleted in another app; 'restore' makes it "
      + "again, with the plan's appointments.\n"
    let refused = "Error: The \"Wedding\" calendar was deleted"
    #expect(output.components(separatedBy: notice).count - 1 == 1, "told once: \(output)")
    #expect(
      output.components(separatedBy: notice).last?.contains(
        "wedding> add tasting 2027-05-20 15:00\n" + refused) == true, "\(output)")
    #expect(output.contains("The \"Wedding\" calendar is back, with 5 events from the app's copy."))
    store.refreshSourcesIfNecessary()
    let restored = try #require(store.calendars(for: .event).first { $0.title == "Wedding" })
    #expect(restored.calendarIdentifier != wedding.calendarIdentifier)
    let after = events(in: "Wedding", store: store)
    #expect(after.map { "\($0.title ?? "") \($0.startDate!)" } == before)
    #expect(after.filter(\.isDetached).count == 1)
    #expect(
      output.contains(
        "  4  Dress fitting          Sat 3 Apr 2027 10:00–11:00   planned  9 times, on \"Wedding\"")
    )
  }

  /// The app's folder copied to another calendar database, into which the Wedding calendar
  /// was exported and imported: `plan` says the calendar it recorded is not there, and
  /// `restore` finds the imported events by their URLs.
  @Test func aPlanCopiedToAnotherDatabaseIsRestoredFromTheImport() throws {
    _ = try dayCeremonyAndFittings()
    let other = try home.copy(app: "wedding-planner", exporting: "Wedding", into: "Wedding")
    try other.decide("full", app: Self.app, entity: "events")
    let run = try SampleRun.session(
      "wedding-planner", "plan\nrestore\nplan\n", arguments: Self.now, home: other)
    #expect(run.output.contains(WeddingPlannerTests.deleted), "\(run.output)")
    #expect(
      run.output.contains("is back, with 0 events from the app's copy (3 there already)."),
      "\(run.output)")
    let after = run.output.components(separatedBy: "there already").last ?? ""
    #expect(!after.contains("not on the calendar"), "\(run.output)")
    #expect(after.contains("9 times, on \"Wedding\""), "\(run.output)")
  }

  static let deleted =
    "The \"Wedding\" calendar was deleted in another app; 'restore' makes it again, with the "
    + "plan's appointments."

  @Test func anEmptyWeddingCalendarDeletedElsewhereIsMadeAgain() throws {
    try decide("full")
    try session("wedding 2027-06-12 \"Villa Lario\"\ncancel 1\n")
    let store = try home.store()
    let wedding = try #require(store.calendars(for: .event).first { $0.title == "Wedding" })
    try store.removeCalendar(wedding, commit: true)
    let run = try session(
      "add tasting 2027-05-14 15:00\nrestore\nadd tasting 2027-05-14 15:00\n" + Self.keepAndSave)
    #expect(run.output.contains("Error: The \"Wedding\" calendar was deleted in another app"))
    #expect(run.output.contains("Made the calendar \"Wedding\" in Local for the plan."))
    #expect(
      run.output.contains("The \"Wedding\" calendar is back, with 0 events from the app's copy."))
    #expect(run.output.contains("Added 2: Tasting, Fri 14 May 2027 15:00–16:00, on \"Wedding\"."))
    store.refreshSourcesIfNecessary()
    #expect(events(in: "Wedding", store: store).map(\.title) == ["Tasting"])
  }

  /// The calendar still there: `restore` puts back the items whose events another app
  /// removed (the copy cannot: it is taken again without them), as the plan records them, and
  /// leaves the others and a cancelled item alone.
  @Test func restoreWithTheCalendarTherePutsBackWhatAnotherAppRemoved() throws {
    try decide("full")
    try session(Self.plan + "add florist 2027-05-20 11:00\n\(Self.keepAndSave)cancel 5\n")
    let store = try home.store()
    let removed = events(in: "Wedding", store: store).filter {
      ["Ceremony", "Tasting: Sweet Things"].contains($0.title)
    }
    #expect(removed.count == 2)
    for event in removed { try store.remove(event, span: .futureEvents, commit: true) }
    let run = try session("restore\nplan\nrestore\n")
    #expect(run.status == 0, "\(run.output)")
    #expect(
      run.output.contains(
        "Put back on \"Wedding\" what another app had taken off the calendar: Ceremony (item 2), "
          + "Tasting: Sweet Things (item 3)."), "\(run.output)")
    #expect(run.output.contains("The \"Wedding\" calendar is there; nothing to restore."))
    store.refreshSourcesIfNecessary()
    let back = events(in: "Wedding", store: store)
    let ceremony = try #require(back.first { $0.title == "Ceremony" })
    #expect(ceremony.startDate == date("2027-06-12T13:30:00Z"))  // 15:30 in Rome
    #expect(ceremony.timeZone?.identifier == "Europe/Rome")
    let tasting = try #require(back.first { $0.title == "Tasting: Sweet Things" })
    #expect(tasting.startDate == date("2027-05-14T13:00:00Z"))  // 15:00 in Paris
    #expect(tasting.alarms?.count == 2)
    #expect(!back.contains { $0.title == "Florist" }, "cancelled: not put back")
    #expect(back.filter { $0.title == "Dress fitting" }.count == 9)
  }

  @Test func restoreWithTheCalendarThereAndAnotherCalendarChosen() throws {
    try decide("full")
    let run = try session(
      """
      wedding 2027-06-12 "Villa Lario"
      restore
      calendar
      Calendar
      add tasting 2027-05-14 15:00
      \(Self.keepAndSave)
      """)
    #expect(run.status == 0, "\(run.output)")
    #expect(run.output.contains("The \"Wedding\" calendar is there; nothing to restore."))
    #expect(run.output.contains("Wedding appointments will go in \"Calendar\"."))
    #expect(run.output.contains("Added 2: Tasting, Fri 14 May 2027 15:00–16:00, on \"Calendar\"."))
    let store = try home.store()
    #expect(events(in: "Calendar", store: store).map(\.title) == ["Tasting"])
    #expect(events(in: "Wedding", store: store).map(\.title) == ["Wedding day"])
  }

  @Test func badInputIsRefusedBeforeAnythingIsAsked() throws {
    let run = try session(
      """
      wedding 12/06/2027 "Villa Lario"
      wedding 2027-06-12 "Villa Lario" --zone Mars/Olympus
      wedding 2027-06-12 "Villa Lario" --zone
      ceremony 15:30
      add tasting soon
      add ceremony 2027-05-14 15:00
      add "cake tasting" 2027-05-14 15:00
      show 7

      """)
    #expect(run.status == 1)
    #expect(run.output.contains("Error: Give the day as 2027-06-12, then the place"))
    #expect(
      run.output.contains(
        "Error: The value 'Mars/Olympus' is invalid for '--zone <tz>': 'Mars/Olympus' is not a "
          + "time zone; give one such as Europe/Rome.\n"))
    #expect(run.output.contains("Error: Missing value for '--zone <tz>'\n"))
    #expect(run.output.contains("ceremony 15:30\nError: Set the day first"))
    #expect(run.output.contains("Error: 'soon' is not a day and a time"))
    #expect(run.output.contains("Error: The ceremony has a command of its own"))
    #expect(
      run.output.contains("Error: A kind is one word, such as venue-visit, tasting or florist."))
    #expect(run.output.contains("Error: There is no item 7 in the plan; 'plan' lists them."))
    // Nothing was asked, and no store was made.
    #expect(!run.output.contains("Would Like"))
    #expect(!FileManager.default.fileExists(atPath: home.calendarDatabase.path))
  }

  // MARK: Access

  /// Full access taken down to write-only while the app runs: told as what the app may still
  /// do (add events), not as no use of the calendar at all; `add` then still adds.
  /// A policy that restricts access while the app runs is named as such, not as "may no
  /// longer use … To change that", which the person cannot.
  @Test func accessRestrictedWhileRunningIsToldAsRestricted() throws {
    try decide("full")
    let run = try running("wedding 2027-06-12 \"Villa Lario\"\nplan\n", until: "Wedding day")
    try decide("restricted")
    try run.poke(until: "Calendar: access to your calendar is now restricted on this system.")
    let output = try run.finish().output
    #expect(!output.contains("may no longer use your calendar"), "\(output)")
  }

  @Test func accessTakenDownToWriteOnlyIsToldAsAddingOnly() throws {
    try decide("full")
    let run = try running("wedding 2027-06-12 \"Villa Lario\"\nplan\n", until: "Wedding day")
    try decide("write-only")
    try run.poke(until: "Calendar: this app may now only add events to your calendar")
    run.send("add tasting 2027-05-14 15:00\n\(Self.keepAndSave)")
    try run.wait(for: "With write-only access, this goes in your default calendar")
    #expect(!run.output.contains("may no longer use your calendar"), "\(run.output)")
    // From write-only to none, and back: each told, for `add` comes and goes with them.
    try decide("denied")
    try run.poke(until: "Calendar: this app may no longer use your calendar")
    try decide("write-only")
    let again = "Calendar: this app may now only add events to your calendar"
    // Poked (a pipe has no idle prompt) until it is told the second time.
    let deadline = Date().addingTimeInterval(20)
    while run.output.components(separatedBy: again).count - 1 < 2, Date() < deadline {
      run.send("\n")
      try? run.wait(for: again, count: 2, timeout: 0.25)
    }
    let output = try run.finish().output
    #expect(output.components(separatedBy: again).count - 1 == 2, "\(output)")
  }

  @Test func withWriteOnlyAccessTheEventsGoToTheDefaultCalendar() throws {
    try decide("write-only")
    let run = try session(
      """
      wedding 2027-06-12 "Villa Lario"
      add tasting 2027-05-14 15:00
      \(Self.keepAndSave)fittings 2027-04-03 10:00
      conflicts
      week 2027-05-10
      plan
      cancel 1

      """)
    #expect(run.status == 1)
    #expect(!run.output.contains("Would Like"))
    #expect(
      run.output.contains(
        "With write-only access, this goes in your default calendar, \"Calendar\""))
    let needs =
      "needs full access to your calendar; this app may only add events. To change that: "
      + "ekctl privacy set --app \(Self.app) --entity events full"
    #expect(run.output.contains("Error: 'conflicts' \(needs)"), "\(run.output)")
    #expect(run.output.contains("Error: 'week' \(needs)"))
    #expect(run.output.contains("Error: 'cancel' \(needs)"))
    #expect(run.output.contains("Whether each is on the calendar needs full access"))
    #expect(run.output.contains("Listing them needs full access"))
    // The events are there, in the default calendar; no Wedding calendar was made.
    let store = try home.store()
    #expect(store.calendars(for: .event).allSatisfy { $0.title != "Wedding" })
    let titles = Set(events(in: "Calendar", store: store).map(\.title))
    #expect(titles == ["Wedding day", "Tasting", "Dress fitting"])
  }

  @Test func deniedNothingIsWritten() throws {
    try decide("denied")
    let run = try session("wedding 2027-06-12 \"Villa Lario\"\nplan\n")
    #expect(run.status == 1)
    #expect(run.output.contains("Error: This app does not have full access to your calendar."))
    #expect(run.output.contains("The plan is empty"))
    if FileManager.default.fileExists(atPath: home.calendarDatabase.path) {
      let store = try home.store()
      #expect(store.calendars(for: .event).allSatisfy { $0.title != "Wedding" })
      #expect(events(store: store).allSatisfy { $0.url == nil })
    }
  }
}
