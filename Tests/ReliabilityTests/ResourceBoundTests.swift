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

  /// An event repeating every second without end, with an alarm at its start, imported into
  /// `home`'s store as the calendar "Home".
  static func importSecondlyAlarm(into home: TemporaryHome) throws {
    let file = home.url.appendingPathComponent("tick.ics")
    try """
    BEGIN:VCALENDAR\r
    VERSION:2.0\r
    PRODID:-//Test//Bounds//EN\r
    X-WR-CALNAME:Home\r
    BEGIN:VEVENT\r
    UID:tick@test\r
    DTSTAMP:20260101T000000Z\r
    DTSTART:20260101T000000Z\r
    DURATION:PT1S\r
    SUMMARY:Tick\r
    RRULE:FREQ=SECONDLY\r
    BEGIN:VALARM\r
    ACTION:DISPLAY\r
    DESCRIPTION:Tick\r
    TRIGGER:PT0S\r
    END:VALARM\r
    END:VEVENT\r
    END:VCALENDAR\r

    """.write(to: file, atomically: true, encoding: .utf8)
    let imported = try run("ekctl", ["import", file.path], home: home)
    #expect(imported.status == 0, "\(imported)")
  }

  /// `ekctl ARGUMENTS` under the limit, its peak resident memory measured (GNU `time`)
  /// and its output counted as it comes, never held: the number of lines, the lines that
  /// `keep` matches (an awk pattern) and the exit status.
  static func measured(_ arguments: [String], keep: String, home: TemporaryHome) throws -> (
    lines: Int, kept: [String], peakKiB: Int, status: Int32?
  ) {
    let peak = home.url.appendingPathComponent("peak-\(UUID().uuidString)")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments =
      [
        "-c",
        """
        ulimit -v \(limit)
        "$1" -f %M -o "$0" "${@:2}" | awk '\(keep) {print} END {print "lines", NR}'
        echo "status ${PIPESTATUS[0]}"
        """,
        peak.path, try Programs.path("time").path, BuildProducts.executable("ekctl").path,
      ] + arguments
    process.environment = home.environment
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let lines = said.split(separator: "\n").map(String.init)
    let count = lines.first { $0.hasPrefix("lines ") }.flatMap { Int($0.dropFirst(6)) } ?? -1
    let status = lines.last { $0.hasPrefix("status ") }.flatMap { Int32($0.dropFirst(7)) }
    let kiB = (try? String(contentsOf: peak, encoding: .utf8)).flatMap {
      Int($0.split(separator: "\n").last ?? "")
    }
    return (
      count, lines.filter { !$0.hasPrefix("lines ") && !$0.hasPrefix("status ") }, kiB ?? -1,
      status
    )
  }

  /// `ekctl alarms` over a week of an alarm that fires every second (604,800 firings): the
  /// listing prints as it finds them, 100 and then one line with the rest; `--json` prints
  /// every one, as they come. Before, both held the week's firings (403 MB).
  @Test func aWeekOfAnAlarmEverySecondIsListedInBoundedMemory() throws {
    let home = try TemporaryHome()
    try Self.importSecondlyAlarm(into: home)
    let week = ["alarms", "--from", "2026-01-05T00:00:00Z", "--to", "2026-01-12T00:00:00Z"]
    let text = try Self.measured(week, keep: "/more firings/", home: home)
    print("alarms: a week every second, text: \(text.lines) lines, peak \(text.peakKiB) KiB")
    #expect(text.status == 0, "\(text.kept.suffix(5))")
    #expect(text.lines == 101)
    let summary = text.kept.first ?? ""
    #expect(summary.hasPrefix("… 604700 more firings of Tick  [Home]  At the start, every second"))
    #expect(text.peakKiB > 0 && text.peakKiB < 100 * 1024)

    let json = try Self.measured(week + ["--json"], keep: "NR == 1 || /T23:59:59Z/", home: home)
    print("alarms: a week every second, --json: \(json.lines) lines, peak \(json.peakKiB) KiB")
    #expect(json.status == 0, "\(json.kept.suffix(5))")
    #expect(json.lines == 7 * 86_400)
    #expect(json.kept.first?.hasPrefix(#"{"id":"#) == true)
    #expect(json.kept.last?.contains(#""fireDate":"2026-01-11T23:59:59Z""#) == true)
    #expect(json.peakKiB > 0 && json.peakKiB < 100 * 1024)
  }

  /// The agent started 24 days after its last run beside an alarm that fires every second
  /// (2,073,600 firings since): it tells three missed firings and one line with the count of
  /// the others, delivers those within the grace, and records those it told, in little
  /// memory. Before, it told and recorded each (824,000 lines, a 1.7 GB Alarms.sqlite, 1.33 GB
  /// of memory).
  @Test func anAgentBackAfter24DaysBesideAnAlarmEverySecondSaysAFewLines() throws {
    let home = try TemporaryHome()
    try Self.importSecondlyAlarm(into: home)
    let clock = home.url.appendingPathComponent("clock")
    func agent() throws -> SampleRun {
      try SampleRun(
        executable: "/bin/bash",
        arguments: [
          "-c",
          "ulimit -v \(Self.limit) && exec \"$0\" alarms --watch --json --no-notify --grace 1 "
            + "--clock \"$1\"",
          BuildProducts.executable("ekctl").path, clock.path,
        ], home: home)
    }
    try Data("2026-01-05T00:00:00Z\n".utf8).write(to: clock, options: .atomic)
    let before = try agent()
    // The minute before 00:00:00, and that second, within the grace.
    try before.wait(for: #""delivery":"alarm""#, count: 61, timeout: 120)
    before.stop()
    try Data("2026-01-29T00:00:00Z\n".utf8).write(to: clock, options: .atomic)
    let started = Date()
    let back = try agent()
    defer { back.stop() }
    try back.wait(for: #""delivery":"alarm""#, count: 61, timeout: 900)
    let seconds = Date().timeIntervalSince(started)
    let status =
      (try? String(contentsOfFile: "/proc/\(back.processIdentifier)/status", encoding: .utf8)) ?? ""
    let peak =
      status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
      .flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? -1
    let output = back.stop()
    let lines = output.split(separator: "\n")
    let ledger = ["Alarms.sqlite", "Alarms.sqlite-wal"].map {
      (try? FileManager.default.attributesOfItem(
        atPath: home.url.appendingPathComponent($0).path)[.size] as? Int) ?? 0
    }.reduce(0, +)
    print(
      "alarms: agent back after 24 days: \(lines.count) lines, peak \(peak) KiB, "
        + "Alarms.sqlite and WAL \(ledger) bytes, \(String(format: "%.1f", seconds)) s")
    // 2,073,600 firings since the last round: 61 due, 3 told as missed, the rest counted.
    #expect(lines.count == 61 + 3 + 1, "\(output.prefix(2000))")
    #expect(lines.filter { $0.contains(#""delivery":"missed""#) }.count == 4)
    #expect(output.contains(#""count":2073536,"first":"2026-01-05T00:00:04Z""#))
    #expect(output.contains(#""interval":1"#))
    #expect(peak > 0 && peak < 100 * 1024)
    #expect(ledger < 2 * 1024 * 1024)
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
