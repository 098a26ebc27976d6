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

  /// The hostile rules of a file, side by side: an event with 10,000 RDATEs, a daily series
  /// with COUNT=2147483647 and one repeating every day from the year 1 without end, listed by
  /// `ekctl events` over the years 2020–2059 (the full form: 0001–9999, 6.5 million lines,
  /// some minutes in a debug build). The output is counted as it comes, never held.
  @Test func hostileRulesOverAWideWindow() throws {
    let home = try TemporaryHome()
    let file = home.url.appendingPathComponent("hostile.ics")
    var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//Bounds//EN"]
    lines += [
      "BEGIN:VEVENT", "UID:rdates@test", "DTSTAMP:20250101T000000Z", "DTSTART:20260101T090000Z",
      "DURATION:PT1H", "SUMMARY:Ten thousand dates",
    ]
    for index in 0..<10_000 {
      let year: Int = 2026 + index / 336
      let month: Int = 1 + index / 28 % 12
      let day: Int = 1 + index % 28
      lines.append(String(format: "RDATE:%04d%02d%02dT120000Z", year, month, day))
    }
    lines += [
      "END:VEVENT", "BEGIN:VEVENT", "UID:count@test", "DTSTAMP:20250101T000000Z",
      "DTSTART:20260101T080000Z", "DURATION:PT1H", "RRULE:FREQ=DAILY;COUNT=2147483647",
      "SUMMARY:Counted", "END:VEVENT", "BEGIN:VEVENT", "UID:forever@test",
      "DTSTAMP:20250101T000000Z", "DTSTART:00010101T070000Z", "DURATION:PT1H",
      "RRULE:FREQ=DAILY", "SUMMARY:Forever", "END:VEVENT", "END:VCALENDAR",
    ]
    try Data((lines.joined(separator: "\r\n") + "\r\n").utf8).write(to: file)
    let imported = try run("ekctl", ["import", file.path, "--calendar", "Hostile"], home: home)
    #expect(imported.status == 0, "\(imported)")

    let (from, to) = Scale.isFull ? ("0001-01-01", "9999-12-31") : ("2020-01-01", "2060-01-01")
    let counting = Process()
    counting.executableURL = URL(fileURLWithPath: "/bin/bash")
    counting.arguments = [
      "-c",
      """
      ulimit -v \(Self.limit)
      "$0" events --from \(from) --to \(to) --calendar Hostile \\
        | awk '/Forever/ {f++} /Counted/ {c++} /Ten thousand/ {t++} END {print f, c, t}'
      echo "status ${PIPESTATUS[0]}"
      """,
      BuildProducts.executable("ekctl").path,
    ]
    counting.environment = home.environment
    let output = Pipe()
    counting.standardOutput = output
    counting.standardError = output
    try counting.run()
    let said = String(
      decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    counting.waitUntilExit()
    #expect(said.hasSuffix("status 0\n"), "\(said.suffix(500))")
    let counts = said.split(separator: "\n").first?.split(separator: " ").compactMap { Int($0) }
    if Scale.isFull {
      // Every day from the year 1 to the end of 9998, and those of 9999 before 31 December.
      #expect(counts?.first ?? 0 > 3_600_000, "\(said.suffix(500))")
      #expect(counts?.last == 10_001, "\(said.suffix(500))")
    } else {
      // 40 years with 10 leap days; from 2026 on, 34 with 8; DTSTART and 10,000 RDATEs.
      #expect(counts == [14_610, 12_418, 10_001], "\(said.suffix(500))")
    }
  }
}
