import Foundation
import OpenEventKit
import TestSupport
import Testing

/// book-club, the model sample of WritingASample.md, driven as a person would: piped
/// sessions and a running one on a temporary store, with ekctl as the other app.
@Suite struct BookClubTests {
  let home: SampleHome
  static let app = "org.openeventkit.book-club"
  /// Wednesday 6 May 2026, noon in Paris (the samples' clock in tests).
  static let now = ["--now", "2026-05-06T12:00"]

  init() throws { home = try SampleHome() }

  func session(_ input: String) throws -> (output: String, status: Int32) {
    try SampleRun.session("book-club", input, arguments: Self.now, home: home)
  }

  /// The club's events in the store, whatever their series, over the coming year and a half.
  func clubEvents() throws -> [EKEvent] {
    let store = try home.store()
    let start = Date(timeIntervalSince1970: 1_777_000_000)  // April 2026
    let predicate = store.predicateForEvents(
      withStart: start, end: start.addingTimeInterval(550 * 86_400), calendars: nil)
    return store.events(matching: predicate).filter { $0.title.hasPrefix("Book club: ") }
  }

  /// A running session, access given, that has planned Dune's 12 meetings from 7 May.
  func runningWithMeetingsPlanned() throws -> SampleRun {
    try home.decide("full", app: Self.app, entity: "events")
    let run = try SampleRun(executable: "book-club", arguments: Self.now, home: home)
    run.send("plan 2026-05-07T19:00 Dune\n")
    do {
      try run.wait(for: "Planned 12 meetings")
      // The command takes its own change as shown when it ends, after saying so: another
      // app's change made before that would be taken for the command's.
      try run.waitUntilInputIsRead()
    } catch {
      run.stop()
      throw error
    }
    return run
  }

  @Test func plansListsAndCancelsTheMeetings() throws {
    try home.decide("full", app: Self.app, entity: "events")
    let run = try session(
      """
      plan 2026-05-07T19:00 Dune
      meetings
      cancel
      meetings

      """)
    #expect(run.status == 0, "\(run.output)")
    #expect(run.output.contains("Planned 12 meetings on Dune from Thu 7 May 2026 19:00."))
    // The twelve meetings of the coming year, each the 7th at 19:00, then none.
    #expect(run.output.components(separatedBy: " 19:00\n").count - 1 == 12, "\(run.output)")
    #expect(run.output.contains("Thu 7 May 2026 19:00") && run.output.contains("Sun 7 Mar 2027"))
    #expect(run.output.contains("The meetings are off the calendar."))
    #expect(try clubEvents().isEmpty)
  }

  @Test func aMeetingAnotherAppMovedIsStillListedAndCancelled() throws {
    try home.decide("full", app: Self.app, entity: "events")
    #expect(try session("plan 2026-05-07T19:00 Dune\n").status == 0)
    // Another app moves June's meeting to Monday 8 June, 20:00: a detached occurrence.
    let store = try home.store()
    let june7 = Date(timeIntervalSince1970: 1_780_851_600)  // Sunday 7 June, 19:00 in Paris
    let predicate = store.predicateForEvents(
      withStart: june7, end: june7.addingTimeInterval(3600), calendars: nil)
    let june = try #require(store.events(matching: predicate).first)
    june.startDate = june.startDate.addingTimeInterval(25 * 3600)
    june.endDate = june.startDate.addingTimeInterval(2 * 3600)
    try store.save(june, span: .thisEvent, commit: true)
    try expectListedThenCancelled(showing: "Mon 8 Jun 2026 20:00", atSeven: 11)
  }

  /// The first meeting moved earlier by another app: the series still starts on its old day,
  /// and the moved meeting, before it, is still one of the club's, told as moved.
  @Test func aFirstMeetingAnotherAppMovedEarlierIsStillCounted() throws {
    let run = try runningWithMeetingsPlanned()
    defer { run.stop() }
    let store = try home.store()
    let may7 = Date(timeIntervalSince1970: 1_778_173_200)  // Thursday 7 May, 19:00 in Paris
    let predicate = store.predicateForEvents(
      withStart: may7, end: may7.addingTimeInterval(3600), calendars: nil)
    let may = try #require(store.events(matching: predicate).first)
    may.startDate = may.startDate.addingTimeInterval(-2 * 86_400)  // to Tuesday 5 May
    may.endDate = may.startDate.addingTimeInterval(2 * 3600)
    try store.save(may, span: .thisEvent, commit: true)
    try run.poke(
      until: "Calendar: the meetings are 12, no longer on Thu 7 May 2026 19:00, "
        + "now on Tue 5 May 2026 19:00.")
  }

  @Test func aRefusalWritesNothingAndSaysHowToChangeIt() throws {
    try home.decide("denied", app: Self.app, entity: "events")
    let run = try session("plan 2026-05-07T19:00 Dune\n")
    #expect(run.status == 1)
    #expect(
      run.output.contains(
        "Error: This app does not have full access to your calendar. To change that: ekctl privacy "
          + "set --app \(Self.app) --entity events full"), "\(run.output)")
    #expect(try clubEvents().isEmpty)
  }

  /// Write-only beforehand: the upgrade's alert left unanswered is no answer, not a refusal
  /// (the status stays write-only either way); refused, it is not shown again, as on Apple's.
  @Test func writeOnlyAsksForFullAccessOnceAndNoAnswerIsNotARefusal() throws {
    try home.decide("write-only", app: Self.app, entity: "events")
    let unanswered = try session("meetings\n")
    #expect(unanswered.status == 1)
    #expect(
      unanswered.output.contains(
        "Error: No answer, so the app did not use your calendar; it will ask again next time."),
      "\(unanswered.output)")
    let refused = try session("meetings\n2\nmeetings\n")
    #expect(refused.status == 1)
    let alert = "Would Like Full Access to Your Calendar"
    #expect(refused.output.components(separatedBy: alert).count - 1 == 1, "\(refused.output)")
    let refusal = "Error: This app does not have full access to your calendar."
    #expect(refused.output.components(separatedBy: refusal).count - 1 == 2, "\(refused.output)")
  }

  @Test func anotherAppsChangeIsToldAndTheAppsOwnIsNot() throws {
    let run = try runningWithMeetingsPlanned()
    defer { run.stop() }
    let first = try #require(try clubEvents().first)
    // Another app (ekctl) removes the first meeting: the series now starts in June.
    let removed = try home.ekctl([
      "rm", first.eventIdentifier, "--occurrence", "2026-05-07T17:00:00Z",
    ])
    #expect(removed.status == 0, "\(removed.output)")
    // Told at the first line read once the store posted its notice (a pipe has no idle prompt).
    try run.poke(until: "Calendar: the meetings are 11, no longer on Thu 7 May 2026 19:00.")
    // A later meeting removed is news too, though the first stays.
    let august = try home.ekctl([
      "rm", first.eventIdentifier, "--occurrence", "2026-08-07T17:00:00Z",
    ])
    #expect(august.status == 0, "\(august.output)")
    try run.poke(until: "Calendar: the meetings are 10, no longer on Fri 7 Aug 2026 19:00.")
    // The app's own cancel is not told back; the next command's answer is the sentinel.
    run.send("cancel\nmeetings\n")
    try run.wait(for: "No meetings planned: 'plan'.")
    let (output, status) = try run.finish()
    #expect(status == 0)
    #expect(!output.contains("left the calendar"), "\(output)")
    #expect(output.contains("The meetings are off the calendar."))
  }

  /// Another copy of book-club (one home, one app database) plans a new book: told as the
  /// meetings from its first date (once the old ones left, if told between), not as 24 dates
  /// gone and come.
  @Test func aNewBookPlannedByAnotherCopyIsToldFromItsFirstMeeting() throws {
    let run = try runningWithMeetingsPlanned()
    defer { run.stop() }
    let other = try session("plan 2026-06-04T19:00 Emma\n")
    #expect(other.status == 0, "\(other.output)")
    try run.poke(until: "Calendar: the meetings are 12, from Thu 4 Jun 2026 19:00.")
    let (output, _) = try run.finish()
    #expect(!output.contains("no longer on"), "\(output)")
  }

  /// Another app's "this and future" change (a place for the meetings from September) makes
  /// them a series with a new UID: `meetings` still lists all twelve, by the club's title in
  /// its calendar, and `cancel` takes both series off (it left the later ones, saying all
  /// were off).
  @Test func meetingsAnotherAppSplitOffAreListedAndCancelled() throws {
    try home.decide("full", app: Self.app, entity: "events")
    #expect(try session("plan 2026-05-07T19:00 Dune\n").status == 0)
    let store = try home.store()
    let start = Date(timeIntervalSince1970: 1_788_800_400)  // 7 September 2026, 19:00 in Paris
    let september = try #require(
      store.events(
        matching: store.predicateForEvents(
          withStart: start, end: start.addingTimeInterval(3600), calendars: nil)
      ).first)
    september.location = "Library"
    try store.save(september, span: .futureEvents, commit: true)
    #expect(Set(try clubEvents().map(\.calendarItemExternalIdentifier)).count == 2)
    let run = try session("meetings\ncancel\n")
    #expect(run.status == 0, "\(run.output)")
    #expect(run.output.components(separatedBy: " 19:00\n").count - 1 == 12, "\(run.output)")
    #expect(run.output.contains("The meetings are off the calendar."))
    #expect(try clubEvents().isEmpty)
  }

  /// Another app's single event with the club's title, in the same calendar, is not a
  /// meeting: neither listed nor cancelled (a split-off part is a series of its own).
  @Test func anotherAppsSingleEventOfTheSameTitleIsNotAMeeting() throws {
    try home.decide("full", app: Self.app, entity: "events")
    #expect(try session("plan 2026-05-07T19:00 Dune\n").status == 0)
    let store = try home.store()
    let other = EKEvent(eventStore: store)
    other.title = "Book club: Dune"
    other.calendar = store.defaultCalendarForNewEvents
    other.startDate = Date(timeIntervalSince1970: 1_780_333_200)  // 1 June 2026, 19:00 in Paris
    other.endDate = other.startDate.addingTimeInterval(3600)
    try store.save(other, span: .thisEvent, commit: true)
    let run = try session("meetings\ncancel\n")
    #expect(run.status == 0, "\(run.output)")
    #expect(run.output.components(separatedBy: " 19:00\n").count - 1 == 12, "\(run.output)")
    #expect(!run.output.contains("Mon 1 Jun"), "\(run.output)")
    #expect(try clubEvents().map(\.eventIdentifier) == [other.eventIdentifier])
  }

  /// Another app moves the first meeting on its own and removes the later ones: the club's
  /// one meeting left is a detached occurrence, and `cancel` removes its series all the same.
  @Test func cancelRemovesASeriesWhoseMeetingsWereAllMovedOnTheirOwn() throws {
    try home.decide("full", app: Self.app, entity: "events")
    #expect(try session("plan 2026-05-07T19:00 Dune\n").status == 0)
    let store = try home.store()
    let start = Date(timeIntervalSince1970: 1_777_000_000)  // April 2026
    let meetings = store.events(
      matching: store.predicateForEvents(
        withStart: start, end: start.addingTimeInterval(90 * 86_400), calendars: nil)
    ).filter { $0.title == "Book club: Dune" }
    let (first, second) = (meetings[0], meetings[1])
    first.startDate = first.startDate.addingTimeInterval(1800)
    first.endDate = first.endDate.addingTimeInterval(1800)
    try store.save(first, span: .thisEvent, commit: true)
    try store.remove(second, span: .futureEvents, commit: true)
    #expect(try clubEvents().map(\.isDetached) == [true])
    let run = try session("cancel\nmeetings\n")
    #expect(run.status == 0, "\(run.output)")
    #expect(run.output.contains("The meetings are off the calendar."), "\(run.output)")
    #expect(try clubEvents().isEmpty)
  }

  @Test func aStartItCannotReadChangesNothingAndAsksNothing() throws {
    let run = try session("plan next-thursday Dune\nplan 2026-05-07T19:00\n")
    #expect(run.status == 1)
    #expect(
      run.output.contains(
        "Error: 'next-thursday' is not a date and time such as 2025-03-06T19:00"), "\(run.output)")
    #expect(
      run.output.contains(
        "Error: Missing expected argument '<book> ...'\n"
          + "Help:  <book>  The book, in as many words as its title.\n"
          + "Usage: plan <start> <book> ...\n"), "\(run.output)")
    // Refused before access was asked: no alert, no decision, no event.
    #expect(!run.output.contains("Would Like Full Access"))
    #expect(try clubEvents().isEmpty)
  }

  @Test func aCopyWithTheSameUIDInAnotherCalendarIsNotTheClubs() throws {
    try home.decide("full", app: Self.app, entity: "events")
    #expect(try session("plan 2026-05-07T19:00 Dune\n").status == 0)
    let uid = try #require(try clubEvents().first?.calendarItemExternalIdentifier)
    // The same UID in another calendar: one meeting, as an invitation kept in a second account.
    let copy = home.url.appendingPathComponent("copy.ics")
    try """
    BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//copy//EN\r\nBEGIN:VEVENT\r\n\
    UID:\(uid)\r\nDTSTAMP:20260501T000000Z\r\nDTSTART:20260506T170000Z\r\n\
    DTEND:20260506T190000Z\r\nSUMMARY:Dune (a copy)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n
    """.write(to: copy, atomically: true, encoding: .utf8)
    let imported = try home.ekctl(["import", copy.path, "--calendar", "Work"])
    #expect(imported.status == 0, "\(imported.output)")
    let run = try session("meetings\ncancel\nmeetings\n")
    #expect(run.status == 0, "\(run.output)")
    #expect(run.output.components(separatedBy: " 19:00\n").count - 1 == 12, "\(run.output)")
    #expect(run.output.contains("No meetings planned: 'plan'."), "\(run.output)")
    // The club's series is gone; the other calendar's copy is left as it was.
    let left = try home.store().calendarItems(withExternalIdentifier: uid)
    #expect(left.map { $0.calendar.title } == ["Work"], "\(left.map(\.title))")
  }

  @Test func aSeriesMovedToAnotherCalendarIsNotCancelledAsIfFound() throws {
    try home.decide("full", app: Self.app, entity: "events")
    #expect(try session("plan 2026-05-07T19:00 Dune\n").status == 0)
    // Another app moves the whole series to a calendar of its own.
    let store = try home.store()
    let other = EKCalendar(for: .event, eventStore: store)
    other.title = "Other"
    other.source = store.defaultCalendarForNewEvents?.source
    try store.saveCalendar(other, commit: true)
    let first = try #require(try clubEvents().min { $0.startDate < $1.startDate })
    let series = try #require(store.event(withIdentifier: first.eventIdentifier))
    series.calendar = other
    try store.save(series, span: .futureEvents, commit: true)
    let run = try session("meetings\ncancel\n")
    #expect(run.status == 0, "\(run.output)")
    #expect(run.output.contains("No meetings planned: 'plan'."), "\(run.output)")
    #expect(run.output.contains("No meetings to cancel."), "\(run.output)")
    #expect(!run.output.contains("The meetings are off the calendar."), "\(run.output)")
    #expect(try clubEvents().count == 12)  // left where the other app put them
  }

  @Test func meetingsWithNonePlannedSaysHowToPlanThem() throws {
    try home.decide("full", app: Self.app, entity: "events")
    let run = try session("meetings\n")
    #expect(run.status == 0, "\(run.output)")
    #expect(run.output.contains("No meetings planned: 'plan'."), "\(run.output)")
    #expect(!run.output.contains("  Meeting"), "\(run.output)")
  }

  @Test func aNewBookReplacesTheMeetingsOfTheOld() throws {
    try home.decide("full", app: Self.app, entity: "events")
    let run = try session("plan 2026-05-07T19:00 Dune\nplan 2026-05-14T18:30 Emma\nmeetings\n")
    #expect(run.status == 0, "\(run.output)")
    let titles = Set(try clubEvents().map(\.title))
    #expect(titles == ["Book club: Emma"], "\(titles)")
    #expect(!run.output.contains("Calendar:"), "\(run.output)")  // its own change, not news
    #expect(run.output.contains("Thu 14 May 2026 18:30"))
  }

  /// A "this and future" change splits the meetings from September off, then another app
  /// removes the club's own series (May to August): the split-off meetings are still the
  /// club's (its title and first meeting are kept), listed, cancelled, and a new `plan` does
  /// not add a second club over them.
  @Test func splitOffMeetingsAreTheClubsOnceItsOwnSeriesIsRemoved() throws {
    let store = try planDune()
    let september = try #require(try meeting(on: 1_788_800_400, in: store))  // 7 Sep, 19:00
    september.location = "Library"
    try store.save(september, span: .futureEvents, commit: true)
    let may = try #require(try meeting(on: 1_778_173_200, in: store))  // 7 May, 19:00
    try store.remove(may, span: .futureEvents, commit: true)  // the club's own series
    #expect(try clubEvents().count == 8)
    let listed = try session("meetings\n")
    #expect(listed.status == 0, "\(listed.output)")
    #expect(listed.output.components(separatedBy: " 19:00\n").count - 1 == 8, "\(listed.output)")
    #expect(listed.output.contains("Mon 7 Sep 2026 19:00"), "\(listed.output)")
    let replanned = try session("plan 2026-05-14T18:30 Emma\n")
    #expect(replanned.status == 0, "\(replanned.output)")
    #expect(Set(try clubEvents().map(\.title)) == ["Book club: Emma"])
    let cancelled = try session("cancel\nmeetings\n")
    #expect(cancelled.output.contains("The meetings are off the calendar."), "\(cancelled.output)")
    #expect(try clubEvents().isEmpty)
  }

  /// A meeting of the split-off series moved on its own (a detached occurrence, which has
  /// no rule of its own) is listed with the others and cancelled with them.
  @Test func aMovedMeetingOfASplitOffSeriesIsListedAndCancelled() throws {
    let store = try planDune()
    let september = try #require(try meeting(on: 1_788_800_400, in: store))  // 7 Sep, 19:00
    september.location = "Library"
    try store.save(september, span: .futureEvents, commit: true)
    // 7 October, 19:00, to 20:00.
    try move(try meeting(on: 1_791_392_400, in: store), by: 3600, span: .thisEvent, in: store)
    try expectListedThenCancelled(showing: "Wed 7 Oct 2026 20:00", atSeven: 11)
  }

  /// Another app moves the last meeting (7 April 2027) 35 days later "and future events", a
  /// series of its own beyond a year from the first meeting: still listed and cancelled.
  @Test func aLastMeetingSplitOffAndMovedBeyondAYearIsCancelled() throws {
    let store = try planDune()
    let april = try meeting(on: 1_807_117_200, in: store)  // 7 Apr 2027, 19:00
    try move(april, by: 35 * 86_400, span: .futureEvents, in: store)
    try expectListedThenCancelled(showing: "Wed 12 May 2027 19:00", atSeven: 12)
  }

  /// Another app splits the last two meetings off (an hour later), then moves each on its own:
  /// no meeting of the split-off series repeats any more, and they are still the club's.
  @Test func aSplitOffSeriesWhoseMeetingsWereAllMovedIsStillTheClubs() throws {
    let store = try planDune()
    let march = try meeting(on: 1_804_442_400, in: store)  // 7 Mar 2027, 19:00
    try move(march, by: 3600, span: .futureEvents, in: store)
    for seconds in [1_804_446_000, 1_807_120_800] {  // 7 March and 7 April, now at 20:00
      try move(
        try meeting(on: TimeInterval(seconds), in: store), by: 86_400, span: .thisEvent, in: store)
    }
    try expectListedThenCancelled(showing: "Thu 8 Apr 2027 20:00", atSeven: 10)
  }

  /// `meetings` then `cancel`: the list shows `shown` and `count` meetings at 19:00, and
  /// nothing of the club is left in the store.
  func expectListedThenCancelled(
    showing shown: String, atSeven count: Int, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let run = try session("meetings\ncancel\n")
    #expect(run.status == 0, "\(run.output)", sourceLocation: sourceLocation)
    #expect(run.output.contains(shown), "\(run.output)", sourceLocation: sourceLocation)
    #expect(
      run.output.components(separatedBy: " 19:00\n").count - 1 == count, "\(run.output)",
      sourceLocation: sourceLocation)
    #expect(try clubEvents().isEmpty, sourceLocation: sourceLocation)
  }

  /// Access given, Dune's 12 meetings planned from Thursday 7 May 2026, 19:00; the store, as
  /// another app opens it.
  func planDune() throws -> EKEventStore {
    try home.decide("full", app: Self.app, entity: "events")
    #expect(try session("plan 2026-05-07T19:00 Dune\n").status == 0)
    return try home.store()
  }

  /// Another app moves `meeting` (nil: a test failure) `seconds` later, with `span`.
  func move(_ meeting: EKEvent?, by seconds: TimeInterval, span: EKSpan, in store: EKEventStore)
    throws
  {
    let meeting = try #require(meeting)
    meeting.startDate = meeting.startDate.addingTimeInterval(seconds)
    meeting.endDate = meeting.endDate.addingTimeInterval(seconds)
    try store.save(meeting, span: span, commit: true)
  }

  /// The club's meeting that starts at `seconds` since 1970, as another app fetches it.
  func meeting(on seconds: TimeInterval, in store: EKEventStore) throws -> EKEvent? {
    let start = Date(timeIntervalSince1970: seconds)
    return store.events(
      matching: store.predicateForEvents(
        withStart: start, end: start.addingTimeInterval(60), calendars: nil)
    ).first { $0.title.hasPrefix("Book club: ") }
  }
}
