import ICalendar
import Testing

@testable import OpenEventKit

/// `SeriesReach`: the days a series can fall on, known without expanding it.
@Suite struct SeriesReachTests {
  private func reach(_ rules: [String], start: String = "20240229T120000", dates: Bool = false)
    throws -> SeriesReach
  {
    let start = try DateTimeValue(parsing: start)
    return SeriesReach(
      RecurrenceSet(
        start: start, rules: try rules.map { try RecurrenceRule(parsing: $0) },
        dates: dates ? [.dateTime(start)] : []))
  }

  private func days(_ from: String, _ to: String) -> ClosedRange<Int> {
    func day(_ text: String) -> Int {
      let parts = text.split(separator: "-").map { Int($0)! }
      return CivilDate.dayNumber(year: parts[0], month: parts[1], day: parts[2])
    }
    return day(from)...day(to)
  }

  @Test func aPlainYearlyRuleFallsOnItsStartsMonthAndDayOnly() throws {
    let leapDay = try reach(["FREQ=YEARLY"])
    #expect(leapDay.mayFall(on: days("2028-02-27", "2028-03-02")))
    // February 29 is in leap years only (§3.3.10: invalid dates are skipped).
    #expect(!leapDay.mayFall(on: days("2027-02-01", "2027-03-31")))
    // Not before the series starts.
    #expect(!leapDay.mayFall(on: days("2020-02-01", "2020-03-31")))
    let everyOther = try reach(["FREQ=YEARLY;INTERVAL=2;COUNT=5"], start: "20240615T100000")
    #expect(everyOther.mayFall(on: days("2026-06-15", "2026-06-15")))
    #expect(!everyOther.mayFall(on: days("2025-06-01", "2025-06-30")))
    // Across a new year: either year's date counts.
    let newYear = try reach(["FREQ=YEARLY"], start: "20240101T000000")
    #expect(newYear.mayFall(on: days("2025-12-30", "2026-01-02")))
    #expect(!newYear.mayFall(on: days("2026-01-02", "2026-12-30")))
    // A window of years is left to the expansion.
    #expect(everyOther.mayFall(on: days("2025-01-01", "2029-12-31")))
  }

  @Test func anyOtherSetMayFallOnAnyDay() throws {
    for rules in [
      ["FREQ=YEARLY;BYMONTH=3"], ["FREQ=YEARLY;BYDAY=MO"], ["FREQ=YEARLY;BYHOUR=9,17"],
      ["FREQ=MONTHLY"], ["FREQ=YEARLY", "FREQ=YEARLY;INTERVAL=3"], [],
    ] {
      let set = try reach(rules)
      #expect(set.mayFall(on: days("2027-07-01", "2027-07-31")), "\(rules)")
    }
    // An RDATE may be any day.
    #expect(try reach(["FREQ=YEARLY"], dates: true).mayFall(on: days("2027-07-01", "2027-07-31")))
    #expect(SeriesReach(nil).mayFall(on: days("2027-07-01", "2027-07-31")))
  }
}
