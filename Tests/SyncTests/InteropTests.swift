import Foundation
import TestSupport
import Testing

@testable import OpenEventKit

/// Another client on the same server (Radicale and Xandikos in turn), the python `caldav`
/// library: what it writes appears here after a sync, and what we send reads back through it
/// with the same occurrences.
@Suite struct InteropTests {
  static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures/caldav/interop.py").path

  func python(_ arguments: [String], _ fixture: SyncFixture) throws -> String {
    let process = Process()
    process.executableURL = try Python.executable()
    process.arguments =
      [
        Self.script, arguments[0], fixture.server.url.absoluteString, SyncFixture.user,
        SyncFixture.password, "Home",
      ] + arguments.dropFirst()
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let text = output.fileHandleForReading.readDataToEndOfFile()
    let problems = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw CommandFailed(text: String(decoding: problems, as: UTF8.self))
    }
    return String(decoding: text, as: UTF8.self)
  }

  struct CommandFailed: Error, CustomStringConvertible {
    let text: String
    var description: String { "interop.py failed: \(text.suffix(2000))" }
  }

  @Test(arguments: CalDAVServerKind.allCases)
  func eventsWrittenByAnotherClientAppearAndOursReadBackAlike(_ server: CalDAVServerKind)
    async throws
  {
    let fixture = try await SyncFixture(server)
    let laptop = try await fixture.machine("laptop")
    let file = fixture.folder.url.appendingPathComponent("weekly.ics")
    try """
    BEGIN:VCALENDAR\r
    VERSION:2.0\r
    PRODID:-//Interop//EN\r
    BEGIN:VEVENT\r
    UID:interop-weekly\r
    DTSTAMP:20260101T000000Z\r
    DTSTART;TZID=Europe/Paris:20260302T100000\r
    DTEND;TZID=Europe/Paris:20260302T110000\r
    RRULE:FREQ=WEEKLY;COUNT=4\r
    EXDATE;TZID=Europe/Paris:20260309T100000\r
    SUMMARY:Piano\r
    END:VEVENT\r
    END:VCALENDAR\r

    """.write(to: file, atomically: true, encoding: .utf8)
    _ = try python(["put", file.path], fixture)
    let report = try await laptop.sync()
    #expect(report.received == 1)
    let window = ("2026-03-01T00:00:00Z", "2026-04-01T00:00:00Z")
    let ours = try laptop.occurrences(window.0, window.1)
    #expect(
      ours == [
        "Piano@2026-03-02T09:00:00Z", "Piano@2026-03-16T09:00:00Z", "Piano@2026-03-23T09:00:00Z",
      ])

    // Ours: a series with a moved occurrence, read back through the other client.
    let daily = EKRecurrenceRule(
      recurrenceWith: .daily, interval: 1, end: EKRecurrenceEnd(occurrenceCount: 3))
    try laptop.event("Run", start: "2026-03-10T06:00:00Z", minutes: 30, rule: daily)
    let predicate = laptop.store.predicateForEvents(
      withStart: Machine.date("2026-03-11T00:00:00Z"), end: Machine.date("2026-03-12T00:00:00Z"),
      calendars: [try laptop.events])
    let second = try #require(laptop.store.events(matching: predicate).first { $0.title == "Run" })
    second.startDate = Machine.date("2026-03-11T07:00:00Z")
    second.endDate = Machine.date("2026-03-11T07:30:00Z")
    try laptop.store.save(second, span: .thisEvent)
    try await laptop.sync()
    let theirs = try python(["occurrences", window.0, window.1], fixture)
      .split(separator: "\n").map(String.init)
    #expect(theirs == (try laptop.occurrences(window.0, window.1)))
  }
}
