import ArgumentParser
import Foundation
import OpenEventKit

/// `ekbench alarms`: how fast the alarm agent finds the next alarm in a large store, and what
/// it costs while it waits.
struct AlarmBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "alarms",
    abstract: "Time finding the next alarm in a large store, and the agent's idle CPU.")

  @Flag(help: "Print one JSON object per line instead of a table.")
  var json = false

  @Option(help: "Single events with an alarm, spread over 30 years.")
  var singles = 100_000

  @Option(help: "Unbounded series with an alarm, a quarter each daily to yearly.")
  var series = 1_000

  @Option(help: "How long to watch the idle agent, in seconds.")
  var idleSeconds = 10

  func run() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ekbench-alarms-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = try StoreBenchmark.fill(
      folder.appendingPathComponent("large"), singles: singles, series: series, alarms: true)

    // The next alarm after 100 moments spread over the store's 30 years: the window a round
    // of the agent reads (a day ahead), and its first firing.
    var random = SplitMix(seed: 23)
    let first = 820_454_400.0  // 1996-01-01
    let span = 30 * 365.25 * 86_400
    var times: [Double] = []
    var found = 0
    for _ in 0..<100 {
      let now = Date(timeIntervalSince1970: (first + random.unit() * span).rounded())
      var next: AlarmFiring?
      times.append(
        seconds {
          next = store.alarmFirings(from: now, to: now.addingTimeInterval(86_400)).first
        } * 1000)
      if next != nil { found += 1 }
    }
    times.sort()
    // The peer, in the same run: a day's events(matching:) at the same moments, the fetch an
    // app makes of a day.
    var fetches: [Double] = []
    random = SplitMix(seed: 23)
    for _ in 0..<100 {
      let now = Date(timeIntervalSince1970: (first + random.unit() * span).rounded())
      let day = store.predicateForEvents(
        withStart: now, end: now.addingTimeInterval(86_400), calendars: nil)
      fetches.append(seconds { blackHole(store.events(matching: day)) } * 1000)
    }
    fetches.sort()
    printFigures(
      json: json, "day-fetch", ["millis": (fetches[49] + fetches[50]) / 2],
      "peer: events(matching:) of the same 100 days")
    printFigures(
      json: json, "next-alarm",
      ["millis": (times[49] + times[50]) / 2, "p90Millis": times[89], "found": Double(found)],
      "median of 100 moments; \(singles) singles + \(series) series, each with an alarm")

    // A round of the agent (the ledger's transaction included) at those moments.
    let ledger = try AlarmLedger(for: store)
    var rounds: [Double] = []
    for _ in 0..<20 {
      let now = Date(timeIntervalSince1970: (first + random.unit() * span).rounded())
      rounds.append(seconds { blackHole(try? ledger.round(of: store, at: now, grace: 900)) } * 1000)
    }
    rounds.sort()
    printFigures(
      json: json, "agent-round", ["millis": (rounds[9] + rounds[10]) / 2],
      "median of 20 rounds of AlarmLedger.round, each a day ahead")

    // The agent waiting for an alarm a day away: the processor time it uses meanwhile.
    let quiet = try quietStore(folder.appendingPathComponent("quiet"))
    let agent = try AlarmAgent(store: quiet)
    let stop = DispatchSemaphore(value: 0)
    let watching = Thread {
      try? agent.run(until: { stop.wait(timeout: .now()) == .success }) { _ in }
    }
    watching.start()
    Thread.sleep(forTimeInterval: 1)  // its first round
    let before = processorSeconds()
    Thread.sleep(forTimeInterval: TimeInterval(idleSeconds))
    let used = processorSeconds() - before
    stop.signal()
    agent.wake()
    printFigures(
      json: json, "agent-idle", ["cpuMillis": used * 1000, "seconds": Double(idleSeconds)],
      "processor time of this process while the agent waits for an alarm a day away")
  }

  /// A store whose one alarm fires a day from now.
  private func quietStore(_ folder: URL) throws -> EKEventStore {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try StoreBenchmark.allowAccess(in: folder)
    let store = EKEventStore(folder: folder)
    let event = EKEvent(eventStore: store)
    event.calendar = store.defaultCalendarForNewEvents
    event.title = "Tomorrow"
    event.startDate = Date().addingTimeInterval(86_400)
    event.endDate = event.startDate.addingTimeInterval(3600)
    event.addAlarm(EKAlarm(relativeOffset: -600))
    try store.save(event, span: .thisEvent)
    return store
  }
}
