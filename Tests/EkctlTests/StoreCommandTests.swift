import Foundation
import TestSupport
import Testing

/// `ekctl` over a real store in a temporary folder: import, the listings, export, rm, watch,
/// and the errors, each a line on standard error with a non-zero exit.
@Suite struct StoreCommandTests {
  let temporary: TemporaryFolder
  let database: String

  init() throws {
    temporary = try TemporaryFolder(prefix: "EkctlStore")
    database = temporary.url.appendingPathComponent("Calendar.sqlite").path
  }

  var folder: URL { temporary.url }

  static func fixture(_ name: String) -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fixtures/ics/\(name)").path
  }

  func ekctl(_ arguments: [String], input: String? = nil) throws -> ProcessResult {
    try runEkctl(arguments, input: input, environment: ["TZ": "UTC"])
  }

  /// The label and value of each line `show` prints.
  static func fields(_ text: String) -> [(String, String)] {
    text.split(separator: "\n").compactMap { line in
      guard let gap = line.range(of: "  ") else { return nil }
      return (
        String(line[..<gap.lowerBound]),
        String(line[gap.upperBound...].drop { $0 == " " })
      )
    }
  }

  func jsonLines(_ text: String) throws -> [[String: Any]] {
    try text.split(separator: "\n").map {
      try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
  }

  @Test func importListAndShow() throws {
    var result = try ekctl(["import", Self.fixture("google.ics"), "--db", database])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "4 events added, 0 updated in \"Team Google\".\n")
    // --db before the subcommand works as well.
    result = try ekctl(["--db", database, "import", Self.fixture("google.ics")])
    #expect(result.stdout == "0 events added, 4 updated in \"Team Google\".\n")

    result = try ekctl(["calendars", "--db", database])
    #expect(result.stdout.contains("Team Google  events"))

    result = try ekctl([
      "events", "--db", database, "--from", "2025-04-01", "--to", "2025-04-22T00:00:00+02:00",
      "--calendar", "Team Google", "--json",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let lines = try jsonLines(result.stdout)
    #expect(
      lines.map { $0["title"] as? String } == [
        "Stand-up (moved)", "Stand-up", "Retro", "Team offsite", "Stand-up",
      ])
    let moved = lines[0]
    #expect(moved["start"] as? String == "2025-04-07T08:00:00Z")
    #expect(moved["end"] as? String == "2025-04-07T08:30:00Z")
    #expect(moved["occurrenceDate"] as? String == "2025-04-07T07:00:00Z")
    #expect(moved["isDetached"] as? Bool == true)
    #expect(moved["allDay"] as? Bool == false)
    #expect(moved["timeZone"] as? String == "Europe/Berlin")
    #expect(moved["calendar"] as? String == "Team Google")
    #expect(moved["externalIdentifier"] as? String == "standup-7f3a@google.com")
    let offsite = lines[3]
    #expect(offsite["start"] as? String == "2025-04-18")
    #expect(offsite["end"] as? String == "2025-04-22")
    #expect(offsite["allDay"] as? Bool == true)

    let id = try #require(lines[1]["eventIdentifier"] as? String)
    result = try ekctl(["show", id, "--db", database])
    #expect(result.status == 0, "\(result.stderr)")
    let fields = Self.fields(result.stdout)
    #expect(fields.first { $0.0 == "Title" }?.1 == "Stand-up")
    #expect(fields.first { $0.0 == "Calendar" }?.1 == "Team Google")
    #expect(fields.first { $0.0 == "Repeats" }?.1.hasPrefix("Weekly on Monday") == true)
    #expect(fields.first { $0.0 == "Alert" }?.1 == "10 minutes before")
    #expect(
      fields.filter { $0.0 == "Attendee" }.map(\.1) == [
        "Ana Lopez (accepted)", "Bo Chen (pending)",
      ])
    #expect(fields.first { $0.0 == "Time zone" }?.1 == "Europe/Berlin")
    result = try ekctl(["show", "standup-7f3a@google.com", "--db", database])
    #expect(Self.fields(result.stdout).first?.1 == "Stand-up")
  }

  @Test func oneItemIsCountedInTheSingular() throws {
    let file = folder.appendingPathComponent("one.ics").path
    try """
    BEGIN:VCALENDAR\r
    VERSION:2.0\r
    PRODID:-//OpenEventKit//Tests//EN\r
    BEGIN:VEVENT\r
    UID:one@example.com\r
    DTSTAMP:20250101T000000Z\r
    DTSTART:20250301T090000Z\r
    DTEND:20250301T100000Z\r
    SUMMARY:Only one\r
    END:VEVENT\r
    BEGIN:VTODO\r
    UID:todo@example.com\r
    DTSTAMP:20250101T000000Z\r
    SUMMARY:Just this\r
    END:VTODO\r
    END:VCALENDAR\r

    """.write(toFile: file, atomically: true, encoding: .utf8)
    let result = try ekctl(["import", file, "--db", database])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.hasPrefix("1 event added, 0 updated in "))
    #expect(result.stdout.contains("; 1 reminder added, 0 updated in "))
  }

  @Test func floatingEventsAreLocalTimesWithoutZ() throws {
    _ = try ekctl(["import", Self.fixture("apple.ics"), "--db", database])
    let result = try runEkctl(
      [
        "events", "--db", database, "--from", "2025-01-11", "--to", "2025-01-12", "--json",
        "--calendar", "Home",
      ], environment: ["TZ": "Asia/Tokyo"])
    let lines = try jsonLines(result.stdout)
    let breakfast = try #require(lines.first { $0["title"] as? String == "Floating breakfast" })
    #expect(breakfast["start"] as? String == "2025-01-11T08:30:00")
    #expect(breakfast["timeZone"] is NSNull)
  }

  @Test func remindersAndExport() throws {
    _ = try ekctl(["import", Self.fixture("apple.ics"), "--db", database])
    var result = try ekctl(["reminders", "--db", database, "--incomplete", "--json"])
    let open = try jsonLines(result.stdout).filter { $0["calendar"] as? String == "Home" }
    #expect(open.map { $0["title"] as? String } == ["Renew passport"])
    #expect(open.first?["due"] as? String == "2025-04-01")
    result = try ekctl(["reminders", "--db", database, "--completed"])
    #expect(result.stdout.hasPrefix("[x] Water plants  due 2025-01-04T14:00:00Z  [Home]"))

    let output = folder.appendingPathComponent("home.ics").path
    result = try ekctl(["export", "--db", database, "--calendar", "Home", "-o", output])
    #expect(result.status == 0, "\(result.stderr)")
    let text = try String(contentsOfFile: output, encoding: .utf8)
    #expect(text.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"))
    #expect(text.contains("BEGIN:VTODO\r\n"))
    #expect(text.contains("X-APPLE-TRAVEL-ADVISORY-BEHAVIOR:AUTOMATIC\r\n"))
    #expect(text.contains("BEGIN:VTIMEZONE\r\nTZID:America/New_York\r\n"))
    result = try ekctl(["export", "--db", database, "--calendar", "Home"])
    #expect(result.stdout == text)
  }

  @Test func removeOccurrencesAndSeries() throws {
    _ = try ekctl(["import", Self.fixture("google.ics"), "--db", database])
    func standUps() throws -> [String] {
      let result = try ekctl([
        "events", "--db", database, "--from", "2025-03-01", "--to", "2025-06-01", "--json",
      ])
      return try jsonLines(result.stdout).filter { ($0["title"] as? String) == "Stand-up" }
        .compactMap { $0["start"] as? String }
    }
    #expect(try standUps().count == 7)
    var result = try ekctl([
      "rm", "standup-7f3a@google.com", "--occurrence", "2025-03-10T08:00:00Z", "--db", database,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "Removed \"Stand-up\" of 2025-03-10T08:00:00Z.\n")
    #expect(try !standUps().contains("2025-03-10T08:00:00Z"))
    result = try ekctl([
      "rm", "standup-7f3a@google.com", "--occurrence", "2025-04-21", "--span", "future",
      "--db", database,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      try standUps() == ["2025-03-03T08:00:00Z", "2025-03-31T07:00:00Z", "2025-04-14T07:00:00Z"])
    result = try ekctl([
      "rm", "standup-7f3a@google.com", "--occurrence", "2025-03-11", "--db", database,
    ])
    #expect(result.status != 0)
    #expect(result.stderr.contains("has no occurrence at 2025-03-11T00:00:00Z"))
    result = try ekctl(["rm", "standup-7f3a@google.com", "--db", database])
    #expect(result.stdout == "Removed \"Stand-up\" (every occurrence).\n")
    #expect(try standUps().isEmpty)
  }

  /// A weekly meeting at 11:00 UTC, five times from Wednesday 1 July 2026, whose first
  /// occurrence was moved three days later, to 14:00 on Saturday 4 July, and renamed.
  static let movedFirstOccurrence = """
    BEGIN:VCALENDAR\r
    VERSION:2.0\r
    PRODID:-//OpenEventKit//Tests//EN\r
    BEGIN:VEVENT\r
    UID:weekly@example.com\r
    DTSTAMP:20260101T000000Z\r
    DTSTART:20260701T110000Z\r
    DTEND:20260701T120000Z\r
    RRULE:FREQ=WEEKLY;COUNT=5\r
    SUMMARY:Weekly\r
    END:VEVENT\r
    BEGIN:VEVENT\r
    UID:weekly@example.com\r
    DTSTAMP:20260101T000000Z\r
    RECURRENCE-ID:20260701T110000Z\r
    DTSTART:20260704T140000Z\r
    DTEND:20260704T150000Z\r
    SUMMARY:Kick-off\r
    END:VEVENT\r
    END:VCALENDAR\r

    """

  /// The starts of the occurrences in July 2026, and the identifiers of the series and of its
  /// detached occurrence.
  func july(_ database: String) throws -> (starts: [String], series: String?, detached: String?) {
    let result = try ekctl([
      "events", "--db", database, "--from", "2026-07-01", "--to", "2026-08-01", "--json",
    ])
    let lines = try jsonLines(result.stdout)
    return (
      lines.compactMap { $0["start"] as? String },
      lines.first { $0["isDetached"] as? Bool == false }?["eventIdentifier"] as? String,
      lines.first { $0["isDetached"] as? Bool == true }?["eventIdentifier"] as? String
    )
  }

  @Test func aMovedFirstOccurrenceIsRemovedLikeAnyOther() throws {
    let file = folder.appendingPathComponent("weekly.ics").path
    try Self.movedFirstOccurrence.write(toFile: file, atomically: true, encoding: .utf8)
    func imported(_ name: String) throws -> String {
      let database = folder.appendingPathComponent(name).path
      let result = try ekctl(["import", file, "--db", database])
      #expect(result.status == 0, "\(result.stderr)")
      return database
    }
    let later = ["2026-07-08T11:00:00Z", "2026-07-15T11:00:00Z", "2026-07-22T11:00:00Z"]
    let last = "2026-07-29T11:00:00Z"

    // Through the series' identifier, an occurrence after the moved one.
    var database = try imported("this.sqlite")
    let series = try #require(try july(database).series)
    var result = try ekctl(["rm", series, "--occurrence", later[0], "--db", database])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "Removed \"Weekly\" of 2026-07-08T11:00:00Z.\n")
    #expect(try july(database).starts == ["2026-07-04T14:00:00Z"] + later.dropFirst() + [last])
    // The moved one, by its original start, through the UID.
    result = try ekctl([
      "rm", "weekly@example.com", "--occurrence", "2026-07-01T11:00:00Z", "--db", database,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "Removed \"Kick-off\" of 2026-07-01T11:00:00Z.\n")
    #expect(try july(database).starts == later.dropFirst() + [last])

    // From the first occurrence on: the whole series.
    database = try imported("future.sqlite")
    result = try ekctl([
      "rm", try #require(try july(database).series), "--occurrence", "2026-07-01T11:00:00Z",
      "--span", "future", "--db", database,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout
        == "Removed \"Kick-off\" of 2026-07-01T11:00:00Z and every later occurrence: "
        + "that was the whole series.\n")
    #expect(try july(database).starts.isEmpty)

    // By where it is now, and by its own identifier, which names that occurrence alone.
    database = try imported("moved.sqlite")
    result = try ekctl([
      "rm", "weekly@example.com", "--occurrence", "2026-07-04T14:00:00Z", "--db", database,
    ])
    #expect(result.stdout == "Removed \"Kick-off\" of 2026-07-01T11:00:00Z.\n")
    database = try imported("own.sqlite")
    result = try ekctl(["rm", try #require(try july(database).detached), "--db", database])
    #expect(result.stdout == "Removed \"Kick-off\" of 2026-07-01T11:00:00Z.\n")
    #expect(try july(database).starts == later + [last])
  }

  @Test func removingFromADetachedOccurrenceOnCutsALongSeries() throws {
    // 6,000 days, the 3,000 odd ones detached.
    let file = folder.appendingPathComponent("daily.ics").path
    try DailySeries.ics(days: 6_000, detached: Array(stride(from: 1, to: 6_000, by: 2)))
      .write(toFile: file, atomically: true, encoding: .utf8)
    var result = try ekctl(["import", file, "--db", database])
    #expect(result.stdout.hasPrefix("3001 events added, 0 updated in "))
    func occurrences() throws -> [[String: Any]] {
      let result = try ekctl([
        "events", "--db", database, "--from", "2026-01-01", "--to", "2043-01-01", "--calendar",
        "daily", "--json",
      ])
      return try jsonLines(result.stdout)
    }
    let day3001 = try #require(
      try occurrences().first { $0["title"] as? String == "Moved 3001" }?["eventIdentifier"]
        as? String)

    result = try ekctl(["rm", day3001, "--span", "future", "--db", database])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout
        == "Removed \"Moved 3001\" of 2034-03-21T09:00:00Z and every later occurrence: "
        + "the series now ends before it.\n"
    )
    var left = try occurrences()
    #expect(left.count == 3_001)
    #expect(left.filter { $0["isDetached"] as? Bool == true }.count == 1_500)
    #expect(left.last?["start"] as? String == "2034-03-20T09:00:00Z")

    // From an occurrence of the series that is not detached, the same.
    result = try ekctl([
      "rm", DailySeries.uid, "--occurrence", "2028-09-27T09:00:00Z", "--span", "future",
      "--db", database,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    left = try occurrences()
    #expect(left.count == 1_000)
    #expect(left.filter { $0["isDetached"] as? Bool == true }.count == 500)
  }

  @Test func errorsAreOneLineAndChangeNothing() throws {
    var result = try ekctl([
      "events", "--db", "/nonexistent/Calendar.sqlite", "--from", "2025-01-01", "--to",
      "2025-02-01",
    ])
    #expect(result.status != 0)
    #expect(result.stderr == "Error: no calendar database at /nonexistent/Calendar.sqlite\n")

    _ = try ekctl(["calendars", "--db", database])  // creates nothing: the file must exist
    _ = try ekctl(["import", Self.fixture("apple.ics"), "--db", database])
    let before = try ekctl(["export", "--db", database]).stdout
    let bad = folder.appendingPathComponent("bad.ics").path
    let text = try String(contentsOfFile: Self.fixture("google.ics"), encoding: .utf8)
      .replacingOccurrences(
        of: "RRULE:FREQ=MONTHLY;COUNT=6;BYDAY=2MO", with: "RRULE:FREQ=FORTNIGHTLY")
    try text.write(toFile: bad, atomically: true, encoding: .utf8)
    result = try ekctl(["import", bad, "--db", database])
    #expect(result.status != 0)
    #expect(result.stderr.hasPrefix("Error: \(bad): line 61: RRULE: "))
    #expect(result.stderr.split(separator: "\n").count == 1)
    #expect(try ekctl(["export", "--db", database]).stdout == before)

    result = try ekctl([
      "events", "--db", database, "--from", "2025-01-01", "--to", "2025-02-01", "--calendar",
      "Nope",
    ])
    #expect(
      result.stderr.hasPrefix(
        "Error: no calendar titled \"Nope\"; did you mean \"Home\"? (there are \"Calendar\""))
    result = try ekctl(["events", "--db", database, "--from", "March", "--to", "2025-02-01"])
    #expect(result.status != 0 && result.stderr.contains("--from"))
    result = try ekctl(["show", "nope", "--db", database])
    #expect(result.stderr == "Error: no event or reminder with identifier nope\n")
    result = try ekctl([
      "import", Self.fixture("google.ics"), "--calendar", "Holidays", "--db", database,
    ])
    #expect(result.stderr == "Error: The calendar \"Holidays\" is read-only.\n")
  }

  /// Files built to crash or flood the importer: each is one line on standard error, quickly,
  /// and the store is left as it was.
  @Test func hostileFilesAreRefusedInOneLine() throws {
    _ = try ekctl(["import", Self.fixture("apple.ics"), "--db", database])
    let before = try ekctl(["export", "--db", database]).stdout
    let head = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"
    let event = "BEGIN:VEVENT\r\nUID:x@example.org\r\nDTSTART:20250301T090000Z\r\n"
    let files = [
      // 60,000 nested components once crashed the release of the tree.
      (
        head + String(repeating: "BEGIN:X-A\r\n", count: 60_000)
          + String(repeating: "END:X-A\r\n", count: 60_000) + "END:VCALENDAR\r\n",
        "line 102: BEGIN:X-A nests components deeper than 100 levels, the most a file may have"
      ),
      (
        head + event + "SUMMARY:" + String(repeating: "x", count: 10 << 20) + "\r\n",
        "line 6: SUMMARY: the content line is longer than 8 MiB (8388608 bytes) once unfolded,"
          + " the most this reader accepts"
      ),
      (
        head + event + "SUMMARY:Lunch\u{0}\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
        "line 6: SUMMARY: the line holds a NUL character (U+0000): iCalendar allows no control"
          + " characters there, and the text after it would be lost"
      ),
      (
        head + event + "RRULE:FREQ=DAILY;COUNT=" + String(repeating: "9", count: 100_000)
          + "\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
        "line 6: RRULE: COUNT=" + String(repeating: "9", count: 80)
          + "… is out of range (1 to 2147483647)"
      ),
    ]
    for (index, (text, message)) in files.enumerated() {
      let file = folder.appendingPathComponent("hostile\(index).ics").path
      try text.write(toFile: file, atomically: true, encoding: .utf8)
      let result = try ekctl(["import", file, "--db", database])
      #expect(result.status == 1)
      #expect(result.stderr == "Error: \(file): \(message)\n", "\(result.stderr.prefix(500))")
    }
    #expect(try ekctl(["export", "--db", database]).stdout == before)
  }

  @Test func watchPrintsALinePerChangeFromAnotherProcess() async throws {
    _ = try ekctl(["import", Self.fixture("apple.ics"), "--db", database])
    let (watch, lines) = try await LineCollector.watching(database)
    defer { if watch.isRunning { watch.terminate() } }
    _ = try ekctl(["import", Self.fixture("google.ics"), "--db", database])
    try await lines.wait { $0.filter { $0.contains(" added ") }.count == 4 }
    _ = try ekctl(["rm", "F00D-CAFE-0001", "--db", database])
    try await lines.wait { $0.contains { $0.contains(" removed \"Floating breakfast\" ") } }
    watch.terminate()
  }
}

/// Lines a child process writes, collected as they come.
final class LineCollector: @unchecked Sendable {
  /// `ekctl watch --db database` in another process, once it says it is watching, and its
  /// lines; the caller terminates it.
  static func watching(_ database: String) async throws -> (Process, LineCollector) {
    let watch = Process()
    watch.executableURL = BuildProducts.executable("ekctl")
    watch.arguments = ["watch", "--db", database]
    let output = Pipe()
    watch.standardOutput = output
    watch.standardError = FileHandle.nullDevice
    try watch.run()
    let lines = LineCollector(output.fileHandleForReading)
    try await lines.wait { $0.contains { $0.hasPrefix("Watching ") } }
    return (watch, lines)
  }

  private let lock = NSLock()
  private var lines: [String] = []
  private var partial = ""

  init(_ handle: FileHandle) {
    handle.readabilityHandler = { [self] handle in
      let data = handle.availableData
      lock.withLock {
        partial += String(decoding: data, as: UTF8.self)
        while let newline = partial.firstIndex(of: "\n") {
          lines.append(String(partial[..<newline]))
          partial = String(partial[partial.index(after: newline)...])
        }
      }
      if data.isEmpty { handle.readabilityHandler = nil }
    }
  }

  /// The lines so far.
  var snapshot: [String] { lock.withLock { lines } }

  /// Waits (up to 20 s) until the lines so far satisfy `condition`.
  func wait(_ condition: ([String]) -> Bool, sourceLocation: SourceLocation = #_sourceLocation)
    async throws
  {
    for _ in 0..<200 {
      if lock.withLock({ condition(lines) }) { return }
      try await Task.sleep(for: .milliseconds(100))
    }
    Issue.record("timed out; lines: \(lock.withLock { lines })", sourceLocation: sourceLocation)
  }
}
