import Foundation
import ICalendar
import Testing

/// Reading and writing RRULE text (RFC 5545 §3.3.10), and every refusal naming its part.
@Suite struct RecurrenceRuleParsingTests {
  @Test func readsEveryPart() throws {
    let rule = try RecurrenceRule(
      parsing:
        "FREQ=YEARLY;INTERVAL=2;UNTIL=20301231T235959Z;BYSECOND=0,30;BYMINUTE=15;BYHOUR=9,17;"
        + "BYDAY=MO,-1FR,+2TU;BYMONTHDAY=1,-1;BYYEARDAY=100,-100;BYMONTH=1,6;BYSETPOS=1,-1;WKST=SU")
    #expect(rule.frequency == .yearly)
    #expect(rule.interval == 2)
    #expect(
      rule.until
        == .utc(CivilDateTime(year: 2030, month: 12, day: 31, hour: 23, minute: 59, second: 59)!))
    #expect(rule.bySecond == [0, 30])
    #expect(rule.byMinute == [15])
    #expect(rule.byHour == [9, 17])
    #expect(
      rule.byDay == [
        .init(.monday), .init(.friday, ordinal: -1), .init(.tuesday, ordinal: 2),
      ])
    #expect(rule.byMonthDay == [1, -1])
    #expect(rule.byYearDay == [100, -100])
    #expect(rule.byMonth == [1, 6])
    #expect(rule.bySetPos == [1, -1])
    #expect(rule.weekStart == .sunday)
  }

  @Test func writesCanonicalText() throws {
    let rule = try RecurrenceRule(parsing: "rrule:byday=mo,we;freq=weekly;count=10;wkst=mo;")
    #expect(rule.text == "FREQ=WEEKLY;COUNT=10;BYDAY=MO,WE")
    #expect(try RecurrenceRule(parsing: rule.text) == rule)
    #expect(
      try RecurrenceRule(parsing: "FREQ=MONTHLY;BYDAY=+1MO,-1FR;UNTIL=20250101").text
        == "FREQ=MONTHLY;UNTIL=20250101;BYDAY=1MO,-1FR")
  }

  @Test func codesAsText() throws {
    let rule = try RecurrenceRule(parsing: "FREQ=DAILY;INTERVAL=3;COUNT=4")
    let data = try JSONEncoder().encode([rule])
    #expect(String(decoding: data, as: UTF8.self) == #"["FREQ=DAILY;INTERVAL=3;COUNT=4"]"#)
    #expect(try JSONDecoder().decode([RecurrenceRule].self, from: data) == [rule])
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode([RecurrenceRule].self, from: Data(#"["FREQ=NEVER"]"#.utf8))
    }
  }

  struct BadRule: Sendable, CustomTestStringConvertible {
    let text: String
    let reason: RecurrenceRuleError.Reason
    let part: String?
    var testDescription: String { text.isEmpty ? "(empty)" : text }
  }

  static let badRules: [BadRule] = [
    BadRule(text: "", reason: .empty, part: nil),
    BadRule(text: "  ;  ", reason: .empty, part: nil),
    BadRule(text: "FREQ=FORTNIGHTLY", reason: .invalidValue, part: "FREQ"),
    BadRule(text: "INTERVAL=2", reason: .missingFrequency, part: "FREQ"),
    BadRule(
      text: "FREQ=DAILY;COUNT=3;UNTIL=20250101T000000Z", reason: .countWithUntil, part: "UNTIL"),
    BadRule(text: "FREQ=WEEKLY;BYDAY=2MO", reason: .ordinalNotAllowed, part: "BYDAY"),
    BadRule(text: "FREQ=DAILY;BYDAY=-1FR", reason: .ordinalNotAllowed, part: "BYDAY"),
    BadRule(text: "FREQ=YEARLY;BYWEEKNO=20;BYDAY=1MO", reason: .ordinalNotAllowed, part: "BYDAY"),
    BadRule(text: "FREQ=WEEKLY;BYMONTHDAY=1", reason: .notAllowedForFrequency, part: "BYMONTHDAY"),
    BadRule(text: "FREQ=DAILY;BYYEARDAY=1", reason: .notAllowedForFrequency, part: "BYYEARDAY"),
    BadRule(text: "FREQ=WEEKLY;BYYEARDAY=1", reason: .notAllowedForFrequency, part: "BYYEARDAY"),
    BadRule(text: "FREQ=MONTHLY;BYYEARDAY=1", reason: .notAllowedForFrequency, part: "BYYEARDAY"),
    BadRule(text: "FREQ=MONTHLY;BYWEEKNO=1", reason: .notAllowedForFrequency, part: "BYWEEKNO"),
    BadRule(text: "FREQ=DAILY;BYSETPOS=1", reason: .setPositionWithoutOtherPart, part: "BYSETPOS"),
    BadRule(text: "FREQ=YEARLY;BYMONTH=13", reason: .invalidValue, part: "BYMONTH"),
    BadRule(text: "FREQ=YEARLY;BYMONTH=0", reason: .invalidValue, part: "BYMONTH"),
    BadRule(text: "FREQ=YEARLY;BYWEEKNO=54", reason: .invalidValue, part: "BYWEEKNO"),
    BadRule(text: "FREQ=YEARLY;BYWEEKNO=0", reason: .invalidValue, part: "BYWEEKNO"),
    BadRule(text: "FREQ=DAILY;BYHOUR=24", reason: .invalidValue, part: "BYHOUR"),
    BadRule(text: "FREQ=DAILY;BYMINUTE=60", reason: .invalidValue, part: "BYMINUTE"),
    BadRule(text: "FREQ=DAILY;BYSECOND=61", reason: .invalidValue, part: "BYSECOND"),
    BadRule(text: "FREQ=MONTHLY;BYMONTHDAY=32", reason: .invalidValue, part: "BYMONTHDAY"),
    BadRule(text: "FREQ=MONTHLY;BYMONTHDAY=0", reason: .invalidValue, part: "BYMONTHDAY"),
    BadRule(text: "FREQ=YEARLY;BYYEARDAY=-367", reason: .invalidValue, part: "BYYEARDAY"),
    BadRule(text: "FREQ=MONTHLY;BYDAY=MO;BYSETPOS=0", reason: .invalidValue, part: "BYSETPOS"),
    BadRule(text: "FREQ=MONTHLY;BYDAY=MO;BYSETPOS=367", reason: .invalidValue, part: "BYSETPOS"),
    BadRule(text: "FREQ=YEARLY;BYDAY=54MO", reason: .invalidValue, part: "BYDAY"),
    BadRule(text: "FREQ=DAILY;BYDAY=XX", reason: .invalidValue, part: "BYDAY"),
    BadRule(text: "FREQ=DAILY;BYDAY=", reason: .invalidValue, part: "BYDAY"),
    BadRule(text: "FREQ=DAILY;BYMONTH=1,,2", reason: .invalidValue, part: "BYMONTH"),
    BadRule(text: "FREQ=DAILY;BYMONTH=one", reason: .invalidValue, part: "BYMONTH"),
    BadRule(text: "FREQ=DAILY;INTERVAL=0", reason: .invalidValue, part: "INTERVAL"),
    BadRule(text: "FREQ=DAILY;INTERVAL=-1", reason: .invalidValue, part: "INTERVAL"),
    BadRule(
      text: "FREQ=DAILY;INTERVAL=99999999999999999999", reason: .invalidValue, part: "INTERVAL"),
    BadRule(text: "FREQ=DAILY;COUNT=-5", reason: .invalidValue, part: "COUNT"),
    BadRule(text: "FREQ=DAILY;COUNT=0", reason: .invalidValue, part: "COUNT"),
    BadRule(text: "FREQ=DAILY;UNTIL=tomorrow", reason: .invalidValue, part: "UNTIL"),
    BadRule(text: "FREQ=DAILY;UNTIL=20250230", reason: .invalidValue, part: "UNTIL"),
    BadRule(text: "FREQ=DAILY;WKST=XY", reason: .invalidValue, part: "WKST"),
    BadRule(text: "FREQ=DAILY;COLOR=RED", reason: .unknownPart, part: "COLOR"),
    BadRule(text: "FREQ=DAILY;X-NAME=1", reason: .unknownPart, part: "X-NAME"),
    BadRule(text: "FREQ=DAILY;FREQ=WEEKLY", reason: .repeatedPart, part: "FREQ"),
    BadRule(text: "FREQ=DAILY;BYHOUR=1;BYHOUR=2", reason: .repeatedPart, part: "BYHOUR"),
    BadRule(text: "FREQ=DAILY;COUNT", reason: .malformedPart, part: "COUNT"),
    BadRule(text: "=DAILY", reason: .malformedPart, part: nil),
    BadRule(text: "FREQ=MONTHLY;BYDAY=1 MO", reason: .invalidValue, part: "BYDAY"),
  ]

  @Test(arguments: badRules)
  func refusesWithThePartNamed(_ bad: BadRule) {
    do {
      let rule = try RecurrenceRule(parsing: bad.text)
      Issue.record("accepted \(rule)")
    } catch {
      #expect(error.reason == bad.reason)
      #expect(error.part == bad.part)
      if let part = bad.part { #expect(error.message.contains(part)) }
    }
  }

  /// A number too large for its part says so, and gives the range, however many digits it has.
  @Test(arguments: [
    ("FREQ=DAILY;COUNT=9999999999", "COUNT=9999999999 is out of range (1 to 2147483647)"),
    ("FREQ=DAILY;COUNT=2147483648", "COUNT=2147483648 is out of range (1 to 2147483647)"),
    ("FREQ=DAILY;COUNT=0", "COUNT=0 is out of range (1 to 2147483647)"),
    (
      "FREQ=DAILY;INTERVAL=9999999999", "INTERVAL=9999999999 is out of range (1 to 1000000000)"
    ),
    (
      "FREQ=DAILY;INTERVAL=" + String(repeating: "9", count: 30),
      "INTERVAL=" + String(repeating: "9", count: 30) + " is out of range (1 to 1000000000)"
    ),
    (
      "FREQ=MONTHLY;BYMONTHDAY=1,99999999999",
      "BYMONTHDAY value 99999999999 is out of range (1 to 31 or -31 to -1)"
    ),
    (
      "FREQ=MONTHLY;BYMONTHDAY=1,-" + String(repeating: "9", count: 30),
      "BYMONTHDAY value -" + String(repeating: "9", count: 30)
        + " is out of range (1 to 31 or -31 to -1)"
    ),
    (
      "FREQ=YEARLY;BYDAY=99999999999MO",
      "BYDAY ordinal in '99999999999MO' is out of range (1 to 53 or -53 to -1)"
    ),
    ("FREQ=DAILY;COUNT=ten", "COUNT=ten is not a whole number"),
  ])
  func tooLargeIsOutOfRangeWithTheRange(text: String, message: String) {
    #expect(throws: RecurrenceRuleError.self) { try RecurrenceRule(parsing: text) }
    do {
      _ = try RecurrenceRule(parsing: text)
    } catch {
      #expect(error.message == message)
    }
  }

  @Test func theLargestCountAndIntervalAreRead() throws {
    #expect(try RecurrenceRule(parsing: "FREQ=DAILY;COUNT=2147483647").count == 2_147_483_647)
    #expect(try RecurrenceRule(parsing: "FREQ=DAILY;COUNT=0002").count == 2)
    #expect(
      try RecurrenceRule(parsing: "FREQ=DAILY;INTERVAL=1000000000").interval == 1_000_000_000)
    // A rule built in code is held to the same range as one read.
    #expect(throws: RecurrenceRuleError.self) {
      try RecurrenceRule(frequency: .daily, end: .count(Int(Int32.max) + 1)).validate()
    }
  }

  @Test func aRuleBuiltInCodeIsCheckedWhenExpanded() throws {
    let rule = RecurrenceRule(frequency: .daily, byHour: [25])
    let set = RecurrenceSet(
      start: .floating(CivilDateTime(year: 2025, month: 1, day: 1)!), rules: [rule])
    #expect(throws: RecurrenceSetError.self) { try set.occurrences() }
  }

  @Test func aSubDailyRuleCannotRepeatADate() throws {
    let set = RecurrenceSet(
      start: .date(CivilDate(year: 2025, month: 1, day: 1)!),
      rules: [try RecurrenceRule(parsing: "FREQ=HOURLY")])
    #expect(throws: RecurrenceSetError.self) { try set.occurrences() }
  }

  @Test func durationsReadAndWriteBack() throws {
    let duration = try DurationValue(parsing: "P1W2DT3H4M5S")
    #expect(duration.nominalDays == 9)
    #expect(duration.exactSeconds == 3 * 3600 + 4 * 60 + 5)
    #expect(duration.text == "P1W2DT3H4M5S")
    #expect(try DurationValue(parsing: "-PT15M").exactSeconds == -900)
    #expect(DurationValue().text == "P0D")
    for bad in ["", "P", "PT", "1H", "PT1D", "P1H", "P1.5D", "PT99999999999H", "P1DT"] {
      #expect(throws: DurationValueError.self, "\(bad)") { try DurationValue(parsing: bad) }
    }
  }

  @Test func dateTimeValuesReadWriteAndCode() throws {
    let zoned = try DateTimeValue(parsing: "20250301T093000", tzid: "Europe/Paris")
    #expect(zoned.description == "TZID=Europe/Paris:20250301T093000")
    #expect(try DateTimeValue(parsing: "20250301T093000Z", tzid: "Europe/Paris").tzid == nil)
    #expect(try DateTimeValue(parsing: "20250301").isDate)
    let values = [
      zoned, try DateTimeValue(parsing: "20250301"), try DateTimeValue(parsing: "20250301T093000"),
    ]
    let data = try JSONEncoder().encode(values)
    #expect(try JSONDecoder().decode([DateTimeValue].self, from: data) == values)
    for bad in ["2025-03-01", "20250230", "20250301T256000", "20250301T0930"] {
      #expect(throws: DateTimeValueError.self, "\(bad)") { try DateTimeValue(parsing: bad) }
    }
  }

  @Test func hugeListsAreRefusedNotAllocated() {
    let text = "FREQ=DAILY;BYHOUR=" + Array(repeating: "1", count: 100_000).joined(separator: ",")
    #expect(throws: RecurrenceRuleError.self) { try RecurrenceRule(parsing: text) }
  }
}
