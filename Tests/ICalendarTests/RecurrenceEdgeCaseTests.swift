import Foundation
import Testing

@testable import ICalendar

/// Inputs at the edges: DST gaps at DTSTART, leap seconds, windows with COUNT across gaps,
/// RDATE-only sets, and files and rules built to make the engine trap or hang.
@Suite struct RecurrenceEdgeCaseTests {
  @Test func aDTSTARTInAGapIsFirstAndEachInstantComesOnce() throws {
    // 02:30 does not exist on 2024-03-10 in New York: DTSTART is 03:30 EDT, and the rule's
    // candidates before that instant (03:00, 03:15) are not in the set.
    #expect(
      try expand(
        ["FREQ=MINUTELY;INTERVAL=15;COUNT=4"], dtstart: "20240310T023000", tzid: "America/New_York")
        == ["20240310T033000", "20240310T034500", "20240310T040000", "20240310T041500"])
    #expect(
      try expand(
        ["FREQ=HOURLY;BYMINUTE=0,30;COUNT=3"], dtstart: "20240310T023000", tzid: "America/New_York")
        == ["20240310T033000", "20240310T040000", "20240310T043000"])
  }

  @Test func aTimeNamedTwiceInTheRuleComesOnce() throws {
    // BYHOUR=10,9,10 and BYMINUTE=0,0 name 09:00 and 10:00; each is one instance a day, in
    // order (§3.3.10: the set of instances, not a list of them).
    #expect(
      try expand(["FREQ=DAILY;BYHOUR=10,9,10;BYMINUTE=0,0;COUNT=4"], dtstart: "20240101T090000")
        == ["20240101T090000", "20240101T100000", "20240102T090000", "20240102T100000"])
    #expect(
      try expand(["FREQ=HOURLY;BYMINUTE=30,15,30;COUNT=3"], dtstart: "20240101T091500")
        == ["20240101T091500", "20240101T093000", "20240101T101500"])
    #expect(
      try expand(["FREQ=MINUTELY;BYSECOND=5,5;COUNT=2"], dtstart: "20240101T090005")
        == ["20240101T090005", "20240101T090105"])
  }

  @Test func leapSecondsNeverMatch() throws {
    // §3.3.10 allows BYSECOND=60 for leap seconds; POSIX time has none.
    #expect(
      try expand(["FREQ=SECONDLY;BYSECOND=60"], dtstart: "20240101T000000") == ["20240101T000000"])
    #expect(
      try expand(["FREQ=MINUTELY;BYSECOND=0,60;COUNT=3"], dtstart: "20240101T000000")
        == ["20240101T000000", "20240101T000100", "20240101T000200"])
    // A leap second in a value is read as second 59, never as the next day or year.
    #expect(try DateTimeValue(parsing: "99991231T235960").text == "99991231T235959")
  }

  @Test func windowsWithCountAcrossGapsCountMergedInstantsOnce() throws {
    // Samoa skipped 2011-12-30: its 09:00 moves onto 2011-12-31 09:00, one instant.
    let full = try expand(["FREQ=DAILY;COUNT=20"], dtstart: "20111220T090000", tzid: "Pacific/Apia")
    let window = try expand(
      ["FREQ=DAILY;COUNT=20"], dtstart: "20111220T090000", tzid: "Pacific/Apia",
      from: "20120105T000000")
    #expect(window == full.filter { $0 >= "20120105" })
    #expect(window.last == "20120109T090000")
    let weekly = "FREQ=WEEKLY;BYDAY=SU;BYHOUR=2,3;COUNT=8"
    let all = try expand([weekly], dtstart: "20240303T023000", tzid: "America/New_York")
    #expect(
      try expand(
        [weekly], dtstart: "20240303T023000", tzid: "America/New_York", from: "20240317T000000")
        == all.filter { $0 >= "20240317" })
  }

  /// A window far into a rule with COUNT, in a zone with DST: the instances before it are
  /// counted whole period by period between the gaps and walked only around each gap, and
  /// come out as the full expansion has them.
  @Test(arguments: [
    ("FREQ=HOURLY;COUNT=150000", "America/New_York"),
    ("FREQ=MINUTELY;INTERVAL=47;COUNT=150000", "Europe/Paris"),
    // Lord Howe moves its clocks by 30 minutes: 02:00 falls into the gap onto 02:30.
    ("FREQ=DAILY;BYHOUR=1,2,3;BYMINUTE=0,30;COUNT=60000", "Australia/Lord_Howe"),
    // Dublin's rule has a negative DST (winter is the daylight saving).
    ("FREQ=WEEKLY;BYDAY=SA,SU;BYHOUR=1;BYMINUTE=30;COUNT=5000", "Europe/Dublin"),
    // Apia skipped 30 December 2011 whole, and kept DST until 2021.
    ("FREQ=DAILY;COUNT=5000", "Pacific/Apia"),
    // Santiago changes at midnight.
    ("FREQ=HOURLY;INTERVAL=5;BYMINUTE=15,45;COUNT=60000", "America/Santiago"),
  ])
  func windowsFarIntoACountedRuleCountAcrossEveryGap(rule: String, tzid: String) throws {
    let set = RecurrenceSet(
      start: try DateTimeValue(parsing: "20100301T013000", tzid: tzid),
      rules: [try RecurrenceRule(parsing: rule)])
    let all = Array(try set.occurrences()).map(\.secondsSinceEpoch)
    for fraction in [0.02, 0.37, 0.5, 0.83, 0.9995] {
      let from = all[Int(Double(all.count) * fraction)] - 1_800
      let to = from + 3 * 86_400
      let window = Array(try set.occurrences(from: from, to: to)).map(\.secondsSinceEpoch)
      #expect(window == all.filter { $0 >= from && $0 < to }, "\(rule) \(tzid) at \(fraction)")
    }
  }

  /// COUNT as large as it may be (2,147,483,647), every second, in Paris: a window near its
  /// end, 68 years on, is counted in bounded time, not walked through two billion instances.
  /// Every UTC second is an instance but the hours the clocks repeat in October (their
  /// readings came the hour before), so the last is 68 such hours after DTSTART plus COUNT.
  @Test(.timeLimit(.minutes(1))) func aHugeCountInADSTZoneIsCountedNotWalked() throws {
    let start = try DateTimeValue(parsing: "20250101T000000", tzid: "Europe/Paris")
    let set = RecurrenceSet(
      start: start, rules: [try RecurrenceRule(parsing: "FREQ=SECONDLY;COUNT=2147483647")])
    let clock = ContinuousClock()
    let began = clock.now
    let last = try start.secondsSinceEpoch() + 2_147_483_646 + 68 * 3_600
    #expect(
      utcTexts(try set.occurrences(from: last - 1, to: last + 60)) == [
        "20930121T221405Z", "20930121T221406Z",
      ])
    // 27 October 2080: 01:00-02:00 UTC is the second 02:00-03:00 in Paris.
    let repeated = try DateTimeValue(parsing: "20801027T010000Z").secondsSinceEpoch()
    #expect(
      utcTexts(try set.occurrences(from: repeated - 2, to: repeated + 3_602)) == [
        "20801027T005958Z", "20801027T005959Z", "20801027T020000Z", "20801027T020001Z",
      ])
    #expect(clock.now - began < .seconds(10))
  }

  @Test func dtstartSortsAmongRecurrenceDatesWithoutARule() throws {
    #expect(
      try expand([], dtstart: "20240101T090000", rdates: ["20231231T090000", "20240105T090000"])
        == ["20231231T090000", "20240101T090000", "20240105T090000"])
    #expect(
      try expand(
        [], dtstart: "20240101T090000", to: "20240101T000000", rdates: ["20231231T090000"])
        == ["20231231T090000"])
  }

  @Test func bySetPosOverHugeDaysTimesProductsIndexesInsteadOfBuilding() throws {
    let hours = (0...23).map(String.init).joined(separator: ",")
    let sixty = (0...59).map(String.init).joined(separator: ",")
    let rule =
      "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR,SA,SU;BYHOUR=\(hours);BYMINUTE=\(sixty);BYSECOND=\(sixty);"
      + "BYSETPOS=-1;COUNT=3"
    #expect(
      try expand([rule], dtstart: "20240101T090000")
        == ["20240101T090000", "20240107T235959", "20240114T235959"])
  }

  @Test func sparseSubDailyRulesJumpOverMonthsAndYears() throws {
    // Every 25 hours from 2024-01-01 09:00, keeping 03:00 on 29 February: checked against a
    // plain walk over the grid.
    let start = CivilDateTime(year: 2024, month: 1, day: 1, hour: 9)!
    var walked: [String] = [start.description]
    var reading = start
    while walked.count < 3 {
      reading = reading.adding(seconds: 25 * 3600)
      let date = reading.date
      if date.month == 2, date.day == 29, reading.hour == 3 { walked.append(reading.description) }
    }
    #expect(
      try expand(
        ["FREQ=HOURLY;INTERVAL=25;BYMONTH=2;BYMONTHDAY=29;BYHOUR=3"], dtstart: "20240101T090000",
        limit: 3) == walked)
  }

  @Test func aZoneFileWithNegativeCountsIsAnErrorNotATrap() throws {
    var bytes = Array("TZif2".utf8) + [UInt8](repeating: 0, count: 15)
    func count(_ value: Int32) -> [UInt8] {
      withUnsafeBytes(of: value.bigEndian) { Array($0) }
    }
    // v1 header: isut, isstd, leap, time, type, char; then a v2 header with time = -5.
    bytes += count(0) + count(0) + count(0) + count(0) + count(1) + count(1)
    bytes += [0, 0, 0, 0, 0, 0, 0]
    bytes += Array("TZif2".utf8) + [UInt8](repeating: 0, count: 15)
    bytes += count(0) + count(0) + count(0) + count(-5) + count(1) + count(1)
    #expect(throws: TZifError.self) { try TZifFile(data: Data(bytes)) }
  }
}

/// A rule whose UNTIL comes before DTSTART has no instance, as producers mean it.
@Suite struct UntilBeforeStartTests {
  @Test(arguments: [
    ("20231002", nil as String?, "FREQ=WEEKLY;UNTIL=20231001;INTERVAL=2;BYDAY=MO"),
    ("20231002T090000", "Europe/Paris", "FREQ=DAILY;UNTIL=20231002T065959Z"),
    ("20231002T090000", nil, "FREQ=DAILY;UNTIL=20231002T085959"),
  ])
  func noInstance(start: String, tzid: String?, rule: String) throws {
    let set = RecurrenceSet(
      start: try DateTimeValue(parsing: start, tzid: tzid),
      rules: [try RecurrenceRule(parsing: rule)])
    #expect(Array(try set.occurrences()).isEmpty)
    #expect(Array(try set.occurrences(from: 0, to: Int(Int32.max))).isEmpty)
  }

  @Test func anUntilAtDTSTARTKeepsIt() throws {
    let set = RecurrenceSet(
      start: try DateTimeValue(parsing: "20231002T090000", tzid: "Europe/Paris"),
      rules: [try RecurrenceRule(parsing: "FREQ=DAILY;UNTIL=20231002T070000Z")])
    #expect(Array(try set.occurrences()).count == 1)
  }
}
