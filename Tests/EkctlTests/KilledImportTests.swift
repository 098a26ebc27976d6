import Foundation
import Testing

/// An import killed half way through its transaction leaves the store as it was: SQLite
/// rolls back what was never committed, the next opener finds no half-written calendar.
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
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("EkctlKilled-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let database = folder.appendingPathComponent("Calendar.sqlite").path
    let file = folder.appendingPathComponent("large.ics").path
    try Self.largeFile(count: 60_000).write(toFile: file, atomically: true, encoding: .utf8)
    #expect(
      try runEkctl(["import", StoreCommandTests.fixture("apple.ics"), "--db", database]).status == 0
    )
    let before = try runEkctl(["export", "--db", database]).stdout
    let calendars = try runEkctl(["calendars", "--db", database]).stdout

    let wal = database + "-wal"
    let startSize = Self.size(wal)
    let process = Process()
    process.executableURL = productsDirectory.appendingPathComponent("ekctl")
    process.arguments = ["import", file, "--db", database]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    // The transaction has written well past the page cache into the WAL: kill it there.
    var grew = false
    for _ in 0..<3000 where process.isRunning {
      if Self.size(wal) > startSize + 4_000_000 {
        grew = true
        break
      }
      try await Task.sleep(for: .milliseconds(10))
    }
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    #expect(grew, "the import never reached its writes")
    #expect(process.terminationReason == .uncaughtSignal, "the import finished before the kill")

    #expect(try runEkctl(["calendars", "--db", database]).stdout == calendars)
    #expect(try runEkctl(["export", "--db", database]).stdout == before)
    let result = try runEkctl([
      "events", "--db", database, "--from", "2025-01-01", "--to", "2025-02-01", "--json",
    ])
    #expect(!result.stdout.contains("Event number"))
  }

  @Test func aProgressBarOnATerminalOnly() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("EkctlProgress-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("large.ics").path
    try Self.largeFile(count: 20_000).write(toFile: file, atomically: true, encoding: .utf8)
    // On a pseudo-terminal: the bar is drawn on standard error, then cleared.
    let script = """
      import os, pty, sys
      pid, fd = pty.fork()
      if pid == 0:
          os.execv(sys.argv[1], sys.argv[1:])
      seen = b""
      while True:
          try:
              chunk = os.read(fd, 4096)
          except OSError:
              break
          if not chunk:
              break
          seen += chunk
      os.waitpid(pid, 0)
      sys.stdout.write(seen.decode("utf-8", "replace"))
      """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "python3", "-c", script, productsDirectory.appendingPathComponent("ekctl").path, "import",
      file, "--db", folder.appendingPathComponent("a.sqlite").path,
    ]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let shown = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(shown.contains("\rImporting "))
    #expect(shown.contains("% reading") || shown.contains("% writing"))
    #expect(shown.contains("\r\u{1B}[K"))
    #expect(shown.contains("20000 events added, 0 updated in \"Large\"."))
    // Piped: no bar at all.
    let piped = try runEkctl([
      "import", file, "--db", folder.appendingPathComponent("b.sqlite").path,
    ])
    #expect(piped.status == 0)
    #expect(piped.stderr == "")
    #expect(piped.stdout == "20000 events added, 0 updated in \"Large\".\n")
  }

  static func size(_ path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
  }
}
