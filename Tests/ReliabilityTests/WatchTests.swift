import Foundation
import TestSupport
import Testing

/// `ekctl watch` on a store of many items: it is ready at once, and reports every commit
/// made after it says so, from any process, within a second.
@Suite struct WatchTests {
  /// A file of `count` one-hour events named "`prefix` N".
  static func events(_ prefix: String, count: Int) -> String {
    var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Test//Watch//EN\r\n"
    for index in 0..<count {
      let day = 1 + index % 28
      text += "BEGIN:VEVENT\r\nUID:\(prefix)-\(index)@test\r\nDTSTAMP:20260101T000000Z\r\n"
      text += "DTSTART:202603\(day < 10 ? "0" : "")\(day)T090000Z\r\nDURATION:PT1H\r\n"
      text += "SUMMARY:\(prefix) \(index)\r\nEND:VEVENT\r\n"
    }
    return text + "END:VCALENDAR\r\n"
  }

  static func importing(_ prefix: String, count: Int, into home: TemporaryHome) throws -> Started {
    let file = home.url.appendingPathComponent("\(prefix).ics")
    try events(prefix, count: count).write(to: file, atomically: true, encoding: .utf8)
    return try Started("ekctl", ["import", file.path], home: home)
  }

  @Test func changesFromEveryWriterAreReported() throws {
    let home = try TemporaryHome()
    let size = Scale.rounds(short: 4_000, full: 40_000)
    #expect(try Self.importing("Existing", count: size, into: home).finish().status == 0)

    let watch = try SampleRun(executable: "ekctl", arguments: ["watch"], home: home)
    defer { watch.stop() }
    // Before the fix, reading 40,000 items one by one took 8–9 s here, and a commit made
    // meanwhile was never reported.
    try watch.wait(for: "(Ctrl-C to stop)\n", timeout: 10)

    // A commit right after the watcher said it watches.
    #expect(try Self.importing("Fresh", count: 1, into: home).finish().status == 0)
    try watch.waitReportingLatency(for: "added \"Fresh 0\"", tight: 1, what: "one commit told")

    // Four writers at once: once they have all ended, every add is told (within a second in
    // the full run, on a machine of its own).
    let writers = try (1...4).map { try Self.importing("Writer\($0)", count: 250, into: home) }
    for writer in writers { #expect(writer.finish().status == 0) }
    try watch.waitReportingLatency(
      for: " added \"Writer", count: 1_000, tight: 1, what: "four writers' 1,000 adds told")
    for writer in 1...4 {
      #expect(watch.output.components(separatedBy: "added \"Writer\(writer) ").count - 1 == 250)
    }
  }
}
