import Foundation
import TestSupport
import Testing

/// `ekctl` as a new user meets it: two clocks told apart, detached occurrences said for what
/// they are, calendar titles typed loosely, and a cut series said plainly.
@Suite struct ClocksAndDetachedTests {
  let temporary: TemporaryFolder
  let database: String

  /// A weekly 09:30 Paris meeting of four; its second occurrence retitled in place, its third
  /// moved to 14:00.
  static let series = """
    BEGIN:VCALENDAR\r
    VERSION:2.0\r
    PRODID:-//tests//EN\r
    X-WR-CALNAME:Work\r
    BEGIN:VEVENT\r
    UID:weekly-1\r
    DTSTAMP:20260101T000000Z\r
    DTSTART;TZID=Europe/Paris:20261102T093000\r
    DTEND;TZID=Europe/Paris:20261102T103000\r
    RRULE:FREQ=WEEKLY;COUNT=4\r
    SUMMARY:Planning\r
    END:VEVENT\r
    BEGIN:VEVENT\r
    UID:weekly-1\r
    DTSTAMP:20260101T000000Z\r
    RECURRENCE-ID;TZID=Europe/Paris:20261109T093000\r
    DTSTART;TZID=Europe/Paris:20261109T093000\r
    DTEND;TZID=Europe/Paris:20261109T103000\r
    SUMMARY:Planning (retitled)\r
    END:VEVENT\r
    BEGIN:VEVENT\r
    UID:weekly-1\r
    DTSTAMP:20260101T000000Z\r
    RECURRENCE-ID;TZID=Europe/Paris:20261116T093000\r
    DTSTART;TZID=Europe/Paris:20261116T140000\r
    DTEND;TZID=Europe/Paris:20261116T150000\r
    SUMMARY:Planning\r
    END:VEVENT\r
    END:VCALENDAR\r

    """

  init() throws {
    temporary = try TemporaryFolder(prefix: "EkctlClocks")
    database = temporary.url.appendingPathComponent("Calendar.sqlite").path
    let file = temporary.url.appendingPathComponent("series.ics")
    try Data(Self.series.utf8).write(to: file)
    let imported = try ekctl(["import", file.path])
    #expect(imported.status == 0, "\(imported.stderr)")
  }

  /// ekctl on the test's store, seen from New York.
  func ekctl(_ arguments: [String], zone: String = "America/New_York") throws -> ProcessResult {
    try runEkctl(arguments + ["--db", database], environment: ["TZ": zone])
  }

  /// The `events` lines of November, each split into its fields.
  func november(_ extra: [String] = []) throws -> [String] {
    let result = try ekctl(["events", "--from", "2026-11-01", "--to", "2026-12-01"] + extra)
    #expect(result.status == 0, "\(result.stderr)")
    return result.stdout.split(separator: "\n").map(String.init)
  }

  func field(_ label: String, of text: String) -> String? {
    for line in text.split(separator: "\n") where line.hasPrefix(label + "  ") {
      return line.dropFirst(label.count).trimmingCharacters(in: .whitespaces)
    }
    return nil
  }

  func identifier(_ line: String) -> String { String(line.split(separator: " ").last ?? "") }

  @Test func eventsSaysMovedOnlyOfAMovedOccurrence() throws {
    let lines = try november()
    #expect(lines.count == 4)
    #expect(lines[0].hasPrefix("2026-11-02T03:30:00–04:30:00  Planning  [Work]  "))
    #expect(!lines[0].contains("(moved)") && !lines[0].contains("(changed)"))
    #expect(lines[1].contains("Planning (retitled)  [Work]  (changed)  "))
    #expect(lines[2].hasPrefix("2026-11-16T08:00:00–09:00:00  Planning  [Work]  (moved)  "))
  }

  @Test func showLabelsEachClockAndWhatADetachedOccurrenceReplaces() throws {
    let lines = try november()
    let series = try ekctl(["show", identifier(lines[0])])
    #expect(
      field("Starts", of: series.stdout) == "Mon 2 Nov 2026 03:30 on your clock (America/New_York)")
    #expect(field("Ends", of: series.stdout) == "Mon 2 Nov 2026 04:30 on your clock")
    #expect(field("Time zone", of: series.stdout) == "Europe/Paris")
    #expect(field("Its own clock", of: series.stdout) == "Mon 2 Nov 2026 09:30 to 10:30")
    // The series lists its detached occurrences, each with the instance it replaces.
    let detached = series.stdout.split(separator: "\n").filter { $0.hasPrefix("Detached  ") }
    #expect(detached.count == 2, "\(series.stdout)")
    #expect(
      detached.first?.contains(
        "the occurrence of Mon 9 Nov 2026 03:30 on your clock is now Mon 9 Nov 2026 03:30 on your "
          + "clock: Planning (retitled) (") == true)
    #expect(
      detached.last?.contains(
        "the occurrence of Mon 16 Nov 2026 03:30 on your clock is now Mon 16 Nov 2026 08:00 on "
          + "your clock: Planning (") == true)
    #expect(field("Last", of: series.stdout) == "Mon 23 Nov 2026 03:30 on your clock")

    let moved = try ekctl(["show", identifier(lines[2])])
    #expect(field("Its own clock", of: moved.stdout) == "Mon 16 Nov 2026 14:00 to 15:00")
    #expect(
      field("Detached", of: moved.stdout)
        == "replaces the occurrence of Mon 16 Nov 2026 03:30 on your clock in its series")

    // Seen from Paris there is one clock: no labels.
    let home = try ekctl(["show", identifier(lines[0])], zone: "Europe/Paris")
    #expect(field("Starts", of: home.stdout) == "Mon 2 Nov 2026 09:30")
    #expect(field("Its own clock", of: home.stdout) == nil)
  }

  @Test func calendarTitlesMatchIgnoringCaseAndAMissSuggests() throws {
    #expect(try november(["--calendar", "WORK"]).count == 4)
    let miss = try ekctl([
      "events", "--from", "2026-11-01", "--to", "2026-12-01", "--calendar", "Wrok",
    ])
    #expect(miss.status != 0)
    #expect(miss.stderr.contains("no calendar titled \"Wrok\"; did you mean \"Work\"?"))
    let far = try ekctl([
      "events", "--from", "2026-11-01", "--to", "2026-12-01", "--calendar", "Holiday plans",
    ])
    #expect(!far.stderr.contains("did you mean"))
    #expect(far.stderr.contains("(there are \"Calendar\", \"Holidays\", \"Work\")"))
  }

  @Test func removingFromADetachedOccurrenceOnSaysTheSeriesIsCut() throws {
    let lines = try november()
    let removed = try ekctl(["rm", identifier(lines[2]), "--span", "future"])
    #expect(removed.status == 0, "\(removed.stderr)")
    #expect(
      removed.stdout
        == "Removed \"Planning\" of 2026-11-16T08:30:00Z and every later occurrence: "
        + "the series now ends before it.\n")
    let left = try november()
    #expect(left.count == 2)
    #expect(left[1].contains("Planning (retitled)"))
  }
}
