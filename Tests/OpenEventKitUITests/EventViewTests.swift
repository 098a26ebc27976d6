import Foundation
import OpenEventKitUI
import REPLKit
import Testing

@testable import OpenEventKit

/// The event view's exact text for fixed events, seen from Paris.
@Suite struct EventViewTests {
  func render(_ event: EKEvent, zone: TimeZone = UIFixture.paris) -> String {
    EKEventViewController(event: event).render(style: .plain, timeZone: zone)
  }

  @Test func aTimedEventWithItsFields() throws {
    let fixture = try UIFixture()
    let event = fixture.event("Dentist", start: "2025-03-03T09:00:00+01:00")
    event.location = "12 rue de la Paix"
    event.url = URL(string: "https://example.com/dentist")
    event.notes = "Bring the card.\nAsk about the bill."
    event.alarms = [EKAlarm(relativeOffset: -900), EKAlarm(relativeOffset: -5400)]
    try fixture.store.save(event, span: .thisEvent)
    #expect(
      render(event) == """
        Dentist
          When        Mon 3 Mar 2025 09:00–10:00
          Alarms      15 minutes before
                      1 hour 30 minutes before
          Calendar    Calendar (Local)
          Location    12 rue de la Paix
          URL         https://example.com/dentist
          Notes       Bring the card.
                      Ask about the bill.

        """)
  }

  @Test func anotherZoneIsShownBesideTheViewersClock() throws {
    let fixture = try UIFixture()
    let event = fixture.event(
      "Call New York", start: "2025-03-03T09:00:00-05:00", minutes: 30, zone: UIFixture.newYork)
    #expect(
      render(event) == """
        Call New York
          When        Mon 3 Mar 2025 15:00–15:30
                      Mon 3 Mar 2025 09:00–09:30 America/New_York
          Calendar    Calendar (Local)

        """)
    // Seen from New York, only its own clock.
    #expect(
      render(event, zone: UIFixture.newYork).contains("When        Mon 3 Mar 2025 09:00–09:30\n"))
  }

  @Test func aSpanAcrossTheSpringChangeShowsWallClockTimes() throws {
    let fixture = try UIFixture()
    // Two real hours from 01:30 CET end at 04:30 CEST: the hour from 02:00 does not exist.
    let event = fixture.event("Night shift", start: "2025-03-30T01:30:00+01:00", minutes: 120)
    #expect(render(event).contains("When        Sun 30 Mar 2025 01:30–04:30\n"))
    // Crossing midnight shows both days.
    let late = fixture.event("Late", start: "2025-03-29T23:00:00+01:00", minutes: 150)
    #expect(render(late).contains("When        Sat 29 Mar 2025 23:00 – Sun 30 Mar 2025 01:30\n"))
  }

  @Test func allDayEventsAreDates() throws {
    let fixture = try UIFixture()
    let event = fixture.event("Conference", start: "2025-03-03T00:00:00+01:00")
    event.isAllDay = true
    event.startDate = UIFixture.floating("2025-03-03T00:00:00")
    event.endDate = UIFixture.floating("2025-03-05T12:00:00")
    event.alarms = [EKAlarm(relativeOffset: -15 * 3600), EKAlarm(relativeOffset: 9 * 3600)]
    try fixture.store.save(event, span: .thisEvent)
    #expect(
      render(event) == """
        Conference
          When        Mon 3 Mar – Wed 5 Mar 2025, all day
          Alarms      1 day before at 09:00
                      On the day at 09:00
          Calendar    Calendar (Local)

        """)
    // An all-day event is the same days seen from New York.
    #expect(render(event, zone: UIFixture.newYork).contains("Mon 3 Mar – Wed 5 Mar 2025, all day"))
    let single = fixture.event("Holiday", start: "2025-12-31T00:00:00+01:00")
    single.isAllDay = true
    single.startDate = UIFixture.floating("2025-12-31T00:00:00")
    single.endDate = UIFixture.floating("2026-01-01T00:00:00")
    try fixture.store.save(single, span: .thisEvent)
    #expect(render(single).contains("When        Wed 31 Dec 2025, all day\n"))
  }

  /// Issue 41: a series ended with `remove(_:span: .futureEvents)` keeps an UNTIL just before
  /// the occurrence removed; the view names the last occurrence left, not that UNTIL.
  @Test func aSeriesEndedFromAnOccurrenceOnNamesItsLastOccurrence() throws {
    let fixture = try UIFixture()
    let event = fixture.event("Dress fitting", start: "2027-04-03T10:00:00+02:00")
    event.recurrenceRules = [
      EKRecurrenceRule(
        recurrenceWith: .weekly, interval: 1,
        end: EKRecurrenceEnd(end: UIFixture.date("2027-05-29T23:59:59+02:00")))
    ]
    try fixture.store.save(event, span: .futureEvents)
    #expect(render(event).contains("Repeats     Weekly, last on 29 May 2027\n"))
    let may8 = try #require(
      fixture.store.events(
        matching: fixture.store.predicateForEvents(
          withStart: UIFixture.date("2027-05-08T00:00:00+02:00"),
          end: UIFixture.date("2027-05-09T00:00:00+02:00"), calendars: nil)
      ).first)
    try fixture.store.remove(may8, span: .futureEvents)
    let series = try #require(fixture.store.event(withIdentifier: event.eventIdentifier))
    #expect(
      render(series).contains("Repeats     Weekly, last on 1 May 2027\n"), "\(render(series))")
  }

  @Test func aRepeatingEventAndItsDetachedOccurrence() throws {
    let fixture = try UIFixture()
    let event = fixture.event("Standup", start: "2025-03-03T09:00:00+01:00", minutes: 15)
    event.recurrenceRules = [
      EKRecurrenceRule(
        recurrenceWith: .weekly, interval: 2,
        daysOfTheWeek: [EKRecurrenceDayOfWeek(.monday), EKRecurrenceDayOfWeek(.friday)],
        daysOfTheMonth: nil, monthsOfTheYear: nil, weeksOfTheYear: nil, daysOfTheYear: nil,
        setPositions: nil, end: EKRecurrenceEnd(occurrenceCount: 10))
    ]
    try fixture.store.save(event, span: .futureEvents)
    #expect(
      render(event).contains(
        "Repeats     Every 2 weeks on Monday and Friday, 10 times, last on 2 May 2025\n"))

    let occurrences = fixture.store.events(
      matching: fixture.store.predicateForEvents(
        withStart: UIFixture.date("2025-03-07T00:00:00Z"),
        end: UIFixture.date("2025-03-08T00:00:00Z"), calendars: nil))
    let friday = try #require(occurrences.first)
    friday.startDate = UIFixture.date("2025-03-07T11:00:00+01:00")
    friday.endDate = UIFixture.date("2025-03-07T11:15:00+01:00")
    try fixture.store.save(friday, span: .thisEvent)
    #expect(
      render(friday).hasSuffix(
        "  Detached    This occurrence was changed on its own; the series has it on "
          + "Fri 7 Mar 2025 09:00\n"))
  }

  @Test func attendeesOrganizerAndStatus() throws {
    let fixture = try UIFixture()
    let event = fixture.event("Review", start: "2025-03-03T14:00:00+01:00")
    event.values.status = .tentative
    event.values.participants = [
      ParticipantValues(
        url: URL(string: "mailto:ana@example.com")!, name: "Ana", role: .chair,
        status: .accepted, isOrganizer: true),
      ParticipantValues(
        url: URL(string: "mailto:ben@example.com")!, name: "Ben", role: .required,
        status: .tentative),
      ParticipantValues(
        url: URL(string: "mailto:cy@example.com")!, role: .optional, status: .pending),
    ]
    let text = render(event)
    #expect(text.contains("  Status      Tentative\n"))
    #expect(text.contains("  Organizer   Ana <ana@example.com>\n"))
    #expect(
      text.contains(
        """
          Attendees   Ben <ben@example.com>, maybe
                      cy@example.com, not answered yet (optional)

        """))
  }

  @Test func colourAndBoldOnlyWhenTheStyleAllowsThem() throws {
    let fixture = try UIFixture()
    let event = fixture.event("Dentist", start: "2025-03-03T09:00:00+01:00")
    let plain = render(event)
    #expect(!plain.contains("\u{1B}"))
    let styled = EKEventViewController(event: event).render(
      style: TerminalStyle(usesColor: true, usesTrueColor: true, usesBoxDrawing: true),
      timeZone: UIFixture.paris)
    #expect(styled.hasPrefix("\u{1B}[1mDentist\u{1B}[0m\n"))
    #expect(styled.contains("\u{1B}[38;2;"))  // the calendar's colour
  }
}
