import Foundation
import Testing

@testable import OpenEventKit

/// Alarms, rules and dates in words, as the views and ekctl print them.
@Suite struct FormattingTests {
  let paris = TimeZone(identifier: "Europe/Paris")!

  @Test func alarmsInWords() {
    let start = StoreFixture.date("2025-05-03T07:00:00Z")
    func words(_ alarm: EKAlarm, allDay: Bool = false) -> String {
      AlarmWords.describe(alarm, start: start, isAllDay: allDay, timeZone: paris)
    }
    #expect(words(EKAlarm(relativeOffset: -900)) == "15 minutes before")
    #expect(words(EKAlarm(relativeOffset: 0)) == "At the start")
    #expect(words(EKAlarm(relativeOffset: -5400)) == "1 hour 30 minutes before")
    #expect(words(EKAlarm(relativeOffset: 172_800)) == "2 days after")
    #expect(words(EKAlarm(relativeOffset: -604_800)) == "1 week before")
    #expect(
      words(EKAlarm(absoluteDate: StoreFixture.date("2025-05-03T07:00:00Z"))) == "At 09:00 on 3 May"
    )
    #expect(
      words(EKAlarm(absoluteDate: StoreFixture.date("2026-01-02T08:00:00Z")))
        == "At 09:00 on 2 January 2026")
    #expect(words(EKAlarm(relativeOffset: -15 * 3600), allDay: true) == "1 day before at 09:00")
    #expect(words(EKAlarm(relativeOffset: 9 * 3600), allDay: true) == "On the day at 09:00")
    #expect(words(EKAlarm(relativeOffset: -2 * 86_400), allDay: true) == "2 days before at 00:00")
    let arriving = EKAlarm()
    arriving.structuredLocation = EKStructuredLocation(title: "Trader Joe's")
    arriving.proximity = .enter
    #expect(words(arriving) == "When arriving at Trader Joe's")
    arriving.proximity = .leave
    #expect(words(arriving) == "When leaving Trader Joe's")
    // Offsets too large for whole seconds still read, rather than trap.
    #expect(words(EKAlarm(relativeOffset: -1e300)) == "52178 weeks 4 days before")
    #expect(words(EKAlarm(relativeOffset: .nan)) == "At the start")
    let email = EKAlarm(relativeOffset: -3600)
    email.emailAddress = "me@example.com"
    #expect(words(email) == "1 hour before (email to me@example.com)")
  }

  @Test func rulesInWordsWithTheirEndOnTheItemsClock() {
    let rule = EKRecurrenceRule(
      recurrenceWith: .monthly, interval: 1,
      daysOfTheWeek: [.monday, .tuesday, .wednesday, .thursday, .friday].map {
        EKRecurrenceDayOfWeek($0)
      }, daysOfTheMonth: nil, monthsOfTheYear: nil, weeksOfTheYear: nil, daysOfTheYear: nil,
      setPositions: [-1], end: nil)
    #expect(RecurrenceWords.describe(rule, timeZone: paris) == "Monthly on the last weekday")
    // 22:30Z on 2 May is already 3 May in Paris.
    let until = EKRecurrenceRule(
      recurrenceWith: .daily, interval: 1,
      end: EKRecurrenceEnd(end: StoreFixture.date("2026-05-02T22:30:00Z")))
    #expect(RecurrenceWords.describe(until, timeZone: paris) == "Daily, until 3 May 2026")
    let counted = EKRecurrenceRule(
      recurrenceWith: .weekly, interval: 2, end: EKRecurrenceEnd(occurrenceCount: 1))
    #expect(RecurrenceWords.describe(counted, timeZone: paris) == "Every 2 weeks, once")
  }

  /// A saved series' words name its last occurrence: after a cut, after an exception date
  /// removed its last instance, and with a detached last occurrence moved later; an endless
  /// rule is said as it is, and so are rules changed since the save.
  @Test func aSavedSeriesNamesItsLastOccurrence() throws {
    let fixture = try StoreFixture()
    let utc = TimeZone(identifier: "UTC")!
    func words(_ event: EKEvent) -> [String] {
      RecurrenceWords.describe(rulesOf: event, timeZone: utc)
    }
    func occurrence(_ start: String) throws -> EKEvent {
      let date = StoreFixture.date(start)
      return try #require(
        fixture.store.events(
          matching: fixture.store.predicateForEvents(
            withStart: date, end: date.addingTimeInterval(1), calendars: nil)
        ).first { $0.occurrenceDate == date })
    }
    let series = try fixture.event(
      "Meeting", start: "2026-07-01T11:00:00Z",
      rule: EKRecurrenceRule(
        recurrenceWith: .weekly, interval: 1, end: EKRecurrenceEnd(occurrenceCount: 10)))
    #expect(words(series) == ["Weekly, 10 times, last on 2 September 2026"])
    try fixture.store.remove(try occurrence("2026-08-05T11:00:00Z"), span: .futureEvents)
    let cut = try #require(fixture.store.event(withIdentifier: series.eventIdentifier))
    #expect(words(cut) == ["Weekly, 5 times, last on 29 July 2026"])
    try fixture.store.remove(try occurrence("2026-07-29T11:00:00Z"), span: .thisEvent)
    #expect(
      words(try occurrence("2026-07-01T11:00:00Z")) == ["Weekly, 5 times, last on 22 July 2026"])
    let last = try occurrence("2026-07-22T11:00:00Z")
    last.startDate = StoreFixture.date("2026-07-24T11:00:00Z")
    last.endDate = StoreFixture.date("2026-07-24T12:00:00Z")
    try fixture.store.save(last, span: .thisEvent)
    let outline = try #require(fixture.store.seriesOutline(of: last))
    #expect(outline.lastOccurrenceDate == StoreFixture.date("2026-07-24T11:00:00Z"))
    #expect(
      outline.removedOccurrenceDates == [StoreFixture.date("2026-07-29T11:00:00Z")]
        && outline.detachedOccurrences.map(\.occurrenceDate) == [
          StoreFixture.date("2026-07-22T11:00:00Z")
        ])
    // Rules edited since the save are said as they are: the store's last is not theirs.
    let edited = try #require(fixture.store.event(withIdentifier: series.eventIdentifier))
    edited.recurrenceRules = [
      EKRecurrenceRule(
        recurrenceWith: .daily, interval: 1, end: EKRecurrenceEnd(occurrenceCount: 3))
    ]
    #expect(words(edited) == ["Daily, 3 times"])

    let endless = try fixture.event(
      "Standup", start: "2026-07-01T09:00:00Z",
      rule: EKRecurrenceRule(recurrenceWith: .daily, interval: 1, end: nil))
    #expect(words(endless) == ["Daily"])
    #expect(fixture.store.seriesOutline(of: endless)?.lastOccurrenceDate == nil)
  }

  @Test func datesInFixedEnglish() {
    let dates = DateText(timeZone: paris)
    let date = StoreFixture.date("2025-03-30T22:05:00Z")
    #expect(dates.day(date) == "Mon 31 Mar 2025")
    #expect(dates.longDay(date) == "Monday 31 March 2025")
    #expect(dates.time(date) == "00:05")
    // The DST day is 23 hours long: the next midnight is counted on the calendar.
    let sunday = StoreFixture.date("2025-03-30T10:00:00Z")
    #expect(dates.startOfDay(sunday, adding: 1) == StoreFixture.date("2025-03-30T22:00:00Z"))
  }
}
