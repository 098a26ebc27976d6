import Foundation
import OpenEventKitUI
import REPLKit
import Testing

@testable import OpenEventKit

/// The agenda and the month grid for a fixed week of events, seen from Paris.
@Suite struct AgendaAndMonthTests {
  func fixtureWithAWeek() throws -> UIFixture {
    let fixture = try UIFixture()
    let dentist = fixture.event("Dentist", start: "2025-03-03T09:00:00+01:00")
    try fixture.store.save(dentist, span: .thisEvent)
    let holiday = fixture.event("Holiday", start: "2025-03-03T00:00:00+01:00")
    holiday.isAllDay = true
    holiday.startDate = UIFixture.floating("2025-03-03T00:00:00")
    holiday.endDate = UIFixture.floating("2025-03-04T00:00:00")
    try fixture.store.save(holiday, span: .thisEvent)
    let night = fixture.event("Night train", start: "2025-03-04T22:00:00+01:00", minutes: 540)
    try fixture.store.save(night, span: .thisEvent)
    let yoga = fixture.event("Yoga", start: "2025-03-06T18:00:00+01:00")
    yoga.recurrenceRules = [EKRecurrenceRule(recurrenceWith: .weekly, interval: 1, end: nil)]
    try fixture.store.save(yoga, span: .futureEvents)
    return fixture
  }

  @Test func aWeekGroupedByDay() throws {
    let fixture = try fixtureWithAWeek()
    let text = AgendaView(eventStore: fixture.store).render(
      from: UIFixture.date("2025-03-03T12:00:00+01:00"), days: 4, style: .plain,
      timeZone: UIFixture.paris)
    #expect(
      text == """
        Monday 3 March 2025
          all day      Holiday · Calendar
          09:00–10:00  Dentist · Calendar
        Tuesday 4 March 2025
          22:00–       Night train · Calendar
        Wednesday 5 March 2025
          –07:00       Night train · Calendar
        Thursday 6 March 2025
          18:00–19:00  Yoga (repeats) · Calendar

        """)
    let empty = AgendaView(eventStore: fixture.store).render(
      from: UIFixture.date("2025-03-02T12:00:00+01:00"), days: 1, style: .plain,
      timeZone: UIFixture.paris)
    #expect(empty == "Sunday 2 March 2025\n  Nothing planned\n")
  }

  @Test func aDSTDayHasItsOwnLength() throws {
    let fixture = try UIFixture()
    let late = fixture.event("Late", start: "2025-03-30T23:30:00+02:00", minutes: 30)
    try fixture.store.save(late, span: .thisEvent)
    // 30 March 2025 is 23 hours long in Paris; the next day starts at 00:00 CEST.
    let text = AgendaView(eventStore: fixture.store).render(
      from: UIFixture.date("2025-03-30T12:00:00+02:00"), days: 2, style: .plain,
      timeZone: UIFixture.paris)
    #expect(
      text == """
        Sunday 30 March 2025
          23:30–24:00  Late · Calendar
        Monday 31 March 2025
          Nothing planned

        """)
  }

  @Test func aMonthLikeCalWithMarkedDays() throws {
    let fixture = try fixtureWithAWeek()
    let text = MonthGrid(eventStore: fixture.store).render(
      monthOf: UIFixture.date("2025-03-15T12:00:00+01:00"),
      today: UIFixture.date("2025-03-01T10:00:00+01:00"), style: .plain, timeZone: UIFixture.paris)
    #expect(
      text == """
             March 2025
        Mo Tu We Th Fr Sa Su
                        1  2
         3* 4* 5* 6* 7  8  9
        10 11 12 13*14 15 16
        17 18 19 20*21 22 23
        24 25 26 27*28 29 30
        31
        * a day with events

        """)
    let sundayFirst = MonthGrid(eventStore: fixture.store, firstWeekday: 1).render(
      monthOf: UIFixture.date("2025-02-15T12:00:00+01:00"),
      today: UIFixture.date("2025-03-01T10:00:00+01:00"), style: .plain, timeZone: UIFixture.paris)
    #expect(
      sundayFirst == """
           February 2025
        Su Mo Tu We Th Fr Sa
                           1
         2  3  4  5  6  7  8
         9 10 11 12 13 14 15
        16 17 18 19 20 21 22
        23 24 25 26 27 28

        """)
    let coloured = MonthGrid(eventStore: fixture.store).render(
      monthOf: UIFixture.date("2025-03-15T12:00:00+01:00"),
      today: UIFixture.date("2025-03-01T10:00:00+01:00"),
      style: TerminalStyle(usesColor: true, usesBoxDrawing: true), timeZone: UIFixture.paris)
    #expect(coloured.contains("\u{1B}[7m 1\u{1B}[0m"))  // today in reverse video
  }
}
