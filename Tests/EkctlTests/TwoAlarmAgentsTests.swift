import Foundation
import TestSupport
import Testing

extension AlarmWatchTests {
  /// Two agents at once (`ekctl alarms --watch`, two processes) on one store and one clock:
  /// each step of the clock wakes both together, and each alarm is delivered once between
  /// them, never by both (the ledger decides each round in one write transaction). Nine
  /// alarms over three steps, three due at each; then a sentinel alarm a step later. Before
  /// counting, each agent has said (its `org.openeventkit.alarms` debug line) that its round
  /// at the sentinel's time is handed over, so each has delivered everything it decided
  /// before: a second delivery of any alarm would be in its output by then.
  @Test func twoAgentsAtOnceDeliverEachAlarmOnce() throws {
    let steps = ["2026-03-02T09:00:00Z", "2026-03-02T09:10:00Z", "2026-03-02T09:20:00Z"]
    var events: [(String, String, String, String)] = []
    for (step, time) in steps.enumerated() {
      let start = time.replacingOccurrences(of: "-", with: "").replacingOccurrences(
        of: ":", with: "")
      for index in 0..<3 {
        events.append(("due-\(step)-\(index)", "Due \(step)-\(index)", start, ":PT0S"))
      }
    }
    let sentinelTime = "2026-03-02T09:30:00Z"
    events.append(("sentinel", "Sentinel", "20260302T093000Z", ":PT0S"))
    try importEvents(events)
    try setClock("2026-03-02T08:00:00Z")

    let agents = try (0..<2).map { _ in
      try SampleRun(
        executable: "ekctl",
        arguments: ["alarms", "--watch", "--no-notify", "--clock", clock.path],
        home: home,
        environment: ["DBUS_SESSION_BUS_ADDRESS": "", "OPENEVENTKIT_LOG": "debug"])
    }
    defer { for agent in agents { _ = agent.stop() } }
    for agent in agents { try agent.wait(for: "(Ctrl-C to stop)") }
    /// How many times `title` was delivered, by each agent.
    let deliveries = { (title: String) in
      agents.map { $0.output.components(separatedBy: "  \(title)  [Home]").count - 1 }
    }
    /// Waits until `title` has been delivered, by either agent.
    let waitFor = { (title: String) throws in
      let deadline = Date().addingTimeInterval(30)
      while deliveries(title).reduce(0, +) == 0 {
        guard Date() < deadline else {
          Issue.record("\(title) never delivered:\n\(agents.map(\.output))")
          return
        }
        Thread.sleep(forTimeInterval: 0.02)
      }
    }
    for (step, time) in steps.enumerated() {
      let moved = Date()
      try setClock(time)
      for index in 0..<3 { try waitFor("Due \(step)-\(index)") }
      print("step \(time): delivered in \(Date().timeIntervalSince(moved)) s")
    }
    try setClock(sentinelTime)
    try waitFor("Sentinel")
    for agent in agents {
      try agent.wait(for: "round at \(sentinelTime): ")
    }

    let titles = events.map(\.1)
    let counts = titles.map(deliveries)
    for (title, count) in zip(titles, counts) {
      #expect(count.reduce(0, +) == 1, "\(title) delivered \(count):\n\(agents.map(\.output))")
    }
    print(
      "two agents: \(counts.map { $0[0] }.reduce(0, +)) and \(counts.map { $0[1] }.reduce(0, +)) "
        + "of \(titles.count) alarms delivered")
  }
}
