import EkctlKit
import Foundation
import ICalendar
import OpenEventKit
import REPLKit

#if canImport(Glibc)
  import Glibc
#endif

/// `ekctl alarms --watch`: OpenEventKit's `AlarmAgent`, delivering each round's firings on
/// standard output and to `--exec`'s command.
struct AlarmWatch {
  let store: EKEventStore
  let options: AlarmsListCommand

  func run() throws {
    let clock = try options.time.reader()
    let grace = TimeInterval(options.grace * 60)
    let agent = try failing {
      try AlarmAgent(store: store, grace: grace, clock: { clock.now })
    }
    // SIGUSR1: look again now (after a resume the wall clock has moved on).
    let wakeSignal = handlingWakeSignal { agent.wake() }
    // A test's clock file: rewriting it moves the agent's time and wakes it.
    var clockWatch: FileWatch?
    if case .file(let file) = clock { clockWatch = try FileWatch(file.file) { agent.wake() } }
    let jobs = options.execJobs ?? ExecRunner.defaultJobs
    let runner = options.exec.map { ExecRunner(command: $0, jobs: jobs) }
    let notifier =
      options.noNotify
      ? nil : DesktopNotifier.sessionBus { [options] item in Self.show(item, options) }
    // Said once the first round is done: what was due at the start is decided by then.
    var started = false
    try failing {
      try agent.run { round in
        if !started, !options.json {
          write(
            "Delivering the alarms of \(store.databaseFile.path) as they fire (Ctrl-C to stop).")
        }
        started = true
        for firing in round.missed { deliver(firing, as: "missed", to: runner) }
        for summary in round.missedSummaries {
          write(
            options.json
              ? AlarmText.jsonLine(summary, delivery: "missed")
              : InertText.of("missed  " + AlarmText.textLine(summary)))
        }
        for delivery in round.due {
          let kind = delivery.wasSnoozed ? "snoozed" : "alarm"
          deliver(delivery.firing, as: kind, to: runner)
          notifier?.notify(delivery.firing, kind: kind)
        }
      }
    }
    withExtendedLifetime((wakeSignal, clockWatch, notifier, runner)) {}
  }

  /// A line (or JSON object) on standard output, then `--exec`'s command (through `runner`,
  /// which bounds how many run at once). A missed firing is told, not run.
  private func deliver(_ firing: AlarmFiring, as kind: String, to runner: ExecRunner?) {
    let json = AlarmText.jsonLine(firing, delivery: kind)
    write(options.json ? json : InertText.of(kind + "  " + AlarmText.textLine(firing)))
    guard kind != "missed" else { return }
    runner?.submit(json + "\n")
  }

  /// Written straight to the file descriptor: `print` would sit in a buffer while piped.
  private func write(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
  }

  /// What `ekctl show ID` prints of an item, run as a process of this executable on the same
  /// store.
  static func show(_ item: String, _ options: AlarmsListCommand) -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/proc/self/exe")
    process.arguments = ["show", item] + (options.store.database.map { ["--db", $0] } ?? [])
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    do {
      try process.run()
    } catch {
      return "cannot run ekctl show: \(error)"
    }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// The firing with this identifier, among those within a week of now, or as the ledger
  /// recorded it (a firing snoozed or fired whose item has changed since).
  static func firing(_ id: String, in store: EKEventStore, now: Date) throws -> AlarmFiring {
    let week: TimeInterval = 7 * 86_400
    if let found = store.alarmFiringSequence(
      from: now.addingTimeInterval(-week), to: now.addingTimeInterval(week)
    ).first(where: { $0.id == id }) {
      return found
    }
    if let entry = try failing({ try AlarmLedger(for: store).entry(id: id) }) {
      return entry.firing
    }
    throw CommandError(
      "no alarm \(id) fires within a week of now (`ekctl alarms` lists them with their "
        + "identifiers)")
  }
}

/// The clock of an `ekctl alarms` command (``CommandTime``).
enum CommandClock: Sendable {
  /// The system's.
  case system
  /// The system's, moved by this many seconds (`--now`: it starts at that date and runs on).
  case shifted(by: TimeInterval)
  /// A test's file, read at each use (`--clock`).
  case file(FileClock)

  var now: Date {
    switch self {
    case .system: Date()
    case .shifted(let seconds): Date().addingTimeInterval(seconds)
    case .file(let file): file.now
    }
  }
}

/// The time in a file (an ISO 8601 date, as `--from` takes it), read at each use.
final class FileClock: Sendable {
  let file: String

  init(_ file: String) throws {
    self.file = file
    guard Self.read(file) != nil else {
      throw CommandError("--clock \(file): not a file holding an ISO 8601 date")
    }
  }

  var now: Date { Self.read(file) ?? Date() }

  private static func read(_ file: String) -> Date? {
    guard let text = try? String(contentsOfFile: file, encoding: .utf8),
      let value = try? ISO8601Text.parse(text.trimmingCharacters(in: .whitespacesAndNewlines))
    else { return nil }
    return DateArgument.date(of: value)
  }
}

/// Calls `onChange` when a file is written or replaced (inotify on its folder, events of
/// other files of the folder ignored: the store's own files may be beside it).
final class FileWatch: @unchecked Sendable {
  private let descriptor: Int32
  private let source: any DispatchSourceRead

  init(_ file: String, onChange: @escaping @Sendable () -> Void) throws {
    let folder = (file as NSString).deletingLastPathComponent
    let name = Array((file as NSString).lastPathComponent.utf8)
    descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MODIFY)
    guard descriptor >= 0, inotify_add_watch(descriptor, folder.isEmpty ? "." : folder, mask) >= 0
    else {
      throw CommandError("cannot watch \(file): \(String(cString: strerror(errno)))")
    }
    source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: .global())
    let descriptor = self.descriptor
    source.setEventHandler {
      var buffer = [UInt8](repeating: 0, count: 4096)
      var changed = false
      while true {
        let count = read(descriptor, &buffer, buffer.count)
        guard count > 0 else { break }
        changed = changed || Self.names(in: buffer[..<count]).contains(name)
      }
      if changed { onChange() }
    }
    source.setCancelHandler { close(descriptor) }
    source.resume()
  }

  deinit { source.cancel() }

  /// The file names of the inotify events in `bytes` (struct inotify_event: wd, mask, cookie,
  /// len, then len bytes of NUL-padded name).
  private static func names(in bytes: ArraySlice<UInt8>) -> [[UInt8]] {
    var names: [[UInt8]] = []
    var offset = bytes.startIndex
    let header = 16
    while offset + header <= bytes.endIndex {
      let length =
        Int(bytes[offset + 12]) | Int(bytes[offset + 13]) << 8 | Int(bytes[offset + 14]) << 16
        | Int(bytes[offset + 15]) << 24
      let start = offset + header
      let end = min(start + length, bytes.endIndex)
      names.append(Array(bytes[start..<end].prefix { $0 != 0 }))
      offset = start + length
    }
    return names
  }
}
