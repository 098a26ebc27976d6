import Foundation
import TestSupport
import Testing

/// `ekctl rrule`, run as a person or a script runs it.
@Suite struct RRuleCommandTests {
  @Test func printsInstancesInDTSTARTsZone() throws {
    let result = try runEkctl([
      "rrule", "--dtstart", "19970902T090000", "--tzid", "America/New_York",
      "FREQ=WEEKLY;BYDAY=TU,TH;COUNT=4",
    ])
    #expect(result.status == 0)
    #expect(
      result.stdout == "19970902T090000\n19970904T090000\n19970909T090000\n19970911T090000\n")
    #expect(result.stderr.isEmpty)
  }

  @Test func printsDatesForADateStart() throws {
    let result = try runEkctl([
      "rrule", "--dtstart", "20240131", "FREQ=MONTHLY;BYMONTHDAY=-1", "--limit", "3",
    ])
    #expect(result.stdout == "20240131\n20240229\n20240331\n")
  }

  @Test func windowAndLimit() throws {
    let result = try runEkctl([
      "rrule", "--dtstart", "19900101T090000", "--from", "20300101T000000", "--to",
      "20300108T000000", "--limit", "3", "FREQ=DAILY",
    ])
    #expect(result.stdout == "20300101T090000\n20300102T090000\n20300103T090000\n")
  }

  @Test func boundsEndingInZAreUTC() throws {
    // 14:00Z to 16:00Z is 09:00 to 11:00 in New York in January.
    let result = try runEkctl([
      "rrule", "--dtstart", "20240101T090000", "--tzid", "America/New_York",
      "--from", "20240101T140000Z", "--to", "20240101T160000Z", "FREQ=HOURLY;COUNT=12",
    ])
    #expect(result.stdout == "20240101T090000\n20240101T100000\n")
  }

  @Test func badDatesAreNamed() throws {
    for (option, value) in [
      ("--rdate", "20240230T090000"), ("--exdate", "tomorrow"), ("--from", "2024-01-01"),
    ] {
      let result = try runEkctl([
        "rrule", "--dtstart", "20240101T090000", option, value, "FREQ=DAILY;COUNT=2",
      ])
      #expect(result.status != 0, "\(option)")
      #expect(result.stdout.isEmpty, "\(option)")
      #expect(result.stderr.split(separator: "\n").count == 1, "\(option)")
      #expect(result.stderr.contains(value), "\(option)")
    }
    let missing = try runEkctl(["rrule", "FREQ=DAILY"])
    #expect(missing.status != 0 && missing.stderr.contains("--dtstart"))
  }

  @Test func rdatesAndExdates() throws {
    let result = try runEkctl([
      "rrule", "--dtstart", "20250106T100000", "--rdate", "20250104T100000,20250110T120000",
      "--exdate", "20250107T100000", "FREQ=DAILY;COUNT=3",
    ])
    #expect(
      result.stdout == "20250104T100000\n20250106T100000\n20250108T100000\n20250110T120000\n")
  }

  @Test func aBadRuleIsOneLineOnStderrAndNothingOnStdout() throws {
    let result = try runEkctl(["rrule", "--dtstart", "19970902T090000", "FREQ=DAILY;BYHOUR=24"])
    #expect(result.status != 0)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.split(separator: "\n").count == 1)
    #expect(result.stderr.contains("BYHOUR"))
  }

  @Test func anUnknownZoneIsNamed() throws {
    let result = try runEkctl([
      "rrule", "--dtstart", "19970902T090000", "--tzid", "Mars/Olympus", "FREQ=DAILY",
    ])
    #expect(result.status != 0)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains("Mars/Olympus"))
  }

  @Test func batchAnswersEachLineInOrder() throws {
    let input = """
      {"dtstart": "19970902T090000", "tzid": "America/New_York", "rule": "FREQ=DAILY;COUNT=2"}
      not json
      {"dtstart": "19970902T090000", "tzid": null, "rule": "FREQ=DAILY;INTERVAL=0"}
      {"dtstart": "20240229", "tzid": null, "rule": "FREQ=YEARLY", "limit": 2}
      {"dtstart": "19900101T090000", "rule": "FREQ=DAILY", "from": "20300101T000000", "to": "20300103T000000"}

      """
    let result = try runEkctl(["rrule", "--batch"], input: input)
    #expect(result.status == 0)
    let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    try #require(lines.count == 5)
    #expect(lines[0] == #"{"occurrences":["19970902T090000","19970903T090000"]}"#)
    #expect(lines[1].hasPrefix(#"{"error":"#))
    #expect(lines[2].hasPrefix(#"{"error":"#) && lines[2].contains("INTERVAL"))
    #expect(lines[3] == #"{"occurrences":["20240229","20280229"]}"#)
    #expect(lines[4] == #"{"occurrences":["20300101T090000","20300102T090000"]}"#)
  }
}
