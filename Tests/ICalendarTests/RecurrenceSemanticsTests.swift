import Foundation
import ICalendar
import Testing

/// The rules of RFC 5545 that decide which instances a set has, beyond the RFC's own examples.
@Suite struct RecurrenceSemanticsTests {
  @Test func dtstartIsTheFirstInstanceAndCountsTowardCount() throws {
    // §3.8.5.3: DTSTART "always counts as the first occurrence", even when the rule would
    // not produce it (2025-01-01 is a Wednesday).
    #expect(
      try expand(["FREQ=WEEKLY;BYDAY=MO;COUNT=3"], dtstart: "20250101T100000")
        == ["20250101T100000", "20250106T100000", "20250113T100000"])
  }

  @Test func invalidDatesAreSkippedNeverMoved() throws {
    // §3.3.10: "Recurrence rules may generate recurrence instances with an invalid date …
    // such recurrence instances MUST be ignored".
    #expect(
      try expand(["FREQ=MONTHLY;COUNT=4"], dtstart: "20250131T090000")
        == ["20250131T090000", "20250331T090000", "20250531T090000", "20250731T090000"])
    #expect(
      try expand(["FREQ=YEARLY;COUNT=3"], dtstart: "20240229")
        == ["20240229", "20280229", "20320229"])
  }

  @Test func countCountsWhatBySetPosKept() throws {
    #expect(
      try expand(
        ["FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;COUNT=3"], dtstart: "20250131T170000")
        == ["20250131T170000", "20250228T170000", "20250331T170000"])
  }

  @Test func untilIsInclusiveForEachKindOfStart() throws {
    // Zoned start: UNTIL is UTC and compared as an instant (09:00 EST is 14:00Z).
    #expect(
      try expand(
        ["FREQ=DAILY;UNTIL=20250103T140000Z"], dtstart: "20250101T090000",
        tzid: "America/New_York") == ["20250101T090000", "20250102T090000", "20250103T090000"])
    #expect(
      try expand(
        ["FREQ=DAILY;UNTIL=20250103T135959Z"], dtstart: "20250101T090000",
        tzid: "America/New_York") == ["20250101T090000", "20250102T090000"])
    // Floating start: UNTIL is floating.
    #expect(
      try expand(["FREQ=DAILY;UNTIL=20250102T090000"], dtstart: "20250101T090000")
        == ["20250101T090000", "20250102T090000"])
    // DATE start: UNTIL is a DATE.
    #expect(
      try expand(["FREQ=DAILY;UNTIL=20250103"], dtstart: "20250101")
        == ["20250101", "20250102", "20250103"])
    // Lenient: a DATE UNTIL with a DATE-TIME start lasts through that day.
    #expect(
      try expand(
        ["FREQ=DAILY;UNTIL=20250102"], dtstart: "20250101T230000", tzid: "Europe/Paris")
        == ["20250101T230000", "20250102T230000"])
  }

  @Test func weekStartChangesWeeklyRulesWithAnInterval() throws {
    let rule = "FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU"
    #expect(
      try expand([rule + ";WKST=MO"], dtstart: "19970805T090000")
        == ["19970805T090000", "19970810T090000", "19970819T090000", "19970824T090000"])
    #expect(
      try expand([rule + ";WKST=SU"], dtstart: "19970805T090000")
        == ["19970805T090000", "19970817T090000", "19970819T090000", "19970831T090000"])
  }

  @Test func weekNumbersFollowWeekStart() throws {
    // Week 1 is the first week with four days of the year. 2026 starts on a Thursday: with
    // WKST=MO its week 1 starts on Monday 2025-12-29, a day of the year 2025's period; with
    // WKST=SU it starts on Sunday 2026-01-04.
    #expect(
      try expand(["FREQ=YEARLY;BYWEEKNO=1;BYDAY=MO;COUNT=4"], dtstart: "20250101")
        == ["20250101", "20251229", "20270104", "20280103"])
    #expect(
      try expand(["FREQ=YEARLY;BYWEEKNO=1;BYDAY=SU;WKST=SU;COUNT=3"], dtstart: "20250101")
        == ["20250101", "20260104", "20270103"])
    // The last week, counted from the end; 2026 has 53 ISO weeks, ending Sunday 2027-01-03.
    #expect(
      try expand(["FREQ=YEARLY;BYWEEKNO=-1;BYDAY=SU;COUNT=3"], dtstart: "20250101")
        == ["20250101", "20251228", "20270103"])
  }

  @Test func januaryFirstCanBelongToTheLastWeekOfTheYearBefore() throws {
    // 2027-01-01 is a Friday in week 53 of 2026.
    #expect(
      try expand(["FREQ=YEARLY;BYWEEKNO=53;BYYEARDAY=1;COUNT=3"], dtstart: "20250101")
        == ["20250101", "20270101", "20330101"])
  }

  @Test func negativeValuesCountFromTheEnd() throws {
    #expect(
      try expand(["FREQ=MONTHLY;BYMONTHDAY=-2;COUNT=3"], dtstart: "20250130")
        == ["20250130", "20250227", "20250330"])
    #expect(
      try expand(["FREQ=YEARLY;BYYEARDAY=-1;COUNT=3"], dtstart: "20241231")
        == ["20241231", "20251231", "20261231"])
    #expect(
      try expand(["FREQ=YEARLY;BYDAY=-1SU;COUNT=2"], dtstart: "20251228")
        == ["20251228", "20261227"])
    // With BYMONTH, a YEARLY ordinal counts within the month.
    #expect(
      try expand(["FREQ=YEARLY;BYMONTH=5;BYDAY=-1MO;COUNT=2"], dtstart: "20250526")
        == ["20250526", "20260525"])
  }

  @Test func aRuleThatCanNeverMatchEndsAtOnce() throws {
    for rule in [
      "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30", "FREQ=MONTHLY;BYMONTH=4;BYMONTHDAY=31",
      "FREQ=DAILY;BYMONTH=2;BYMONTHDAY=31", "FREQ=HOURLY;INTERVAL=24;BYHOUR=10",
      "FREQ=MINUTELY;INTERVAL=60;BYMINUTE=30", "FREQ=YEARLY;BYWEEKNO=30;BYMONTH=1",
      "FREQ=SECONDLY;BYSETPOS=2;BYMINUTE=5", "FREQ=WEEKLY;BYDAY=MO,TU;BYSETPOS=3",
      "FREQ=MONTHLY;BYDAY=1MO;BYSETPOS=-2", "FREQ=DAILY;INTERVAL=7;BYDAY=TU",
      "FREQ=HOURLY;INTERVAL=168;BYDAY=TH",
    ] {
      #expect(try expand([rule], dtstart: "20250101T090000") == ["20250101T090000"], "\(rule)")
    }
  }

  @Test func partsBelowASubDailyPeriodExpandIt() throws {
    // BYMINUTE expands an HOURLY period, whatever minute DTSTART had; only the hours are on
    // the INTERVAL grid (02:00 + 5h steps reaches 13:00 and 14:00 on later days).
    #expect(
      try expand(
        ["FREQ=HOURLY;INTERVAL=5;BYHOUR=13,14;BYMINUTE=0,34;BYSETPOS=1"],
        dtstart: "19810802T022400", limit: 3)
        == ["19810802T022400", "19810803T130000", "19810804T140000"])
    #expect(
      try expand(
        ["FREQ=MINUTELY;INTERVAL=60;BYHOUR=11;BYMINUTE=0"], dtstart: "20250101T090000", limit: 3)
        == ["20250101T090000", "20250101T110000", "20250102T110000"])
  }

  @Test func bySetPosIsTakenOverTheWholeWeekFromWeekStart() throws {
    // The WEEKLY period is the week from WKST (Monday 2012-01-09), so BYSETPOS=1 picks that
    // Monday, which is before DTSTART and dropped; the next week's Monday follows.
    #expect(
      try expand(
        ["FREQ=WEEKLY;BYDAY=MO,TH,SA;BYMINUTE=11;BYSECOND=12,23;BYSETPOS=1,2;COUNT=2"],
        dtstart: "20120112T231112") == ["20120112T231112", "20120116T231112"])
  }

  @Test func sparseRulesReachTheLaterYears() throws {
    #expect(
      try expand(["FREQ=DAILY;BYMONTH=2;BYMONTHDAY=29"], dtstart: "20250101", limit: 3)
        == ["20250101", "20280229", "20320229"])
    #expect(
      try expand(["FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29"], dtstart: "20960229", limit: 3)
        == ["20960229", "21040229", "21080229"])
  }

  @Test func expansionEndsWithYear9999() throws {
    let instances = try expand(["FREQ=YEARLY"], dtstart: "99970101T000000")
    #expect(instances == ["99970101T000000", "99980101T000000", "99990101T000000"])
    let daily = try expand(["FREQ=DAILY"], dtstart: "99991230T120000")
    #expect(daily == ["99991230T120000", "99991231T120000"])
  }

  @Test func recurrenceDatesAndExceptions() throws {
    #expect(
      try expand(
        ["FREQ=WEEKLY;COUNT=3"], dtstart: "20250106T090000", tzid: "Europe/Berlin",
        rdates: ["20250108T120000", "20250101T080000Z/PT1H"], exdates: ["20250113T090000"])
        == ["20250101T090000", "20250106T090000", "20250108T120000", "20250120T090000"])
    // EXDATE can remove DTSTART itself; a DATE EXDATE removes that day of a DATE-TIME set.
    #expect(
      try expand(
        ["FREQ=DAILY;COUNT=3"], dtstart: "20250106T090000", exdates: ["20250106T090000"])
        == ["20250107T090000", "20250108T090000"])
    #expect(
      try expand(["FREQ=DAILY;COUNT=3"], dtstart: "20250106T090000", exdates: ["20250107"])
        == ["20250106T090000", "20250108T090000"])
    // No rule: DTSTART and the RDATEs, each once.
    #expect(
      try expand([], dtstart: "20250106", rdates: ["20250110", "20250106", "20250108"])
        == ["20250106", "20250108", "20250110"])
  }

  @Test func severalRulesMergeInOrderWithoutRepeats() throws {
    #expect(
      try expand(
        ["FREQ=WEEKLY;BYDAY=MO;COUNT=3", "FREQ=WEEKLY;BYDAY=MO,WE;COUNT=3"],
        dtstart: "20250106T090000")
        == ["20250106T090000", "20250108T090000", "20250113T090000", "20250120T090000"])
  }

  @Test func windowQueriesJumpAhead() throws {
    let set = RecurrenceSet(
      start: try DateTimeValue(parsing: "19900101T090000", tzid: "America/New_York"),
      rules: [try RecurrenceRule(parsing: "FREQ=DAILY")])
    let from = try DateTimeValue(parsing: "20300101T000000Z").secondsSinceEpoch()
    let week = Array(try set.occurrences(from: from, to: from + 7 * 86_400))
    #expect(week.count == 7)
    #expect(week.first?.local.description == "20300101T090000")
    // A window inside DTSTART's own period and one before DTSTART.
    #expect(Array(try set.occurrences(from: 0, to: 1)).isEmpty)
    let first = try set.occurrences(between: Date(timeIntervalSince1970: 0), and: .distantFuture)
    #expect(first.first { _ in true }?.local.description == "19900101T090000")
  }

  @Test func windowsWithCountCountWhatCameBefore() throws {
    let set = RecurrenceSet(
      start: try DateTimeValue(parsing: "20250101T090000", tzid: "America/New_York"),
      rules: [try RecurrenceRule(parsing: "FREQ=DAILY;COUNT=100")])
    let from = try DateTimeValue(parsing: "20250409T000000Z").secondsSinceEpoch()
    let tail = Array(try set.occurrences(from: from, to: nil)).map(\.local.description)
    // Instance 100 is 2025-04-10 (1 January + 99 days).
    #expect(tail == ["20250409T090000", "20250410T090000"])
    let later = try DateTimeValue(parsing: "20250411T000000Z").secondsSinceEpoch()
    #expect(Array(try set.occurrences(from: later, to: nil)).isEmpty)
  }
}
