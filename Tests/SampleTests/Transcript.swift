import Foundation
import OpenEventKit
import TestSupport
import Testing

/// A golden transcript: what the samples printed in a session, with what varies from run to
/// run replaced, compared with `Transcripts/NAME.txt` (``TranscriptTests``).
///
/// The file starts with `# ` lines saying how the session was run; then each process: `$ ` and
/// its command line, its whole output (standard output and standard error, as they came), and
/// its exit status.
struct Transcript {
  /// The file's name, without `.txt`.
  let name: String
  /// The header's first line.
  let title: String
  /// The header's other lines: how the session was run (the environment, the steps).
  var notes: [String]
  private var runs: [String] = []

  init(_ name: String, _ title: String, notes: [String]) {
    self.name = name
    self.title = title
    self.notes = notes
  }

  /// Adds a process's run: its command line, what it printed and how it ended, normalised
  /// (``normalise(_:home:)``); with `files`, the names in the home afterwards (when the
  /// store's files are made is part of what a sample does).
  mutating func add(
    _ command: String, _ run: (output: String, status: Int32), home: SampleHome,
    files: Bool = false
  ) {
    var output = normalise(run.output, home: home)
    if !output.isEmpty, !output.hasSuffix("\n") { output += "[no newline at the end]\n" }
    var text = "$ \(command)\n\(output)[exit status \(run.status)]\n"
    if files {
      // Without SQLite's journals, which come and go with the connections.
      let names = (try? FileManager.default.contentsOfDirectory(atPath: home.url.path)) ?? []
      let kept = names.filter { !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }.sorted()
      text += "[in <home>: \(kept.isEmpty ? "nothing" : kept.joined(separator: ", "))]\n"
    }
    runs.append(text)
  }

  /// The file's text.
  var text: String {
    ([title] + notes).map { "# \($0)" }.joined(separator: "\n") + "\n\n"
      + runs.joined(separator: "\n")
  }

  // MARK: What varies

  /// The identifiers seen so far, numbered in the order they first showed.
  private var identifiers: [Substring: Int] = [:]

  /// What differs from one run to the next, replaced: the temporary home's path by `<home>`;
  /// each identifier (a UUID) by as many `X`s, the hyphens kept and its number at the end
  /// (`XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXX2`, the second one seen), so that the transcript
  /// still says which items are the same; timings (`0.5 ms`) by `<ms>`; and the completion
  /// date of a checked reminder, which is the real clock's, not `--now`'s, by `<real clock>`.
  mutating func normalise(_ output: String, home: SampleHome) -> String {
    var text = output.replacingOccurrences(of: home.url.path, with: "<home>")
    text = text.replacing(Self.uuid) { match in
      let number = identifiers[match.output] ?? identifiers.count + 1
      identifiers[match.output] = number
      let mask = String(match.output.map { $0 == "-" ? "-" : "X" })
      return mask.dropLast(String(number).count) + String(number)
    }
    text = text.replacing(Self.milliseconds, with: "<ms>")
    text = text.replacing(Self.boughtAt, with: "bought <real clock>")
    return text
  }

  nonisolated(unsafe) static let uuid =
    #/[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}/#
  nonisolated(unsafe) static let milliseconds = #/\d+\.\d+ ms/#
  nonisolated(unsafe) static let boughtAt =
    #/bought [A-Z][a-z]{2} \d{1,2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}/#

  // MARK: Checking and recording

  /// The folder of the recorded transcripts, beside this file.
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Transcripts")

  /// Whether this run records the transcripts instead of checking them
  /// (`scripts/record-transcripts` sets `OPENEVENTKIT_RECORD_TRANSCRIPTS=1`).
  static let recording =
    ProcessInfo.processInfo.environment["OPENEVENTKIT_RECORD_TRANSCRIPTS"] == "1"

  /// Runs `session` and compares its transcript with the recorded one, with a unified diff when
  /// they differ. Recording, it runs the session three times and writes the file only when the
  /// three agree: a difference between them is something that varies and is not normalised.
  static func check(_ session: () throws -> Transcript) throws {
    let clock = ContinuousClock()
    let start = clock.now
    let transcript = try session()
    print("TranscriptTests: \(transcript.name) took \(clock.now - start)")
    let file = folder.appendingPathComponent("\(transcript.name).txt")
    if recording {
      for _ in 1...2 {
        let again = try session().text
        guard again == transcript.text else {
          let difference = diff(transcript.text, again, labels: ("first run", "another run"))
          Issue.record("\(transcript.name) varies from run to run; not recorded:\n\(difference)")
          return
        }
      }
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try Data(transcript.text.utf8).write(to: file)
      return
    }
    guard let recorded = try? String(contentsOf: file, encoding: .utf8) else {
      Issue.record("no transcript at \(file.path); scripts/record-transcripts records it")
      return
    }
    if recorded != transcript.text {
      let difference = diff(recorded, transcript.text)
      let file = "Transcripts/\(transcript.name).txt"
      Issue.record("\(transcript.name) differs from \(file) (- recorded, + now):\n\(difference)")
    }
  }

  /// `diff -u` of two texts.
  static func diff(
    _ before: String, _ after: String, labels: (String, String) = ("recorded", "now")
  ) -> String {
    guard let folder = try? TemporaryFolder(prefix: "Transcript") else { return after }
    let old = folder.url.appendingPathComponent("recorded")
    let new = folder.url.appendingPathComponent("now")
    do {
      try Data(before.utf8).write(to: old)
      try Data(after.utf8).write(to: new)
      let result = try runProgram(
        try Programs.path("diff", package: "diffutils"),
        ["-u", "--label", labels.0, "--label", labels.1, old.path, new.path], input: nil,
        environment: [:])
      return result.stdout + result.stderr
    } catch {
      return "(no diff: \(error))\n\(after)"
    }
  }
}

/// A sample running piped, typed at in steps: each step waits until the sample has read and
/// answered every line of it, so that another process may act between two steps.
final class TypedSession {
  let run: SampleRun

  /// Starts `executable` with `arguments` in `home`.
  init(_ executable: String, _ arguments: [String], home: SampleHome) throws {
    run = try SampleRun(executable: executable, arguments: arguments, home: home)
  }

  /// Types `input`, and waits until the sample has read all of it and waits for more.
  func type(_ input: String) throws {
    run.send(input)
    try run.waitUntilInputIsRead()
  }

  /// Ends the input; the whole output and the exit status.
  func finish() throws -> (output: String, status: Int32) { try run.finish() }
}

/// The test's own look at a home's store, to know when another process's commit has been
/// made known: each store hears of a commit through inotify on the database's folder, so once
/// this one has, the samples' stores have too, give or take their threads' turn.
final class StoreWatch: @unchecked Sendable {
  let store: EKEventStore
  private let lock = NSLock()
  private var heard = 0
  private var observer: (any NSObjectProtocol)?

  /// Opens `home`'s store (which must exist: opening it must not make it).
  init(_ home: SampleHome) throws {
    store = try home.store()
    observer = NotificationCenter.default.addObserver(
      forName: .EKEventStoreChanged, object: store, queue: nil
    ) { [self] _ in lock.withLock { heard += 1 } }
  }

  deinit { observer.map(NotificationCenter.default.removeObserver) }

  /// Runs `change`, another process's commit (an `ekctl` command run to its end, or a step of
  /// a sample that writes), then waits until this store has heard of a commit, and half a
  /// second more for the samples' stores, which hear of it at the same moment, to post their
  /// `EKEventStoreChanged` on their own threads.
  func afterChange(_ change: () throws -> Void) throws {
    let before = lock.withLock { heard }
    try change()
    let deadline = Date().addingTimeInterval(30)
    while lock.withLock({ heard }) == before {
      guard Date() < deadline else {
        Issue.record("the store never heard of the change")
        return
      }
      Thread.sleep(forTimeInterval: 0.02)
    }
    Thread.sleep(forTimeInterval: 0.5)
  }
}
