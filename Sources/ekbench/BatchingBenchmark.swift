import ArgumentParser
import Foundation
import OpenEventKit
import Synchronization

/// `ekbench batching`: a reminders list of 8 and of 300 items saved as recipe-reminders saves
/// it, staged with `commit: false` and written by one `commit()`, or one commit per item; the
/// time, the writes handed to the kernel, the `EKEventStoreChanged` notifications another
/// store gets, and what a reader on another store sees meanwhile. The conditions the time
/// depends on (the disk, the durability setting, the machine) are printed first.
///
/// `--synchronous full` runs the same comparison with every commit syncing the log, as the
/// store's default (NORMAL) does not: what a batch buys when each commit waits for the disk.
struct BatchingBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "batching",
    abstract: "Time a reminders list saved in one commit and with one commit per item.",
    discussion: """
      Each run makes a new database. Counting fsync calls takes strace: \
      strace -f -c -e trace=fsync,fdatasync ekbench batching --runs 1
      """)

  @Option(
    help: """
      The writer's PRAGMA synchronous: normal (the store's) or full (every commit syncs the \
      log).
      """)
  var synchronous = SynchronousSetting.normal

  @Flag(help: "Print one JSON object per line instead of a table.")
  var json = false

  @Option(
    help: """
      The folder to make the databases in, on the disk to measure (default: the temporary \
      folder); they go in a new folder inside it, removed at the end.
      """)
  var folder: String?

  @Option(help: "Timed runs of each configuration (default: 30 for 8 items, 10 for 300).")
  var runs: Int?

  /// Runs with a reader polling from another store, apart from the timed runs.
  static let readerRuns = 3

  func run() throws {
    let parent = URL(fileURLWithPath: folder ?? FileManager.default.temporaryDirectory.path)
    let root = parent.appendingPathComponent("ekbench-batching-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: root) }

    var conditions = Conditions(folder: root)
    let first = try ListWriter(root.appendingPathComponent("conditions"), synchronous)
    conditions.fields += [
      ("journal_mode", journalMode(first.store.databaseFile)),
      // Read back from the writer connection the runs set it on, as each run sets it.
      ("synchronous", try first.store.writerSynchronous().map { "\($0)".uppercased() } ?? "other"),
    ]
    conditions.print(json: json)

    for count in [8, 300] {
      for batch in [true, false] {
        let name = "\(count)-" + (batch ? "batched" : "per-item")
        var times: [Double] = []
        var writes: [WriteCounters] = []
        var notifications: [Int] = []
        for run in 0..<(runs ?? (count == 8 ? 30 : 10)) {
          let figures = try BatchingRun.inNewProcess(
            root.appendingPathComponent("\(name)-\(run)"), count: count, batch: batch,
            reader: false, synchronous)
          times.append(figures[0])
          writes.append(WriteCounters(bytes: Int(figures[1]), calls: Int(figures[2])))
          notifications.append(Int(figures[3]))
        }
        var seen: Set<Int> = []
        for run in 0..<BatchingBenchmark.readerRuns {
          let figures = try BatchingRun.inNewProcess(
            root.appendingPathComponent("\(name)-reader-\(run)"), count: count, batch: batch,
            reader: true, synchronous)
          seen.formUnion(figures.dropFirst(4).map { Int($0) })
        }
        times.sort()
        let medianOf = { (values: [Int]) in Double(values.sorted()[values.count / 2]) }
        printFigures(
          json: json, name,
          [
            "minMs": (times[0] * 1e6).rounded() / 1000,
            "medianMs": (times[times.count / 2] * 1e6).rounded() / 1000,
            "maxMs": (times[times.count - 1] * 1e6).rounded() / 1000,
            "wchar": medianOf(writes.map(\.bytes)), "syscw": medianOf(writes.map(\.calls)),
            "notesMin": Double(notifications.min() ?? 0),
            "notesMax": Double(notifications.max() ?? 0),
            "readerPartial": Double(seen.filter { $0 > 0 && $0 < count }.count),
          ],
          "\(times.count) runs; a reader saw \(Self.summary(seen)) in \(Self.readerRuns) more")
      }
    }
  }

  /// The counts a reader saw, in order: all of them when few, else the first and the last.
  static func summary(_ counts: Set<Int>) -> String {
    let sorted = counts.sorted()
    guard sorted.count > 6 else { return "\(sorted)" }
    return "[\(sorted[0]), \(sorted[1]), … \(sorted[sorted.count - 1])] (\(sorted.count) counts)"
  }

  /// `PRAGMA journal_mode` of the database, read by the `sqlite3` shell when it is on `PATH`
  /// (the mode is kept in the file, so any connection reads the store's).
  private func journalMode(_ database: URL) -> String {
    guard let shell = Peers.onPath("sqlite3") else { return "unknown (no sqlite3 shell)" }
    let process = Process()
    process.executableURL = shell
    process.arguments = ["-readonly", database.path, "PRAGMA journal_mode"]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return "unknown" }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }
}

/// `ekbench batching-run FOLDER COUNT batched|per-item [--reader]` (internal to `ekbench
/// batching`): one run in a new database, printing the seconds, the bytes and calls written,
/// the notifications another store got and, with `--reader`, the counts a reader saw.
///
/// Each run is a process of its own, which starts with nothing an earlier run left. Run in one
/// process, the stores of earlier runs once stayed alive, each with an inotify instance, until
/// the 128 a user may have (`fs.inotify.max_user_instances`) ran out and with them the
/// notifications counted: the typed message each store posts on the main actor held it, and
/// ekbench's busy main thread never runs the main actor (fixed; docs/PERFORMANCE.md,
/// `StoreLifetimeTests`).
struct BatchingRun: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "batching-run", abstract: "Used by `ekbench batching`.", shouldDisplay: false)

  @Argument var folder: String
  @Argument var count: Int
  @Argument var mode: String
  @Flag var reader = false
  @Option var synchronous = SynchronousSetting.normal

  func run() throws {
    // Both ways once in a database of their own first, so that the time is not a new
    // process's first use of the code (a few tenths of a millisecond more for 8 items).
    let warm = try ListWriter(
      URL(fileURLWithPath: folder).appendingPathComponent("warm-up"), synchronous)
    _ = try warm.write(8, batch: true)
    _ = try warm.write(8, batch: false)
    let writer = try ListWriter(URL(fileURLWithPath: folder), synchronous)
    let counter = NotificationCounter(EKEventStore(folder: writer.folder))
    var figures: [Double]
    if reader {
      let seen = try writer.countsSeenByAReader(count, batch: mode == "batched")
      figures = [0, 0, 0, Double(counter.settled())] + seen.sorted().map(Double.init)
    } else {
      let (elapsed, written) = try writer.write(count, batch: mode == "batched")
      figures = [elapsed, Double(written.bytes), Double(written.calls), Double(counter.settled())]
    }
    print(figures.map { String($0) }.joined(separator: " "))
  }

  /// The figures of a run in a new process of this ekbench.
  static func inNewProcess(
    _ folder: URL, count: Int, batch: Bool, reader: Bool, _ synchronous: SynchronousSetting
  ) throws -> [Double] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    process.arguments =
      ["batching-run", folder.path, String(count), batch ? "batched" : "per-item"]
      + ["--synchronous", synchronous.rawValue] + (reader ? ["--reader"] : [])
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let figures = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace)
      .compactMap { Double($0) }
    guard process.terminationStatus == 0, figures.count >= 4 else {
      throw ValidationError("a batching run in \(folder.path) failed")
    }
    return figures
  }
}

/// `PRAGMA synchronous` for the runs' writers.
enum SynchronousSetting: String, ExpressibleByArgument, CaseIterable {
  case normal, full

  var mode: EKEventStore.Synchronous { self == .full ? .full : .normal }
}

/// A new database with full access for ekbench and one reminders list, committed, as
/// recipe-reminders makes it before it adds the items, by a store whose commits sync as
/// `synchronous` says.
struct ListWriter {
  let folder: URL
  let store: EKEventStore
  let list: EKCalendar

  init(_ folder: URL, _ synchronous: SynchronousSetting) throws {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try StoreBenchmark.allowAccess(in: folder)
    self.folder = folder
    store = EKEventStore(folder: folder)
    try store.setWriterSynchronous(synchronous.mode)
    list = EKCalendar(for: .reminder, eventStore: store)
    list.title = "Shopping"
    guard let source = store.sources.first(where: { $0.sourceType == .local }) else {
      throw ValidationError("the store at \(folder.path) has no local source")
    }
    list.source = source
    try store.saveCalendar(list, commit: true)
  }

  /// Saves `count` reminders in the list, staged and committed once or one commit each;
  /// the time from the first save to the end of the last commit (the reminders are made
  /// before), and the writes meanwhile.
  func write(_ count: Int, batch: Bool) throws -> (seconds: Double, writes: WriteCounters) {
    let reminders = (1...count).map { index in
      let reminder = EKReminder(eventStore: store)
      reminder.calendar = list
      reminder.title = "ingredient \(index)"
      reminder.notes = "\(index) g"
      return reminder
    }
    let before = WriteCounters.now()
    let elapsed = try seconds {
      for reminder in reminders { try store.save(reminder, commit: !batch) }
      if batch { try store.commit() }
    }
    return (elapsed, WriteCounters.now() - before)
  }

  /// The item counts of the list that a reader on another store saw, polling from before
  /// the first save until it saw all `count` (or for 20 s).
  func countsSeenByAReader(_ count: Int, batch: Bool) throws -> Set<Int> {
    let reader = EKEventStore(folder: folder)
    let identifier = list.calendarIdentifier
    let seen = Mutex<Set<Int>>([])
    let finished = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      let deadline = Date().addingTimeInterval(20)
      while Date() < deadline {
        reader.refreshSourcesIfNecessary()
        let items = reader.calendar(withIdentifier: identifier).map {
          reminderCount(in: $0, reader)
        }
        seen.withLock { _ = $0.insert(items ?? -1) }
        if items == count { break }
      }
      finished.signal()
    }
    // The reader reads before the first save, so that it can see every commit.
    while seen.withLock({ $0.isEmpty }) { usleep(1000) }
    _ = try write(count, batch: batch)
    finished.wait()
    return seen.withLock { $0 }
  }
}

/// The reminders in `list`, fetched by `store`.
private func reminderCount(in list: EKCalendar, _ store: EKEventStore) -> Int {
  let found = Mutex(0)
  let done = DispatchSemaphore(value: 0)
  store.fetchReminders(matching: store.predicateForReminders(in: [list])) { reminders in
    found.withLock { $0 = reminders?.count ?? 0 }
    done.signal()
  }
  done.wait()
  return found.withLock { $0 }
}

/// Counts the `EKEventStoreChanged` notifications a store posts (and keeps the store, whose
/// watcher stops with it).
final class NotificationCounter: @unchecked Sendable {
  let store: EKEventStore
  private let lock = NSLock()
  private var value = 0
  private var token: (any NSObjectProtocol)?

  init(_ store: EKEventStore) {
    self.store = store
    token = NotificationCenter.default.addObserver(
      forName: .EKEventStoreChanged, object: store, queue: nil
    ) { [weak self] _ in
      guard let self else { return }
      self.lock.withLock { self.value += 1 }
    }
  }

  deinit { token.map(NotificationCenter.default.removeObserver) }

  private var count: Int { lock.withLock { value } }

  /// The notifications once none has come for 400 ms (the watcher's two tenths of a second,
  /// twice), after the first or after 10 s without any.
  func settled() -> Int {
    let start = Date()
    var last = (count: count, at: Date())
    while Date().timeIntervalSince(start) < 10 {
      usleep(10_000)
      let now = count
      if now != last.count {
        last = (now, Date())
      } else if now > 0, Date().timeIntervalSince(last.at) >= 0.4 {
        break
      }
    }
    return count
  }
}
