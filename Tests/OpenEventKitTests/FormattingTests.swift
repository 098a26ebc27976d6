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
