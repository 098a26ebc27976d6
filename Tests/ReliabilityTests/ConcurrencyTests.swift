import Foundation
import OpenEventKit
import TestSupport
import Testing

/// Many processes on one store at once: writers committing each save, a writer committing
/// batches, readers running predicates in a loop, and `ekctl watch`. Every save is there
/// afterwards, no "database is locked" reaches a caller, readers never see a batch in part,
/// and the watcher reports every writer's changes.
@Suite struct ConcurrencyTests {
  /// `oek-store-helper` plays the apps; it is given full access as a person would.
  static func home() throws -> TemporaryHome {
    let home = try TemporaryHome()
    for entity in ["events", "reminders"] {
      try home.decide("full", app: "org.openeventkit.store-helper", entity: entity)
    }
    return home
  }

  @Test func fourWritersTwoReadersAndAWatcher() throws {
    let home = try Self.home()
    let saves = Scale.rounds(short: 150, full: 1_000)
    let batches = Scale.rounds(short: 10, full: 50)
    let folder = home.url.path
    _ = try home.ekctl(["calendars"])  // the store exists before anyone watches it
    let watch = try SampleRun(executable: "ekctl", arguments: ["watch"], home: home)
    defer { watch.stop() }
    try watch.wait(for: "(Ctrl-C to stop)\n", timeout: 10)

    // Readers for as long as the writers take, at most two minutes.
    let readers = try (1...2).map { _ in
      try Started("oek-store-helper", ["read", folder, "Batch", "20", "120"], home: home)
    }
    var writers = try (1...4).map { writer in
      try Started(
        "oek-store-helper",
        ["add", folder, "W\(writer)", "\(saves)", "2026-0\(writer)-01T08:00:00Z"],
        home: home)
    }
    // One more writer commits batches of 20 (`commit: false`, then `commit()`).
    for batch in 0..<batches {
      writers.append(
        try Started(
          "oek-store-helper",
          ["batch", folder, "Batch", "20", "2027-01-\(10 + batch % 18)T00:00:00Z"], home: home))
      #expect(writers.last!.finish().status == 0)
    }
    for writer in writers.prefix(4) {
      let finished = writer.finish()
      #expect(finished.status == 0, "\(finished)")
      #expect(!finished.output.contains("locked"), "\(finished)")
    }
    _ = FileManager.default.createFile(
      atPath: home.url.appendingPathComponent("stop-readers").path, contents: nil)
    for reader in readers {
      let finished = reader.finish()
      #expect(!finished.output.contains("torn"), "a reader saw part of a batch: \(finished)")
      #expect(finished.output.contains("reads "), "\(finished)")
    }

    // Every save is there.
    let store = try home.store()
    let all = store.events(
      matching: store.predicateForEvents(
        withStart: Date(timeIntervalSince1970: 1_767_225_600),
        end: Date(timeIntervalSince1970: 1_830_297_600), calendars: nil))
    for writer in 1...4 {
      #expect(all.filter { $0.title?.hasPrefix("W\(writer) ") == true }.count == saves)
    }
    #expect(all.filter { $0.title?.hasPrefix("Batch ") == true }.count == batches * 20)
    // And the watcher told of each (within a second of the last commit in the full run).
    let total = 4 * saves + batches * 20
    try watch.waitReportingLatency(
      for: " added \"", count: total, tight: 1, what: "every save told")
    for writer in 1...4 {
      #expect(watch.output.components(separatedBy: "added \"W\(writer) ").count - 1 == saves)
    }
  }
}
