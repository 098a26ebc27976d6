import Foundation
import TestSupport
import Testing

/// An import killed half way through its transaction leaves the store as it was: SQLite
/// rolls back what was never committed, the next opener finds no half-written calendar. And
/// the progress bar that shows where an import is, on a terminal only.
@Suite struct KilledImportTests {
  /// A file of `count` one-hour events, a tenth of them weekly series.
  static func largeFile(count: Int) -> String {
    var text =
      "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Test//Large//EN\r\nX-WR-CALNAME:Large\r\n"
    text.reserveCapacity(count * 260)
    for index in 0..<count {
      let day = 1 + index % 28
      let hour = index % 24
      let date = "202501" + (day < 10 ? "0" : "") + String(day)
      let time = (hour < 10 ? "0" : "") + String(hour) + "0000"
      text += "BEGIN:VEVENT\r\nUID:large-\(index)@test\r\nDTSTAMP:20250101T000000Z\r\n"
      text += "DTSTART;TZID=Europe/Paris:\(date)T\(time)\r\nDURATION:PT1H\r\n"
      text += "SUMMARY:Event number \(index) with a title of some length\r\n"
      if index % 10 == 0 { text += "RRULE:FREQ=WEEKLY;COUNT=10\r\n" }
      text += "END:VEVENT\r\n"
    }
    return text + "END:VCALENDAR\r\n"
  }

  @Test func aKilledImportLeavesNothingBehind() async throws {
    let folder = try TemporaryFolder(prefix: "EkctlKilled")
    let database = folder.url.appendingPathComponent("Calendar.sqlite").path
    let file = folder.url.appendingPathComponent("large.ics").path
    try Self.largeFile(count: 60_000).write(toFile: file, atomically: true, encoding: .utf8)
    #expect(
      try runEkctl(["import", StoreCommandTests.fixture("apple.ics"), "--db", database]).status == 0
    )
    let before = try runEkctl(["export", "--db", database]).stdout
    let calendars = try runEkctl(["calendars", "--db", database]).stdout

    // On a pseudo-terminal the import draws its progress; once it says "writing", the rows
    // are going into the open transaction: kill it there, with no chance to clean up.
    let run = try PseudoTerminal.run(
      BuildProducts.executable("ekctl"), arguments: ["import", file, "--db", database],
      steps: [.after("% writing", .kill)], deadline: .seconds(120))
    #expect(
      run.stepsTaken == 1 && run.ending == .signalled(SIGKILL),
      "the import was not killed while writing: \(run.ending)")

    #expect(try runEkctl(["calendars", "--db", database]).stdout == calendars)
    #expect(try runEkctl(["export", "--db", database]).stdout == before)
    let result = try runEkctl([
      "events", "--db", database, "--from", "2025-01-01", "--to", "2025-02-01", "--json",
    ])
    #expect(!result.stdout.contains("Event number"))
  }

  @Test func aProgressBarOnATerminalOnly() throws {
    let folder = try TemporaryFolder(prefix: "EkctlProgress")
    let file = folder.url.appendingPathComponent("large.ics").path
    try Self.largeFile(count: 20_000).write(toFile: file, atomically: true, encoding: .utf8)
    // On a pseudo-terminal: the bar is drawn on standard error, then cleared.
    let run = try PseudoTerminal.run(
      BuildProducts.executable("ekctl"),
      arguments: ["import", file, "--db", folder.url.appendingPathComponent("a.sqlite").path],
      deadline: .seconds(600))
    #expect(run.ending == .exited(0))
    let shown = run.shown
    #expect(shown.contains("\rImporting "))
    #expect(shown.contains("% reading") || shown.contains("% writing"))
    #expect(shown.contains("\r\u{1B}[K"))
    #expect(shown.contains("20000 events added, 0 updated in \"Large\"."))
    // Piped: no bar at all.
    let piped = try runEkctl([
      "import", file, "--db", folder.url.appendingPathComponent("b.sqlite").path,
    ])
    #expect(piped.status == 0)
    #expect(piped.stderr == "")
    #expect(piped.stdout == "20000 events added, 0 updated in \"Large\".\n")
  }
}
