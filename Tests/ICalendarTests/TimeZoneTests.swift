import Foundation
import ICalendar
import Testing

/// Offsets from the tz database, and wall-clock readings that a change of offset skips or
/// repeats, resolved as RFC 5545 §3.3.5 says: a reading in a gap moves forward by the gap's
/// length, a repeated reading takes its first (earlier) instant.
@Suite struct TimeZoneTests {
  func instant(_ text: String, _ zone: String) throws -> String {
    let value = try DateTimeValue(parsing: text, tzid: zone)
    return ICalendarFormat.dateTime(
      CivilDateTime(localSeconds: try value.secondsSinceEpoch()), utc: true)
  }

  @Test func newYorkOffsets() throws {
    #expect(try instant("20240115T090000", "America/New_York") == "20240115T140000Z")
    #expect(try instant("20240715T090000", "America/New_York") == "20240715T130000Z")
    // Past the last transition the TZif file lists, the footer's POSIX rule takes over.
    #expect(try instant("21500115T090000", "America/New_York") == "21500115T140000Z")
    #expect(try instant("99990715T090000", "America/New_York") == "99990715T130000Z")
  }

  @Test func instantsReadBackOnTheWallClockPastTheListedTransitions() throws {
    let zone = try ZoneRules.named("America/New_York")
    for text in ["21500115T090000", "21500715T090000", "99991105T013000", "99990310T030000"] {
      let reading = try DateTimeValue(parsing: text).local.localSeconds
      let instant = zone.instant(forLocal: reading).seconds
      #expect(zone.local(forUTC: instant) == reading, "\(text)")
    }
    // Just before and after the spring change of 2150 (2150-03-08, 02:00 EST).
    let change = try DateTimeValue(parsing: "21500308T070000Z").local.localSeconds
    #expect(zone.offset(atUTC: change - 1) == -5 * 3600)
    #expect(zone.offset(atUTC: change) == -4 * 3600)
  }

  @Test func newYorkGapAndOverlap() throws {
    // 2024-03-10: 02:00 EST jumps to 03:00 EDT. 02:30 does not exist: it becomes 03:30 EDT.
    #expect(try instant("20240310T023000", "America/New_York") == "20240310T073000Z")
    #expect(try instant("20240310T030000", "America/New_York") == "20240310T070000Z")
    // 2024-11-03: 02:00 EDT falls back to 01:00 EST. 01:30 happens twice: the first is EDT.
    #expect(try instant("20241103T013000", "America/New_York") == "20241103T053000Z")
    #expect(try instant("20241103T020000", "America/New_York") == "20241103T070000Z")
  }

  @Test func lordHoweHalfHourShift() throws {
    // Lord Howe Island: +10:30 standard, +11:00 summer; the clocks move by 30 minutes.
    #expect(try instant("20240115T120000", "Australia/Lord_Howe") == "20240115T010000Z")
    #expect(try instant("20240715T120000", "Australia/Lord_Howe") == "20240715T013000Z")
    // 2024-10-06: 02:00 becomes 02:30; 02:15 moves forward to 02:45 (+11:00).
    #expect(try instant("20241006T021500", "Australia/Lord_Howe") == "20241005T154500Z")
    // 2024-04-07: 02:00 falls back to 01:30; 01:45 happens twice and the first is +11:00.
    #expect(try instant("20240407T014500", "Australia/Lord_Howe") == "20240406T144500Z")
  }

  @Test func dailyRuleThroughTheGapAndOverlapInNewYork() throws {
    #expect(
      try expand(["FREQ=DAILY;COUNT=3"], dtstart: "20240309T023000", tzid: "America/New_York")
        == ["20240309T023000", "20240310T033000", "20240311T023000"])
    let set = RecurrenceSet(
      start: try DateTimeValue(parsing: "20241102T013000", tzid: "America/New_York"),
      rules: [try RecurrenceRule(parsing: "FREQ=DAILY;COUNT=3")])
    #expect(
      utcTexts(try set.occurrences())
        == ["20241102T053000Z", "20241103T053000Z", "20241104T063000Z"])
  }

  @Test func dailyRuleThroughTheGapAndOverlapOnLordHowe() throws {
    #expect(
      try expand(["FREQ=DAILY;COUNT=3"], dtstart: "20241005T021500", tzid: "Australia/Lord_Howe")
        == ["20241005T021500", "20241006T024500", "20241007T021500"])
    let set = RecurrenceSet(
      start: try DateTimeValue(parsing: "20240406T014500", tzid: "Australia/Lord_Howe"),
      rules: [try RecurrenceRule(parsing: "FREQ=DAILY;COUNT=3")])
    #expect(
      utcTexts(try set.occurrences())
        == ["20240405T144500Z", "20240406T144500Z", "20240407T151500Z"])
  }

  @Test func subDailyRulesThroughAGapStayInOrderAndDropRepeats() throws {
    // 02:00, 02:15, 02:30, 02:45 all move past 03:00; the set holds each instant once.
    #expect(
      try expand(
        ["FREQ=MINUTELY;INTERVAL=15;COUNT=7"], dtstart: "20240310T013000",
        tzid: "America/New_York")
        == [
          "20240310T013000", "20240310T014500", "20240310T030000", "20240310T031500",
          "20240310T033000", "20240310T034500", "20240310T040000",
        ])
    #expect(
      try expand(["FREQ=HOURLY;COUNT=4"], dtstart: "20240310T000000", tzid: "America/New_York")
        == ["20240310T000000", "20240310T010000", "20240310T030000", "20240310T040000"])
  }

  @Test func hourlyRuleThroughAnOverlapRunsOnTheWallClock() throws {
    // Rules run on the wall clock (§3.3.10), so the repeated 01:00 is one instance, EDT.
    let set = RecurrenceSet(
      start: try DateTimeValue(parsing: "20241103T000000", tzid: "America/New_York"),
      rules: [try RecurrenceRule(parsing: "FREQ=HOURLY;COUNT=4")])
    #expect(
      utcTexts(try set.occurrences())
        == ["20241103T040000Z", "20241103T050000Z", "20241103T070000Z", "20241103T080000Z"])
  }

  @Test func unknownZonesAreErrors() {
    #expect(throws: TimeZoneError.unknownTimeZone("Mars/Olympus")) {
      try ZoneRules.named("Mars/Olympus")
    }
    #expect(throws: TimeZoneError.self) { try ZoneRules.named("../../etc/passwd") }
    #expect(throws: TimeZoneError.self) { try ZoneRules.named("") }
  }
}

@Suite struct ExtremeInputTests {
  @Test func aZoneThatSkipsAWholeDay() throws {
    // Samoa skipped 30 December 2011. Every reading of that day moves forward 24 hours, onto
    // the readings of the next day, and each instant is held once, in order.
    let instances = try expand(
      ["FREQ=MINUTELY;INTERVAL=30"], dtstart: "20111229T230000", tzid: "Pacific/Apia", limit: 5)
    #expect(
      instances == [
        "20111229T230000", "20111229T233000", "20111231T000000", "20111231T003000",
        "20111231T010000",
      ])
  }

  @Test func boundsFarOutsideTheCalendarAreNoBounds() throws {
    let set = RecurrenceSet(
      start: try DateTimeValue(parsing: "20250101T090000", tzid: "Asia/Kolkata"),
      rules: [try RecurrenceRule(parsing: "FREQ=YEARLY;COUNT=3")])
    #expect(Array(try set.occurrences(from: Int.min, to: Int.max)).count == 3)
    #expect(
      Array(try set.occurrences(between: .distantPast, and: Date(timeIntervalSince1970: .infinity)))
        .count == 3)
    #expect(Array(try set.occurrences(from: Int.max, to: nil)).isEmpty)
  }
}
