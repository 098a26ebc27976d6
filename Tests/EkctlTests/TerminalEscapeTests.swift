import Foundation
import OpenEventKit
import TestSupport
import Testing

/// Titles, places, notes and calendars' names that hold terminal escapes, C1 controls and a
/// bidi override (issue 42): every ekctl command shows them inert, as `\u{…}`, and `--json`
/// keeps them exact.
@Suite struct TerminalEscapeTests {
  let home: TemporaryHome
  let imported: ProcessResult

  static let title =
    "Standup" + HostileText.clearScreen + HostileText.windowTitle
    + HostileText.c1ControlSequence
  static let location = "Room " + HostileText.link + HostileText.c1Command
  static let notes = "Bring\n" + HostileText.clipboard + HostileText.override
  static let calendar =
    "Home" + HostileText.clipboard + HostileText.override + HostileText.c1ControlSequence

  /// A TEXT value as an .ics writes it (RFC 5545 §3.3.11).
  static func escaped(_ text: String) -> String {
    text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: ";", with: "\\;")
      .replacingOccurrences(of: ",", with: "\\,").replacingOccurrences(of: "\n", with: "\\n")
  }

  /// One event on 1 March 2027 at 09:00 UTC with an alarm 15 minutes before.
  static let file = [
    "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//tests//EN",
    "X-WR-CALNAME:\(escaped(calendar))", "BEGIN:VEVENT", "UID:hostile",
    "DTSTAMP:20260101T000000Z", "DTSTART:20270301T090000Z", "DURATION:PT1H",
    "SUMMARY:\(escaped(title))", "LOCATION:\(escaped(location))",
    "DESCRIPTION:\(escaped(notes))", "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:alarm",
    "TRIGGER:-PT15M", "END:VALARM", "END:VEVENT", "END:VCALENDAR", "",
  ].joined(separator: "\r\n")

  init() throws {
    home = try TemporaryHome()
    let file = home.url.appendingPathComponent("hostile.ics")
    try Data(Self.file.utf8).write(to: file)
    imported = try runEkctl(["import", file.path], environment: home.environment)
  }

  func ekctl(_ arguments: [String]) throws -> ProcessResult {
    try runEkctl(arguments, environment: home.environment)
  }

  /// Nothing in the output would act on a terminal.
  func expectInert(_ result: ProcessResult, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(
      HostileText.activeCharacters(in: result.stdout + result.stderr) == [],
      "\(result.stdout.debugDescription) \(result.stderr.debugDescription)",
      sourceLocation: sourceLocation)
  }

  /// The lines of `show` with this label, the label and its padding taken off.
  func values(_ label: String, of text: String) -> [String] {
    text.split(separator: "\n").compactMap { line in
      guard line.hasPrefix(label + " ") else { return nil }
      return line.dropFirst(label.count).trimmingCharacters(in: .whitespaces)
    }
  }

  @Test func theImportSummaryShowsTheCalendarsNameInert() {
    #expect(imported.status == 0, "\(imported.stderr)")
    #expect(
      imported.stdout == "1 event added, 0 updated in \"\(HostileText.shown(Self.calendar))\".\n")
    expectInert(imported)
  }

  @Test func eventsAndShowShowEveryFieldInert() throws {
    let events = try ekctl(["events", "--from", "2027-03-01", "--to", "2027-03-02"])
    #expect(events.status == 0, "\(events.stderr)")
    expectInert(events)
    #expect(
      events.stdout.hasPrefix(
        "2027-03-01T10:00:00–11:00:00  \(HostileText.shown(Self.title))  "
          + "[\(HostileText.shown(Self.calendar))]  "),
      "\(events.stdout)")

    let show = try ekctl(["show", "hostile"])
    #expect(show.status == 0, "\(show.stderr)")
    expectInert(show)
    #expect(values("Title", of: show.stdout) == [HostileText.shown(Self.title)])
    #expect(values("Calendar", of: show.stdout) == [HostileText.shown(Self.calendar)])
    #expect(values("Location", of: show.stdout) == [HostileText.shown(Self.location)])
    // The notes keep their line break; the second line is indented under the first.
    let lines = show.stdout.split(separator: "\n").map(String.init)
    let notes = try #require(lines.firstIndex { $0.hasPrefix("Notes ") })
    #expect(lines[notes].hasSuffix("  Bring"))
    #expect(
      lines[notes + 1].trimmingCharacters(in: .whitespaces)
        == HostileText.shown(HostileText.clipboard + HostileText.override))
  }

  @Test func jsonKeepsTheValuesExact() throws {
    let events = try ekctl(["events", "--from", "2027-03-01", "--to", "2027-03-02", "--json"])
    #expect(events.status == 0, "\(events.stderr)")
    let event = try #require(
      try JSONSerialization.jsonObject(with: Data(events.stdout.utf8)) as? [String: Any])
    #expect(event["title"] as? String == Self.title)
    #expect(event["location"] as? String == Self.location)
    #expect(event["calendar"] as? String == Self.calendar)

    let calendars = try ekctl(["calendars", "--json"])
    let titles = calendars.stdout.split(separator: "\n").compactMap {
      (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["title"]
        as? String
    }
    #expect(titles.contains(Self.calendar), "\(titles)")
  }

  /// The calendars' table measures the name as shown: the next column still lines up.
  @Test func calendarsShowTheNameInertInItsColumn() throws {
    let result = try ekctl(["calendars"])
    #expect(result.status == 0, "\(result.stderr)")
    expectInert(result)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    let row = try #require(lines.first { $0.hasPrefix(HostileText.shown(Self.calendar) + " ") })
    let kind = { (line: String) in line.range(of: "kind")?.lowerBound ?? line.endIndex }
    let header = try #require(lines.first)
    #expect(
      header.distance(from: header.startIndex, to: kind(header))
        == row.distance(
          from: row.startIndex, to: try #require(row.range(of: "  events  ")).lowerBound) + 2)
  }

  @Test func alarmsShowTheTitleInert() throws {
    let result = try ekctl(["alarms", "--from", "2027-03-01", "--to", "2027-03-02"])
    #expect(result.status == 0, "\(result.stderr)")
    expectInert(result)
    #expect(
      result.stdout.hasPrefix(
        "2027-03-01T09:45:00  \(HostileText.shown(Self.title))  [\(HostileText.shown(Self.calendar))]"
      ), "\(result.stdout)")
  }

  @Test func remindersShowTheTitleInert() throws {
    let title = "Milk" + HostileText.windowTitle + HostileText.override
    let file = home.url.appendingPathComponent("todo.ics")
    try Data(
      [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//tests//EN", "BEGIN:VTODO", "UID:todo",
        "DTSTAMP:20260101T000000Z", "SUMMARY:\(Self.escaped(title))", "END:VTODO",
        "END:VCALENDAR", "",
      ].joined(separator: "\r\n").utf8
    ).write(to: file)
    #expect(try ekctl(["import", file.path, "--calendar", "Shopping"]).status == 0)
    let result = try ekctl(["reminders"])
    #expect(result.status == 0, "\(result.stderr)")
    expectInert(result)
    #expect(result.stdout.hasPrefix("[ ] \(HostileText.shown(title))  [Shopping]  "))
  }

  /// An error quotes what was typed and the calendars there are: both inert.
  @Test func errorsEchoInert() throws {
    let typed = "Work" + HostileText.windowTitle + HostileText.override
    let result = try ekctl([
      "events", "--from", "2027-03-01", "--to", "2027-03-02", "--calendar", typed,
    ])
    #expect(result.status != 0)
    expectInert(result)
    #expect(result.stderr.contains(HostileText.shown(typed)), "\(result.stderr)")
    #expect(result.stderr.contains(HostileText.shown(Self.calendar)), "\(result.stderr)")
  }

  @Test func watchShowsTitlesInert() async throws {
    let database = home.calendarDatabase.path
    let (watch, lines) = try await LineCollector.watching(database)
    defer { if watch.isRunning { watch.terminate() } }
    let store = try home.store()
    let event = try #require(store.calendarItems(withExternalIdentifier: "hostile").first)
    event.title = Self.title + HostileText.link
    try store.save(event as! EKEvent, span: .thisEvent)
    let shown = HostileText.shown(Self.title + HostileText.link)
    try await lines.wait { $0.contains { $0.contains(" changed \"\(shown)\" ") } }
    watch.terminate()
    let text = lines.snapshot.joined(separator: "\n")
    #expect(HostileText.activeCharacters(in: text) == [], "\(text.debugDescription)")
  }

  @Test func theAlarmAgentShowsTheFiringInert() throws {
    let clock = home.url.appendingPathComponent("clock")
    try Data("2027-03-01T08:00:00Z\n".utf8).write(to: clock, options: .atomic)
    let run = try SampleRun(
      executable: "ekctl", arguments: ["alarms", "--watch", "--clock", clock.path], home: home,
      environment: ["DBUS_SESSION_BUS_ADDRESS": ""])
    defer { run.stop() }
    try run.wait(for: "(Ctrl-C to stop)")
    try Data("2027-03-01T08:46:00Z\n".utf8).write(to: clock, options: .atomic)
    try run.wait(for: "alarm  2027-03-01T09:45:00  \(HostileText.shown(Self.title))  ")
    let output = run.stop()
    #expect(HostileText.activeCharacters(in: output) == [], "\(output.debugDescription)")
  }
}
