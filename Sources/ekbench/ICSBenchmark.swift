import ArgumentParser
import Foundation
import OpenEventKit

/// `ekbench ics`: importing a 50,000-event .ics file into a new store and exporting it back,
/// beside Python's `icalendar` package parsing the same file (when it is installed).
struct ICSBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "ics",
    abstract: "Time importing and exporting a 50,000-event iCalendar file.")

  @Flag(help: "Print one JSON object per line instead of a table.")
  var json = false

  @Option(help: "Events in the file.")
  var events = 50_000

  @Option(help: "Runs of each measurement; the best counts.")
  var runs = 3

  @Flag(help: "Skip the Python icalendar comparison.")
  var noPython = false

  func run() throws {
    let root = FileManager.default.temporaryDirectory
      .appendingPathComponent("ekbench-ics-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: root) }
    let file = root.appendingPathComponent("events.ics")
    let data = Data(Self.file(events: events).utf8)
    try data.write(to: file)
    let label = "\(events / 1000)k"

    var importBest = Double.infinity
    var exportBest = Double.infinity
    for run in 0..<runs {
      let store = try EKEventStore(
        ownerOf: root.appendingPathComponent("run\(run).sqlite"), create: true)
      var summary = ICalendarImportSummary()
      importBest = min(importBest, try seconds { summary = try store.importICalendar(data) })
      guard summary.eventsAdded == events, let id = summary.eventCalendarIdentifier,
        let calendar = store.calendar(withIdentifier: id)
      else {
        throw ValidationError("the import added \(summary.eventsAdded) of \(events) events")
      }
      var exported = Data()
      exportBest = min(
        exportBest, try seconds { exported = try store.exportICalendar(calendars: [calendar]) })
      blackHole(exported)
    }
    printFigures(
      json: json, "import-\(label)", ["perSecond": (Double(events) / importBest).rounded()],
      "\(events) events (a tenth repeating, a fifth with alarms) into a new store, one transaction")
    printFigures(
      json: json, "export-\(label)", ["perSecond": (Double(events) / exportBest).rounded()],
      "the same calendar back to .ics text")
    if !noPython, let python = try pythonParse(file) {
      printFigures(
        json: json, "python-\(label)",
        ["perSecond": (Double(events) / python).rounded()],
        "Python icalendar \(pythonVersion ?? "") Calendar.from_ical on the same file")
    }
  }

  private var pythonVersion: String? {
    let output = try? runPython("import icalendar; print(icalendar.__version__)")
    return output?.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// The best of `runs` timings of Python's icalendar parsing the file; nil when the package
  /// is missing.
  private func pythonParse(_ file: URL) throws -> Double? {
    let script = """
      import sys, time, icalendar
      data = open(sys.argv[1], 'rb').read()
      best = min(
          (lambda s: (icalendar.Calendar.from_ical(data), time.perf_counter() - s)[1])(time.perf_counter())
          for _ in range(\(runs)))
      print(best)
      """
    guard let output = try runPython(script, arguments: [file.path]) else { return nil }
    return Double(output.trimmingCharacters(in: .whitespacesAndNewlines))
  }

  private func runPython(_ script: String, arguments: [String] = []) throws -> String? {
    let process = Process()
    process.executableURL = try Peers.python()
    process.arguments = ["-c", script] + arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return process.terminationStatus == 0 ? String(decoding: data, as: UTF8.self) : nil
  }

  /// A file shaped like a calendar service's export: zoned times, descriptions and places,
  /// every tenth event a weekly series, every fifth with an alarm, every seventh with
  /// attendees, and the X- properties exporters add.
  static func file(events: Int) -> String {
    var text = """
      BEGIN:VCALENDAR\r
      VERSION:2.0\r
      PRODID:-//OpenEventKit//ekbench//EN\r
      X-WR-CALNAME:Benchmark\r
      X-WR-TIMEZONE:Europe/Berlin\r

      """
    text.reserveCapacity(events * 420)
    let zones = ["Europe/Berlin", "America/New_York", "Asia/Tokyo"]
    for index in 0..<events {
      let day = index % 365
      let month = 1 + day / 31 % 12
      let date = String(
        format: "2025%02d%02dT%02d%02d00", month, 1 + day % 28, 8 + index % 10, index % 4 * 15)
      let end = String(
        format: "2025%02d%02dT%02d%02d00", month, 1 + day % 28, 9 + index % 10, index % 4 * 15)
      let zone = zones[index % zones.count]
      text += "BEGIN:VEVENT\r\nUID:event-\(index)@benchmark.openeventkit.org\r\n"
      text +=
        "DTSTAMP:20250101T000000Z\r\nCREATED:20241201T120000Z\r\nLAST-MODIFIED:20241215T120000Z\r\n"
      text += "DTSTART;TZID=\(zone):\(date)\r\nDTEND;TZID=\(zone):\(end)\r\n"
      text += "SUMMARY:Meeting \(index) about the quarterly numbers\r\n"
      text += "DESCRIPTION:Agenda:\\n1. Numbers\\, charts\\n2. Questions\r\n"
      text += "LOCATION:Room \(index % 40)\\, building \(index % 3)\r\n"
      text += "STATUS:CONFIRMED\r\nTRANSP:OPAQUE\r\nSEQUENCE:\(index % 3)\r\n"
      text += "X-MICROSOFT-CDO-BUSYSTATUS:BUSY\r\n"
      if index % 10 == 0 { text += "RRULE:FREQ=WEEKLY;COUNT=12\r\n" }
      if index % 7 == 0 {
        text += "ORGANIZER;CN=Ana Lopez:mailto:ana@example.com\r\n"
        text +=
          "ATTENDEE;CN=Bo Chen;PARTSTAT=ACCEPTED;ROLE=REQ-PARTICIPANT:mailto:bo@example.com\r\n"
      }
      if index % 5 == 0 {
        text +=
          "BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:Reminder\r\nTRIGGER:-PT15M\r\nEND:VALARM\r\n"
      }
      text += "END:VEVENT\r\n"
    }
    return text + "END:VCALENDAR\r\n"
  }
}
