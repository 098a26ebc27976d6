import ArgumentParser
import Foundation
import OpenEventKit

/// `ekbench store`: the calendar store's speed on a database of its own in a temporary folder:
/// saving in a batch and one by one, one-month queries on a large store, memory while
/// enumerating 50 years, and an app's cold open to its first month (`ekbench-cold-open`).
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
    help: ArgumentHelp(
      "Processes timed for cold-open and its peer, after two not counted.", valueName: "n"))
  var coldOpenRuns = 20

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
      // December 2026, as ekctl reads it above: the singles overlapping the month and the
      // series that may repeat into it, unexpanded.
      let (from, to) = (1_796_083_200, 1_798_761_600)
      let (shellMedian, shellLines) = try sqliteShellMillis(
        database,
        "SELECT id, title, startKey, recurrenceRules FROM item WHERE kind = 0"
          + " AND startKey < \(to) AND (endKey > \(from) OR (recurrenceRules IS NOT NULL"
          + " AND (seriesEndKey IS NULL OR seriesEndKey > \(from)))) ORDER BY startKey",
        runs: 20)
      report(
        "sqlite3-shell", ["millis": shellMedian, "lines": Double(shellLines)],
        "whole process, the sqlite3 shell reading the same month's rows; median of 20")
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
    try StoreBenchmark.allowAccess(
      in: queryFolder, for: [PrivacySettings.currentAppIdentifier, StoreBenchmark.coldOpenProgram])
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
      let (millis, openMillis, events) = try coldOpenMillis(queryFolder, checkedAgainst: store)
      report(
        "cold-open", ["millis": millis, "openMillis": openMillis, "events": Double(events)],
        "whole process, `ekbench-cold-open` (an app linking OpenEventKit) from spawn to exit;"
          + " openMillis: EKEventStore(folder:) to the month's events inside it;"
          + " median of \(coldOpenRuns)")
      // The month's candidate rows as bench_sqlite's cold-open reads them (and the store's
      // window query): the singles by their start index, every series that began before the
      // month's end, through the same indexes; nothing expanded.
      let (from, to) = StoreBenchmark.coldOpenMonth
      let (shellMedian, rows) = try sqliteShellMillis(
        queryFolder.appendingPathComponent("Calendar.sqlite"),
        "SELECT * FROM item INDEXED BY item_single_start WHERE kind = 0"
          + " AND recurrenceRules IS NULL AND startKey >= \(from - 86_400) AND startKey < \(to)"
          + " AND endKey > \(from); SELECT * FROM item INDEXED BY item_series_start"
          + " WHERE kind = 0 AND recurrenceRules IS NOT NULL AND startKey < \(to)",
        runs: coldOpenRuns)
      report(
        "cold-open-sqlite3", ["millis": shellMedian, "rows": Double(rows)],
        "whole process, the sqlite3 shell reading the same month's candidate rows"
          + " (no expansion); median of \(coldOpenRuns)")
    }
  }

  /// Gives the apps named `apps` (ekbench by default) full access to the store in `folder`,
  /// as the person would.
  static func allowAccess(
    in folder: URL, for apps: [String] = [PrivacySettings.currentAppIdentifier]
  ) throws {
    let settings = try PrivacySettings(folder: folder)
    for app in apps {
      for entity in [EKEntityType.event, .reminder] {
        try settings.set(.fullAccess, for: app, entityType: entity)
      }
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

  /// The program `cold-open` spawns, whose name is also the app identifier its store asks
  /// access as (it has no Info.plist).
  static let coldOpenProgram = "ekbench-cold-open"

  /// The month `cold-open` fetches, in seconds since 1970: 30 days from 2025-03-03, where every
  /// series of the query store has begun (8,881 events at the default size).
  static let coldOpenMonth = (from: 1_741_000_000, to: 1_741_000_000 + 30 * 86_400)

  /// An app's cold open to its first month, timed as whole processes of `ekbench-cold-open`:
  /// the median milliseconds from spawn to exit, the median of the time each process reports
  /// from `EKEventStore(folder:)` to the month's events, and how many events it found (the
  /// same in every run, and what `store`, ekbench's own on that folder, finds: a child refused
  /// access, or opening another store, would time an empty month). The program is the one
  /// built beside this ekbench's real file, so that a symlinked `.build/release` still finds
  /// it.
  private func coldOpenMillis(_ folder: URL, checkedAgainst store: EKEventStore) throws
    -> (Double, Double, Int)
  {
    guard let real = realpath("/proc/self/exe", nil) else {
      throw ValidationError("cannot find ekbench's own file (/proc/self/exe)")
    }
    let program = URL(fileURLWithPath: String(cString: real)).deletingLastPathComponent()
      .appendingPathComponent(StoreBenchmark.coldOpenProgram)
    free(real)
    guard FileManager.default.isExecutableFile(atPath: program.path) else {
      throw ValidationError(
        "no \(StoreBenchmark.coldOpenProgram) beside ekbench: build it with"
          + " `swift build -c release --product \(StoreBenchmark.coldOpenProgram)`")
    }
    let month = StoreBenchmark.coldOpenMonth
    let runs = try StoreBenchmark.wholeProcessRuns(
      [program.path, folder.path, String(month.from), String(month.to)], runs: coldOpenRuns)
    var opens: [Double] = []
    var counts: Set<Int> = []
    for run in runs {
      let fields = run.output.split(whereSeparator: \.isWhitespace)
      guard fields.count == 2, let count = Int(fields[0]), let open = Double(fields[1]) else {
        throw ValidationError("\(program.path) printed \"\(run.output)\", not a count and a time")
      }
      counts.insert(count)
      opens.append(open)
    }
    let expected = store.events(
      matching: store.predicateForEvents(
        withStart: Date(timeIntervalSince1970: TimeInterval(month.from)),
        end: Date(timeIntervalSince1970: TimeInterval(month.to)), calendars: nil)
    ).count
    guard counts == [expected] else {
      throw ValidationError(
        "\(program.path) found \(counts.sorted()) events where ekbench finds \(expected):"
          + " it did not read the month as an app with full access")
    }
    return (StoreBenchmark.median(runs.map(\.millis)), StoreBenchmark.median(opens), expected)
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
    return try wholeProcessMillis(
      [
        ekctl.path, "events", "--db", database.path, "--from", "2026-12-01", "--to",
        "2027-01-01",
      ], runs: 20)
  }

  /// A month's rows read by the `sqlite3` shell (`sql`, read-only) as whole processes: the
  /// peer of `ekctl-events` and `cold-open`. The median milliseconds of `runs` runs, and the
  /// rows it printed.
  private func sqliteShellMillis(_ database: URL, _ sql: String, runs: Int) throws
    -> (Double, Int)
  {
    let shell = try Peers.sqliteShell()
    return try wholeProcessMillis([shell.path, "-readonly", database.path, sql], runs: runs)
  }

  /// The median wall time of `runs` runs of a program (after two not counted) and the lines
  /// its last run printed.
  private func wholeProcessMillis(_ arguments: [String], runs: Int) throws -> (Double, Int) {
    let timed = try StoreBenchmark.wholeProcessRuns(arguments, runs: runs)
    let lines = timed.last.map { $0.output.split(separator: "\n").count } ?? 0
    return (StoreBenchmark.median(timed.map(\.millis)), lines)
  }

  /// The wall time of `runs` runs of a program (after two not counted, which bring it into
  /// the page cache), each a new process started with posix_spawn (Foundation's Process costs
  /// more to start than ekctl takes) and waited for, and what each printed. A run that fails
  /// or is killed stops the measurement: its time would not be the program's work.
  static func wholeProcessRuns(_ arguments: [String], runs: Int) throws
    -> [(millis: Double, output: String)]
  {
    guard runs > 0 else { throw ValidationError("a measurement needs at least one run") }
    let output = FileManager.default.temporaryDirectory
      .appendingPathComponent("ekbench-output-\(getpid()).txt")
    defer { try? FileManager.default.removeItem(at: output) }
    var timed: [(millis: Double, output: String)] = []
    for run in 0..<(runs + 2) {
      var actions = posix_spawn_file_actions_t()
      posix_spawn_file_actions_init(&actions)
      defer { posix_spawn_file_actions_destroy(&actions) }
      posix_spawn_file_actions_addopen(
        &actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
      var argv = arguments.map { strdup($0) } + [nil]
      defer { for pointer in argv { free(pointer) } }
      var pid: pid_t = 0
      var status: Int32 = 0
      var spawned: Int32 = 0
      let elapsed = seconds {
        spawned = posix_spawn(&pid, arguments[0], &actions, nil, &argv, environ)
        if spawned == 0 { waitpid(pid, &status, 0) }
      }
      guard spawned == 0 else {
        throw ValidationError("cannot start \(arguments[0]): \(String(cString: strerror(spawned)))")
      }
      guard status == 0 else {
        throw ValidationError("\(arguments[0]) failed (wait status \(status))")
      }
      if run >= 2 {
        timed.append((elapsed * 1000, try String(contentsOf: output, encoding: .utf8)))
      }
    }
    return timed
  }

  /// The middle value of `values` (the mean of the two middle ones for an even count).
  static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }

  private func report(_ name: String, _ figures: [String: Double], _ note: String) {
    printFigures(json: json, name, figures, note)
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
