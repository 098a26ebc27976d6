import Foundation
import TestSupport
import Testing

/// Hostile sizes finish, or are refused, in bounded memory: each program here runs under an
/// address-space limit (`ulimit -v`) that holding its whole answer would break.
@Suite struct ResourceBoundTests {
  /// 200 MiB of address space: a Swift program's own needs and a store, not a list of
  /// hundreds of thousands of occurrences (before streaming, ekctl events held ~390 bytes
  /// for each).
  static let limit = 200 * 1024

  /// An event repeating every second without end: a week's window is 604,800 occurrences,
  /// printed as they are found.
  @Test func aSecondlySeriesOverAWeekStreams() throws {
    let home = try TemporaryHome()
    let file = home.url.appendingPathComponent("secondly.ics")
    try """
    BEGIN:VCALENDAR\r
    VERSION:2.0\r
    PRODID:-//Test//Bounds//EN\r
    BEGIN:VEVENT\r
    UID:secondly@test\r
    DTSTAMP:20260101T000000Z\r
    DTSTART:20260101T000000Z\r
    DURATION:PT1S\r
    SUMMARY:Tick\r
    RRULE:FREQ=SECONDLY\r
    END:VEVENT\r
    END:VCALENDAR\r

    """.write(to: file, atomically: true, encoding: .utf8)
    #expect(try run("ekctl", ["import", file.path], home: home).status == 0)
    let week = try run(
      "ekctl", ["events", "--from", "2026-01-05T00:00:00Z", "--to", "2026-01-12T00:00:00Z"],
      home: home, memoryLimit: Self.limit)
    #expect(week.status == 0, "\(week.output.suffix(300))")
    let lines = week.output.split(separator: "\n")
    let count = lines.count
    let tick = lines.first?.contains("Tick") == true
    #expect(count == 7 * 86_400 && tick)
  }

  /// `ekctl rrule --batch` answering two million instances in one line writes them as it
  /// goes.
  @Test func aBatchAnswerOfTwoMillionInstancesStreams() throws {
    let home = try TemporaryHome()
    let answer = try run(
      "ekctl", ["rrule", "--batch"], home: home,
      input: "{\"dtstart\":\"20260101T000000Z\",\"rule\":\"FREQ=SECONDLY\",\"limit\":2000000}\n",
      memoryLimit: Self.limit)
    #expect(answer.status == 0, "\(answer.output.suffix(300))")
    // Booleans, not the 36 MB answer, in what a failure prints.
    let first = answer.output.hasPrefix("{\"occurrences\":[\"20260101T000000\",")
    let last = answer.output.hasSuffix(",\"20260124T033319\"]}\n")  // 1,999,999 s later
    let size = answer.output.utf8.count
    #expect(first && last)
    #expect(size == 16 + 2_000_000 * 18 - 1 + 3)
  }
}
