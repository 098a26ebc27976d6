import Testing

@testable import ICalendar

/// Rules in English words, as Apple Calendar and Google Calendar phrase them, and plain
/// clauses (never silence, never a trap) for whatever they have no phrase for.
@Suite struct RecurrenceWordsTests {
  static let phrases: [(String, String)] = [
    // Periods and intervals.
    ("FREQ=DAILY", "Daily"),
    ("FREQ=DAILY;INTERVAL=3", "Every 3 days"),
    ("FREQ=WEEKLY", "Weekly"),
    ("FREQ=MONTHLY", "Monthly"),
    ("FREQ=MONTHLY;INTERVAL=2", "Every 2 months"),
    ("FREQ=YEARLY", "Yearly"),
    ("FREQ=YEARLY;INTERVAL=4", "Every 4 years"),
    ("FREQ=HOURLY", "Hourly"),
    ("FREQ=HOURLY;INTERVAL=2", "Every 2 hours"),
    ("FREQ=MINUTELY", "Every minute"),
    ("FREQ=MINUTELY;INTERVAL=15", "Every 15 minutes"),
    ("FREQ=SECONDLY", "Every second"),
    ("FREQ=SECONDLY;INTERVAL=30", "Every 30 seconds"),
    // Weekly days.
    ("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,FR;COUNT=10", "Every 2 weeks on Monday and Friday, 10 times"),
    ("FREQ=WEEKLY;BYDAY=MO,TU,WE", "Weekly on Monday, Tuesday and Wednesday"),
    ("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "Every weekday"),
    ("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TU,WE,TH,FR", "Every 2 weeks on weekdays"),
    ("FREQ=WEEKLY;BYDAY=SA,SU", "Weekly on weekends"),
    ("FREQ=WEEKLY;BYDAY=SU,MO,TU,WE,TH,FR,SA", "Every day of the week"),
    ("FREQ=WEEKLY;BYDAY=MO;BYMONTH=6,7,8", "Weekly on Monday in June, July and August"),
    ("FREQ=DAILY;BYDAY=MO,FR", "Every Monday and Friday"),
    ("FREQ=DAILY;INTERVAL=3;BYDAY=MO,TU,WE,TH,FR", "Every 3 days, only on weekdays"),
    // Monthly days.
    ("FREQ=MONTHLY;BYMONTHDAY=15", "Monthly on the 15th"),
    ("FREQ=MONTHLY;BYMONTHDAY=1,15", "Monthly on the 1st and 15th"),
    ("FREQ=MONTHLY;BYMONTHDAY=-1", "Monthly on the last day"),
    ("FREQ=MONTHLY;BYMONTHDAY=-2", "Monthly on the second-to-last day"),
    ("FREQ=MONTHLY;BYMONTHDAY=-6", "Monthly on the 6th-to-last day"),
    (
      "FREQ=MONTHLY;BYMONTHDAY=1,2,3,4,11,12,13,21,22,23,31",
      "Monthly on the 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 22nd, 23rd and 31st"
    ),
    ("FREQ=MONTHLY;BYDAY=2TU", "Monthly on the second Tuesday"),
    ("FREQ=MONTHLY;BYDAY=-1FR", "Monthly on the last Friday"),
    ("FREQ=MONTHLY;BYDAY=1MO,3MO", "Monthly on the first and third Monday"),
    ("FREQ=MONTHLY;BYDAY=1MO,-1FR", "Monthly on the first Monday and the last Friday"),
    ("FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13", "Monthly on the 13th, only on Fridays"),
    // BYSETPOS among weekdays, and in a plain clause otherwise.
    ("FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", "Monthly on the last weekday"),
    ("FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=1", "Monthly on the first weekday"),
    ("FREQ=MONTHLY;BYDAY=SA,SU;BYSETPOS=1", "Monthly on the first weekend day"),
    ("FREQ=MONTHLY;BYDAY=SU,MO,TU,WE,TH,FR,SA;BYSETPOS=-1", "Monthly on the last day"),
    ("FREQ=MONTHLY;BYDAY=TU;BYSETPOS=2", "Monthly on the second Tuesday"),
    ("FREQ=YEARLY;BYMONTH=3;BYDAY=SU;BYSETPOS=-1", "Yearly on the last Sunday of March"),
    (
      "FREQ=MONTHLY;BYDAY=MO,WE;BYSETPOS=1,-1",
      "Monthly on every Monday and Wednesday; only the first and last of these in each month"
    ),
    // Yearly days.
    ("FREQ=YEARLY;BYMONTH=3", "Yearly in March"),
    ("FREQ=YEARLY;BYMONTH=1,7", "Yearly in January and July"),
    ("FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=15", "Yearly on 15 March"),
    ("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1", "Yearly on the last day of February"),
    ("FREQ=YEARLY;BYMONTH=11;BYDAY=4TH", "Yearly on the fourth Thursday of November"),
    ("FREQ=YEARLY;BYDAY=20MO", "Yearly on the 20th Monday of the year"),
    ("FREQ=YEARLY;BYYEARDAY=100", "Yearly on day 100"),
    ("FREQ=YEARLY;BYYEARDAY=-1", "Yearly on the last day of the year"),
    ("FREQ=YEARLY;BYYEARDAY=100;BYMONTH=4", "Yearly on day 100, only in April"),
    ("FREQ=YEARLY;BYWEEKNO=20", "Yearly in week 20"),
    ("FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO", "Yearly on Monday of week 20"),
    // Times of day.
    ("FREQ=DAILY;BYHOUR=9,17", "Daily at 09:00 and 17:00"),
    ("FREQ=DAILY;BYHOUR=17,9;BYMINUTE=30,0", "Daily at 09:00, 09:30, 17:00 and 17:30"),
    ("FREQ=DAILY;BYHOUR=9;BYSECOND=0", "Daily at 09:00"),
    ("FREQ=DAILY;BYHOUR=9;BYSECOND=30", "Daily at 09:00 (second 30)"),
    ("FREQ=HOURLY;BYMINUTE=15,45", "Hourly at minute 15 and 45"),
    ("FREQ=MINUTELY;INTERVAL=15;BYHOUR=9", "Every 15 minutes, only in the 09:00 hour"),
    // Ends.
    ("FREQ=DAILY;COUNT=1", "Daily, once"),
    ("FREQ=DAILY;UNTIL=20260503T000000Z", "Daily, until 3 May 2026"),
    ("FREQ=WEEKLY;UNTIL=20261231", "Weekly, until 31 December 2026"),
  ]

  @Test(arguments: phrases)
  func phrasesARuleAsCalendarsDo(_ rule: String, _ words: String) throws {
    #expect(try RecurrenceRule(parsing: rule).inWords() == words)
  }

  @Test func anEndDayGivenApartReplacesTheRulesEnd() throws {
    // EventKit keeps the end beside the rule, and a UTC UNTIL may fall on another local day.
    let day = try #require(CivilDate(year: 2026, month: 5, day: 3))
    #expect(
      try RecurrenceRule(parsing: "FREQ=DAILY").inWords(endingOn: day)
        == "Daily, until 3 May 2026")
    #expect(
      try RecurrenceRule(parsing: "FREQ=WEEKLY;COUNT=10").inWords(endingOn: day)
        == "Weekly, until 3 May 2026")
    #expect(
      try RecurrenceRule(parsing: "FREQ=DAILY;UNTIL=20260504T030000Z").inWords(endingOn: day)
        == "Daily, until 3 May 2026")
  }

  @Test func oddRulesStillReadWithoutTrapping() {
    // Rules built in code are not validated: out-of-range values must still give text, and
    // parts with no phrase of their own must still be said.
    let rules: [(RecurrenceRule, String)] = [
      (RecurrenceRule(frequency: .monthly, byDay: [.init(.monday, ordinal: 0)]), "0th Monday"),
      (
        RecurrenceRule(
          frequency: .monthly, byDay: [.init(.monday, ordinal: 60), .init(.friday, ordinal: -60)]),
        "60th-to-last Friday"
      ),
      (
        RecurrenceRule(
          frequency: .monthly, byDay: [.init(.sunday, ordinal: Int.min)],
          byMonthDay: [Int.min, Int.max]),
        "-to-last Sunday of the month"
      ),
      (
        RecurrenceRule(
          frequency: .weekly, interval: 0, end: .count(0), byDay: [.init(.monday, ordinal: 2)],
          byMonthDay: [5], byYearDay: [3], byWeekNo: [1], byMonth: [0, 13]),
        "month 13"
      ),
      (
        RecurrenceRule(frequency: .daily, bySecond: [61], byHour: [25], bySetPos: [0, 400]),
        "only the 0th and 400th of these in each day"
      ),
      (
        RecurrenceRule(frequency: .monthly, byHour: [9, 17], bySetPos: [1, -1]),
        "Monthly at 09:00 and 17:00; only the first and last of these in each month"
      ),
      (
        RecurrenceRule(
          frequency: .secondly, bySecond: [0], byMinute: [5], byDay: [.init(.sunday)],
          byYearDay: [-1]),
        "at second 0"
      ),
      (
        RecurrenceRule(
          frequency: .monthly, bySecond: [30], byDay: [.init(.monday)], bySetPos: [1]),
        "(second 30)"
      ),
      (RecurrenceRule(frequency: .yearly, bySetPos: [1]), "Yearly; only the first"),
    ]
    for (rule, part) in rules {
      let words = rule.inWords()
      #expect(!words.isEmpty)
      #expect(words.contains(part), "\(rule.text): \(words)")
    }
  }
}
