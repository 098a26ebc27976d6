import ArgumentParser
import Foundation
import OpenEventKit

/// `ekbench store`: the calendar store's speed on a database of its own in a temporary folder:
/// saving in a batch and one by one, one-month queries on a large store, memory while
/// enumerating 50 years, and opening a store in a new process.
struct StoreBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "store",
    abstract: "Time saves, month queries, enumeration and opening of the calendar store.")

  @Flag(help: "Print one JSON object per line instead of a table.")
  var json = false

  @Option(help: "Single events in the query store, spread over 30 years.")
  var singles = 100_000

  @Option(help: "Unbounded series in the query store, a quarter each daily to yearly.")
  var series = 1_000

  @Option(help: "The folder to build the databases in (default: a new temporary folder).")
  var folder: String?

  @Option(
    help: ArgumentHelp(
      "The ekctl to time for ekctl-events (default: the one built beside ekbench).",
      valueName: "path"))
  var ekctl: String?

  @Option(
    name: .customLong("only"),
    help:
      """
      Run only these measurements (batched-save, single-save, month-query, query-after-save, \
      enumerate, cold-open, ekctl-events).
      """)
  var selected: [String] = []

  private func wants(_ name: String) -> Bool { selected.isEmpty || selected.contains(name) }

  func run() throws {
    let root =
      folder.map { URL(fileURLWithPath: $0) }
      ?? FileManager.default.temporaryDirectory.appendingPathComponent(
        "ekbench-store-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    defer { if folder == nil { try? FileManager.default.removeItem(at: root) } }

    if wants("batched-save") {
      let (best, median) = try repeatedSaveRate(
        root, "batched", count: 10_000, batch: true, runs: 5)
      report(
        "batched-save", ["perSecond": best.rounded(), "medianPerSecond": median.rounded()],
        "10,000 events, one commit(); best and median of 5 new databases")
    }
    if wants("single-save") {
      let (best, median) = try repeatedSaveRate(root, "single", count: 1_000, batch: false, runs: 3)
      report(
        "single-save", ["perSecond": best.rounded(), "medianPerSecond": median.rounded()],
        "1,000 events, commit: true each; best and median of 3")
    }
    if wants("ekctl-events") {
      let folder = root.appendingPathComponent("fresh")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let database = folder.appendingPathComponent("Calendar.sqlite")
      _ = try EKEventStore(ownerOf: database, create: true)
      let (median, lines) = try ekctlEventsMillis(database)
      report(
        "ekctl-events", ["millis": median, "lines": Double(lines)],
        "whole process, `ekctl events` for December 2026 of a new store; median of 20")
      if let (median, lines) = try sqliteShellMillis(database) {
        report(
          "sqlite3-shell", ["millis": median, "lines": Double(lines)],
          "whole process, the sqlite3 shell reading the same month's rows; median of 20")
      }
    }
    guard
      wants("month-query") || wants("query-after-save") || wants("enumerate")
        || wants("cold-open")
    else { return }
    let queryFolder = root.appendingPathComponent("query")
    // A query store kept from an earlier run in --folder is used again as it is.
    if !FileManager.default.fileExists(
      atPath: queryFolder.appendingPathComponent("Calendar.sqlite").path)
    {
      _ = try StoreBenchmark.fill(queryFolder, singles: singles, series: series, alarms: false)
    }
    try StoreBenchmark.allowAccess(in: queryFolder)
    let store = EKEventStore(folder: queryFolder)
    if wants("month-query") {
      let (median, occurrences) = monthQueries(store)
      report(
        "month-query", ["millis": median, "events": Double(occurrences)],
        "median of 100 months; \(singles) singles + \(series) series")
    }
    if wants("query-after-save") {
      let (median, occurrences) = try queriesAfterSaves(store)
      report(
        "query-after-save", ["millis": median, "events": Double(occurrences)],
        "a month's events right after saving one event there (commit: true); median of 20")
    }
    for years in [5, 50] where wants("enumerate") {
      let (growth, count) = enumerationMemory(store, years: years)
      report(
        years == 50 ? "enumerate-50y" : "enumerate-\(years)y",
        ["peakMiB": growth, "events": Double(count)], "peak memory growth, \(count) events")
    }
    if wants("cold-open") {
      let coldOpen = try coldOpenMillis(queryFolder)
      report(
        "cold-open", ["millis": coldOpen],
        "new process: EKEventStore() to first result; median of 11 processes")
    }
  }

  /// Gives ekbench full access to the store in `folder`, as the person would.
  static func allowAccess(in folder: URL) throws {
    let settings = try PrivacySettings(folder: folder)
    for entity in [EKEntityType.event, .reminder] {
      try settings.set(.fullAccess, for: PrivacySettings.currentAppIdentifier, entityType: entity)
    }
  }

  // MARK: Saving

  /// The best and the median rate of `runs` runs, each on a new database. Saves wait on the
  /// disk (each commit writes the log; under synchronous=NORMAL only checkpoints sync it), whose
  /// speed on a shared machine varies from run to run.
  private func repeatedSaveRate(_ root: URL, _ name: String, count: Int, batch: Bool, runs: Int)
    throws -> (best: Double, median: Double)
  {
    var rates: [Double] = []
    for run in 0..<runs {
      rates.append(
        try saveRate(root.appendingPathComponent("\(name)-\(run)"), count: count, batch: batch))
    }
    rates.sort()
    return (rates.last ?? 0, rates[rates.count / 2])
  }

  /// Events per second saved into a new database, staged and committed once or one by one.
  private func saveRate(_ folder: URL, count: Int, batch: Bool) throws -> Double {
    try StoreBenchmark.allowAccess(in: folder)
    let store = EKEventStore(folder: folder)
    guard let calendar = store.defaultCalendarForNewEvents else {
      throw ValidationError("the store at \(folder.path) has no calendar")
    }
    let start = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01
    let elapsed = try seconds {
      for index in 0..<count {
        let event = EKEvent(eventStore: store)
        event.calendar = calendar
        event.title = "Event \(index)"
        event.startDate = start.addingTimeInterval(TimeInterval(index * 5400))
        event.endDate = event.startDate.addingTimeInterval(3600)
        try store.save(event, span: .thisEvent, commit: !batch)
      }
      if batch { try store.commit() }
    }
    return Double(count) / elapsed
  }

  // MARK: Queries

  /// The query store: `singles` one-hour events spread over 1996–2025 and `series` unbounded
  /// series (a quarter each daily, weekly, monthly, yearly) at random starts; with `alarms`,
  /// each single has an alarm 15 minutes before and each series one 10 minutes before
  /// (`ekbench alarms`). The same seed makes the same store every run.
  static func fill(_ folder: URL, singles: Int, series: Int, alarms: Bool) throws -> EKEventStore {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try StoreBenchmark.allowAccess(in: folder)
    let store = EKEventStore(folder: folder)
    guard let calendar = store.defaultCalendarForNewEvents else {
      throw ValidationError("the store at \(folder.path) has no calendar")
    }
    var random = SplitMix(seed: 2026)
    let first = 820_454_400.0  // 1996-01-01
    let span = 30 * 365.25 * 86_400
    for index in 0..<singles {
      let event = EKEvent(eventStore: store)
      event.calendar = calendar
      event.title = "Single \(index)"
      event.startDate = Date(timeIntervalSince1970: (first + random.unit() * span).rounded())
      event.endDate = event.startDate.addingTimeInterval(3600)
      if alarms { event.addAlarm(EKAlarm(relativeOffset: -900)) }
      try store.save(event, span: .thisEvent, commit: false)
      if index % 20_000 == 19_999 { try store.commit() }
    }
    let frequencies: [EKRecurrenceFrequency] = [.daily, .weekly, .monthly, .yearly]
    for index in 0..<series {
      let event = EKEvent(eventStore: store)
      event.calendar = calendar
      event.title = "Series \(index)"
      event.startDate = Date(timeIntervalSince1970: (first + random.unit() * span).rounded())
      event.endDate = event.startDate.addingTimeInterval(1800)
      event.recurrenceRules = [
        EKRecurrenceRule(
          recurrenceWith: frequencies[index % 4], interval: 1, end: nil)
      ]
      if alarms { event.addAlarm(EKAlarm(relativeOffset: -600)) }
      try store.save(event, span: .futureEvents, commit: false)
    }
    try store.commit()
    return store
  }

  /// The median time of one-month `events(matching:)` over 100 months of 1996–2025, and the
  /// mean number of events a month returns.
  private func monthQueries(_ store: EKEventStore) -> (Double, Int) {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    var times: [Double] = []
    var total = 0
    for index in 0..<100 {
      let month = calendar.date(
        from: DateComponents(year: 1996 + index * 30 / 100, month: index % 12 + 1, day: 1))!
      let next = calendar.date(byAdding: .month, value: 1, to: month)!
      let predicate = store.predicateForEvents(withStart: month, end: next, calendars: nil)
      var events: [EKEvent] = []
      times.append(seconds { events = store.events(matching: predicate) } * 1000)
      total += events.count
    }
    times.sort()
    return ((times[49] + times[50]) / 2, total / 100)
  }

  /// The median time of a one-month `events(matching:)` right after an event saved in that
  /// month with `commit: true`, as an app shows its month again after an edit; each event is
  /// removed after its query, so the store is left as it was.
  private func queriesAfterSaves(_ store: EKEventStore) throws -> (Double, Int) {
    guard let calendar = store.defaultCalendarForNewEvents else {
      throw ValidationError("the query store has no calendar")
    }
    let month = Date(timeIntervalSince1970: 1_740_787_200)  // 2025-03-01
    let predicate = store.predicateForEvents(
      withStart: month, end: month.addingTimeInterval(31 * 86_400), calendars: nil)
    _ = store.events(matching: predicate)
    var times: [Double] = []
    var total = 0
    for index in 0..<20 {
      let event = EKEvent(eventStore: store)
      event.calendar = calendar
      event.title = "Edited \(index)"
      event.startDate = month.addingTimeInterval(TimeInterval(index * 86_400 + 36_000))
      event.endDate = event.startDate.addingTimeInterval(3600)
      try store.save(event, span: .thisEvent, commit: true)
      var events: [EKEvent] = []
      times.append(seconds { events = store.events(matching: predicate) } * 1000)
      total += events.count
      try store.remove(event, span: .thisEvent, commit: true)
    }
    times.sort()
    return ((times[9] + times[10]) / 2, total / 20)
  }

  /// The peak resident memory growth in MiB while enumerating `years` years from 1996.
  private func enumerationMemory(_ store: EKEventStore, years: Int) -> (Double, Int) {
    let start = Date(timeIntervalSince1970: 820_454_400)
    let end = start.addingTimeInterval(Double(years) * 365.25 * 86_400)
    let predicate = store.predicateForEvents(withStart: start, end: end, calendars: nil)
    resetPeakMemory()
    let before = residentMemory().current
    var count = 0
    store.enumerateEvents(matching: predicate) { event, _ in
      count += 1
      blackHole(event)
    }
    return (Double(max(0, residentMemory().peak - before)) / 1_048_576, count)
  }

  // MARK: Opening

  /// Milliseconds from `EKEventStore()` to the first month's events, in a new process: the
  /// median of 11 (one process gives one figure, and a process start varies a lot).
  private func coldOpenMillis(_ folder: URL) throws -> Double {
    var times: [Double] = []
    for _ in 0..<11 {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
      process.arguments = ["cold-open", folder.path]
      let output = Pipe()
      process.standardOutput = output
      try process.run()
      let data = output.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      guard
        let millis = Double(
          String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
      else { throw ValidationError("cold-open printed no time") }
      times.append(millis)
    }
    return times.sorted()[times.count / 2]
  }

  /// The median wall time of 20 runs of `ekctl events` for a month (after two not counted),
  /// each a new process, and the lines it printed: what a person waits for at the prompt.
  /// Uses the `ekctl` that `--ekctl` names (an installed one, say), else the one built beside
  /// this `ekbench` (`swift build -c release --product ekctl`).
  private func ekctlEventsMillis(_ database: URL) throws -> (Double, Int) {
    let ekctl =
      self.ekctl.map { URL(fileURLWithPath: $0) }
      ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("ekctl")
    guard FileManager.default.isExecutableFile(atPath: ekctl.path) else {
      throw ValidationError(
        self.ekctl == nil
          ? "no ekctl beside ekbench: build it with `swift build -c release --product ekctl`"
          : "\(ekctl.path) is not an executable")
    }
    return try wholeProcessMillis([
      ekctl.path, "events", "--db", database.path, "--from", "2026-12-01", "--to", "2027-01-01",
    ])
  }

  /// The same month's rows read by the `sqlite3` shell, when it is installed: the peer.
  private func sqliteShellMillis(_ database: URL) throws -> (Double, Int)? {
    let shell = ["/usr/bin/sqlite3", "/bin/sqlite3"].first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
    guard let shell else { return nil }
    return try wholeProcessMillis([
      shell, "-readonly", database.path,
      // The singles overlapping the month and the series that may repeat into it, unexpanded.
      "SELECT id, title, startKey, recurrenceRules FROM item WHERE kind = 0"
        + " AND startKey < 1798761600 AND (endKey > 1796083200 OR (recurrenceRules IS NOT NULL"
        + " AND (seriesEndKey IS NULL OR seriesEndKey > 1796083200))) ORDER BY startKey",
    ])
  }

  /// The median wall time of 20 runs of a program (after two not counted), each a new
  /// process started with posix_spawn (Foundation's Process costs more to start than ekctl
  /// takes), and the lines it printed.
  private func wholeProcessMillis(_ arguments: [String]) throws -> (Double, Int) {
    let output = FileManager.default.temporaryDirectory
      .appendingPathComponent("ekbench-output-\(getpid()).txt")
    defer { try? FileManager.default.removeItem(at: output) }
    var times: [Double] = []
    for run in 0..<22 {
      var actions = posix_spawn_file_actions_t()
      posix_spawn_file_actions_init(&actions)
      defer { posix_spawn_file_actions_destroy(&actions) }
      posix_spawn_file_actions_addopen(
        &actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
      var argv = arguments.map { strdup($0) } + [nil]
      defer { for pointer in argv { free(pointer) } }
      var pid: pid_t = 0
      var status: Int32 = 0
      let elapsed = seconds {
        if posix_spawn(&pid, arguments[0], &actions, nil, &argv, environ) == 0 {
          waitpid(pid, &status, 0)
        }
      }
      guard pid != 0, status == 0 else {
        throw ValidationError("\(arguments[0]) failed (wait status \(status))")
      }
      if run >= 2 { times.append(elapsed * 1000) }
    }
    times.sort()
    let lines = (try String(contentsOf: output, encoding: .utf8)).split(separator: "\n").count
    return ((times[9] + times[10]) / 2, lines)
  }

  private func report(_ name: String, _ figures: [String: Double], _ note: String) {
    printFigures(json: json, name, figures, note)
  }
}

/// `ekbench cold-open FOLDER` (internal to `ekbench store`): opens a store and fetches a month,
/// printing the milliseconds it took.
struct ColdOpen: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "cold-open", abstract: "Used by `ekbench store`.", shouldDisplay: false)

  @Argument var folder: String

  func run() throws {
    let start = Date(timeIntervalSince1970: 1_741_000_000)
    var events: [EKEvent] = []
    var store: EKEventStore?
    let elapsed = seconds {
      let opened = EKEventStore(folder: URL(fileURLWithPath: folder))
      let predicate = opened.predicateForEvents(
        withStart: start, end: start.addingTimeInterval(30 * 86_400), calendars: nil)
      events = opened.events(matching: predicate)
      // Kept past the clock: closing the store is not part of opening it.
      store = opened
    }
    blackHole(events)
    withExtendedLifetime(store) {}
    print(String(format: "%.3f", elapsed * 1000))
  }
}

/// A small seeded generator, so that every run builds the same store.
struct SplitMix {
  var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in [0, 1).
  mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
