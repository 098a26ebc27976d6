import Foundation
import TestSupport
import Testing

/// `ekctl alarms --watch`, the agent, as a separate process on a store of its own: on a clock
/// the test moves (a file the agent reads, rewritten to move its time), so that no test waits
/// for real minutes, and once on the real clock.
@Suite struct AlarmWatchTests {
  let home: TemporaryHome
  let clock: URL

  init() throws {
    home = try TemporaryHome()
    clock = home.url.appendingPathComponent("clock")
  }

  /// An .ics of events with one display alarm each: (UID, title, start, TRIGGER).
  static func file(_ events: [(String, String, String, String)]) -> String {
    var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//tests//EN", "X-WR-CALNAME:Home"]
    for (uid, title, start, trigger) in events {
      lines += [
        "BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20260101T000000Z", "DTSTART:\(start)",
        "DURATION:PT30M", "SUMMARY:\(title)", "BEGIN:VALARM", "ACTION:DISPLAY",
        "DESCRIPTION:\(title)", "TRIGGER\(trigger)", "END:VALARM", "END:VEVENT",
      ]
    }
    return (lines + ["END:VCALENDAR", ""]).joined(separator: "\r\n")
  }

  func importEvents(_ events: [(String, String, String, String)]) throws {
    let file = home.url.appendingPathComponent("events-\(UUID().uuidString).ics")
    try Data(Self.file(events).utf8).write(to: file)
    let result = try home.ekctl(["import", file.path])
    #expect(result.status == 0, "\(result.output)")
  }

  /// Sets the agent's time (an atomic replace, as an editor saves).
  func setClock(_ time: String) throws {
    try Data((time + "\n").utf8).write(to: clock, options: .atomic)
  }

  /// The agent on the test's clock; without a session bus unless given one. With `rounds`, its
  /// debug line after each round ("round at TIME: …", `org.openeventkit.alarms`) is the
  /// sentinel a test waits for before it says that nothing was delivered:
  /// ``roundDone(_:at:count:)``.
  func agent(_ extra: [String] = [], bus: String = "", rounds: Bool = false) throws -> SampleRun {
    let run = try SampleRun(
      executable: "ekctl", arguments: ["alarms", "--watch", "--clock", clock.path] + extra,
      home: home,
      environment: ["DBUS_SESSION_BUS_ADDRESS": bus]
        .merging(rounds ? ["OPENEVENTKIT_LOG": "debug"] : [:]) { $1 })
    try run.wait(for: "(Ctrl-C to stop)")
    return run
  }

  /// Waits until `run`'s agent has finished a round at `time` (`count` of them): whatever
  /// that round was to deliver has been written by then.
  func roundDone(_ run: SampleRun, at time: String, count: Int = 1) throws {
    try run.wait(for: "round at \(time): ", count: count)
  }

  @Test func anAlarmIsDeliveredWhenItsTimeComesAndNeverTwice() throws {
    try importEvents([("dentist", "Dentist", "20260302T100000Z", ":-PT15M")])
    try setClock("2026-03-02T09:00:00Z")
    let exec = home.url.appendingPathComponent("exec.json")
    let run = try agent(["--exec", "cat >> '\(exec.path)'"], rounds: true)
    defer { run.stop() }
    try roundDone(run, at: "2026-03-02T09:00:00Z")
    #expect(!run.output.contains("alarm  "))
    try setClock("2026-03-02T09:45:00Z")
    try run.wait(for: "alarm  2026-03-02T10:45:00  Dentist  [Home]  15 minutes before")
    // --exec got the firing as one JSON object.
    let deadline = Date().addingTimeInterval(10)
    while (try? String(contentsOf: exec, encoding: .utf8))?.hasSuffix("}\n") != true,
      Date() < deadline
    {
      Thread.sleep(forTimeInterval: 0.05)
    }
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: exec)) as? [String: Any])
    #expect(object["delivery"] as? String == "alarm")
    #expect(object["title"] as? String == "Dentist")
    #expect(object["fireDate"] as? String == "2026-03-02T09:45:00Z")
    // A later wake, and a restarted agent: nothing is delivered again.
    try setClock("2026-03-02T09:50:00Z")
    try roundDone(run, at: "2026-03-02T09:50:00Z")
    let first = run.stop()
    #expect(first.components(separatedBy: "alarm  ").count == 2, "\(first)")
    let again = try agent(rounds: true)
    defer { again.stop() }
    try roundDone(again, at: "2026-03-02T09:50:00Z")
    #expect(!again.output.contains("alarm  "), "\(again.output)")
  }

  @Test func alarmsMissedWhileNoAgentRanFireWithinTheGraceAndAreToldBeyond() throws {
    try importEvents([
      ("early", "Early call", "20260302T080000Z", ":-PT10M"),  // fires 07:50
      ("standup", "Stand-up", "20260302T090000Z", ":-PT10M"),  // fires 08:50
    ])
    try setClock("2026-03-02T07:00:00Z")
    try agent().stop()
    // The machine was off from 07:00 to 09:00.
    try setClock("2026-03-02T09:00:00Z")
    let run = try agent()
    defer { run.stop() }
    try run.wait(for: "alarm  2026-03-02T09:50:00  Stand-up")
    try run.wait(for: "missed  2026-03-02T08:50:00  Early call")
    #expect(!run.output.contains("alarm  2026-03-02T08:50:00  Early call"))
  }

  @Test func aSnoozeFromAnotherTerminalComesBackAndADismissalHolds() throws {
    try importEvents([
      ("ann", "Call Ann", "20260302T100000Z", ":PT0S"),
      ("bob", "Call Bob", "20260302T110000Z", ":PT0S"),
    ])
    try setClock("2026-03-02T10:00:00Z")
    let run = try agent(rounds: true)
    defer { run.stop() }
    try run.wait(for: "alarm  2026-03-02T11:00:00  Call Ann")
    let line = try #require(run.output.split(separator: "\n").first { $0.contains("Call Ann") })
    let ann = String(try #require(line.split(separator: " ").last))
    let snoozed = try home.ekctl(["alarms", "snooze", ann, "5", "--clock", clock.path])
    #expect(snoozed.status == 0 && snoozed.output.contains("Snoozed \"Call Ann\""))
    // Bob's is dismissed before it fires, by its identifier from the listing.
    let listing = try home.ekctl([
      "alarms", "--from", "2026-03-02T10:30:00Z", "--to", "2026-03-02T12:00:00Z",
    ])
    let bob = String(
      try #require(listing.output.split(separator: " ").last?.split(separator: "\n").first))
    #expect(try home.ekctl(["alarms", "dismiss", bob, "--clock", clock.path]).status == 0)
    try setClock("2026-03-02T10:05:00Z")
    try run.wait(for: "snoozed  2026-03-02T11:00:00  Call Ann")
    try setClock("2026-03-02T11:00:00Z")
    try roundDone(run, at: "2026-03-02T11:00:00Z")
    #expect(!run.output.contains("Call Bob"), "\(run.output)")
    let unknown = try home.ekctl(["alarms", "dismiss", "0123456789abcdef", "--clock", clock.path])
    #expect(unknown.status != 0 && unknown.output.contains("no alarm 0123456789abcdef fires"))
  }

  /// On the real clock: the agent sleeps until an alarm an hour away; another process moves
  /// it to two seconds from now; the agent wakes for the store's change and delivers it then.
  @Test func anEditFromAnotherProcessWakesTheAgent() throws {
    let start = Date().addingTimeInterval(3600)
    let format = ISO8601DateFormatter()
    format.formatOptions = [.withYear, .withMonth, .withDay, .withTime, .withTimeZone]
    let stamp = { (date: Date) in
      format.string(from: date).replacingOccurrences(of: "-", with: "")
        .replacingOccurrences(of: ":", with: "")
    }
    try importEvents([("flight", "Flight", stamp(start), ":-PT15M")])
    let run = try SampleRun(
      executable: "ekctl", arguments: ["alarms", "--watch"], home: home,
      environment: ["DBUS_SESSION_BUS_ADDRESS": ""])
    defer { run.stop() }
    try run.wait(for: "(Ctrl-C to stop)")
    let soon = Date().addingTimeInterval(2)
    try importEvents([
      ("flight", "Flight", stamp(start), ";VALUE=DATE-TIME:\(stamp(soon))")
    ])
    try run.wait(for: "alarm  ", timeout: 20)
    #expect(run.output.contains("Flight"))
  }

  /// On a private session bus, with a notification service of another D-Bus implementation
  /// (python's dbus-next): the alarm comes as a notification with a Show action, and invoking
  /// the action brings a second notification with what `ekctl show` says of the event.
  @Test func anAlarmIsADesktopNotificationWhoseShowActionTellsTheEvent() throws {
    try importEvents([("dentist", "Dentist", "20260302T100000Z", ":-PT15M")])
    try setClock("2026-03-02T09:45:00Z")
    let bus = try SessionBus()
    let service = try NotificationService(bus: bus)
    let run = try agent(bus: bus.address)
    defer { run.stop() }
    let first = try #require(service.waitForCalls(1).first)
    #expect(first.member == "Notify" && first.arguments.count == 8, "\(first.arguments)")
    #expect(first.arguments[0] as? String == "ekctl" && first.arguments[3] as? String == "Dentist")
    let body = first.arguments[4] as? String ?? ""
    #expect(body.hasPrefix("15 minutes before (starts ") && body.hasSuffix("\nHome"), "\(body)")
    #expect(first.arguments[5] as? [String] == ["show", "Show"])
    let hints = first.arguments[6] as? [String: [String: Any]]
    #expect(hints?["urgency"]?["signature"] as? String == "y")
    #expect(hints?["urgency"]?["value"] as? Int == 1)
    // The person clicks "Show" on notification 1. The service sent its reply to the Notify
    // call before it reads this, and the bus keeps a sender's order: the agent knows the id.
    service.invokeAction("show", ofNotification: 1)
    let shown = try #require(service.waitForCalls(2).last)
    #expect(shown.arguments[3] as? String == "ekctl show")
    #expect((shown.arguments[4] as? String)?.contains("Dentist") == true, "\(shown.arguments)")
    #expect(run.output.contains("alarm  "))
  }

  /// A notification service that takes the call and never answers: the alarm is delivered at
  /// the terminal at once, and the agent says once, at the call's timeout, that the
  /// notification failed.
  @Test func aNotificationServiceThatNeverAnswersDelaysNothing() throws {
    try importEvents([
      ("a", "First", "20260302T100000Z", ":-PT15M"), ("b", "Second", "20260302T100000Z", ":-PT10M"),
    ])
    try setClock("2026-03-02T09:50:00Z")
    let bus = try SessionBus()
    let service = try NotificationService(bus: bus, silent: true)
    let run = try agent(bus: bus.address)
    defer { run.stop() }
    try run.wait(for: "alarm  2026-03-02T10:50:00  Second")
    #expect(run.output.contains("alarm  2026-03-02T10:45:00  First"))
    #expect(try service.waitForCalls(2).map(\.member) == ["Notify", "Notify"])
    try run.wait(
      for: "a desktop notification failed: Notify failed: org.freedesktop.DBus.Error.NoReply",
      timeout: 60)
  }

  /// A session bus that accepts the connection and never answers: the agent gives it up after
  /// its timeout, says so, and delivers its alarms at the terminal.
  @Test func aSessionBusThatNeverAnswersDelaysTheAgentByItsTimeoutOnly() throws {
    try importEvents([("dentist", "Dentist", "20260302T100000Z", ":-PT15M")])
    try setClock("2026-03-02T09:45:00Z")
    let bus = try MuteBus()
    let started = ContinuousClock.now
    let run = try SampleRun(
      executable: "ekctl", arguments: ["alarms", "--watch", "--clock", clock.path], home: home,
      environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
    defer { run.stop() }
    try run.wait(for: "alarm  2026-03-02T10:45:00  Dentist", timeout: 60)
    print("AlarmWatchTests: the agent delivered after \(ContinuousClock.now - started)")
    #expect(run.output.contains("ekctl: no desktop notifications: Hello failed:"), "\(run.output)")
  }

  @Test func withoutANotificationServiceTheAgentSaysSoOnceAndGoesOn() async throws {
    try importEvents([
      ("a", "First", "20260302T100000Z", ":-PT15M"), ("b", "Second", "20260302T100000Z", ":-PT10M"),
    ])
    try setClock("2026-03-02T09:50:00Z")
    let bus = try SessionBus()
    // What goes over the bus, read back with dbus-monitor.
    let monitor = Process()
    monitor.executableURL = try Programs.path("dbus-monitor", package: "dbus-bin")
    monitor.arguments = ["--address", bus.address, "interface='org.freedesktop.Notifications'"]
    let seen = Pipe()
    monitor.standardOutput = seen
    monitor.standardError = FileHandle.nullDevice
    try monitor.run()
    defer { kill(monitor.processIdentifier, SIGKILL) }
    let lines = LineCollector(seen.fileHandleForReading)
    try await lines.wait { $0.contains { $0.contains("member=NameAcquired") } }
    let run = try agent(bus: bus.address, rounds: true)
    defer { run.stop() }
    try run.wait(for: "alarm  2026-03-02T10:50:00  Second")
    try run.wait(for: "a desktop notification failed")
    #expect(run.output.contains("alarm  2026-03-02T10:45:00  First"))
    try await lines.wait {
      $0.contains { $0.contains("member=Notify") } && $0.contains("   string \"Second\"")
    }
    #expect(lines.snapshot.contains("   string \"First\""))
    // Said once, not at every alarm: the round that delivered both has ended.
    try roundDone(run, at: "2026-03-02T09:50:00Z")
    #expect(
      run.output.components(separatedBy: "a desktop notification failed").count == 2,
      "\(run.output)")
  }

  /// Processor seconds a process has used (utime + stime of /proc/PID/stat).
  static func processorSeconds(of pid: Int32) throws -> Double {
    let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
    // The fields after the command's closing parenthesis; utime and stime are 14th and 15th.
    let fields = stat[stat.index(after: try #require(stat.lastIndex(of: ")")))...]
      .split(separator: " ")
    let ticks = (Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0)
    return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
  }

  /// Waiting for an alarm hours away, the agent sleeps: over three seconds it uses a small part
  /// of one (a busy loop would use them all), on the real clock and on a test's clock file
  /// beside the store's files.
  @Test func theAgentSleepsWhileItWaits() throws {
    let later = Date().addingTimeInterval(5 * 3600)
    let format = ISO8601DateFormatter()
    let stamp = format.string(from: later).replacingOccurrences(of: "-", with: "")
      .replacingOccurrences(of: ":", with: "")
    try importEvents([("later", "Later", stamp, ":-PT15M")])
    try setClock(format.string(from: Date()))
    let real = try SampleRun(
      executable: "ekctl", arguments: ["alarms", "--watch"], home: home,
      environment: ["DBUS_SESSION_BUS_ADDRESS": ""])
    defer { real.stop() }
    try real.wait(for: "(Ctrl-C to stop)")
    let onClock = try agent()
    defer { onClock.stop() }
    let pids = [real.processIdentifier, onClock.processIdentifier]
    let before = try pids.map(Self.processorSeconds)
    Thread.sleep(forTimeInterval: 3)
    let used = try zip(pids.map(Self.processorSeconds), before).map { $0 - $1 }
    #expect(used.allSatisfy { $0 < 0.5 }, "processor seconds over 3 s: \(used)")
  }

  /// Across the night summer time begins in Paris (the tests' zone) on 29 March 2026, on the
  /// test's clock: a Berlin series keeps 08:50 on the viewer's clock before and after; a New
  /// York call fires ten elapsed minutes before its start; a floating breakfast's alarm and an
  /// all-day day's "on the day at 09:00" keep their wall-clock times; an absolute alarm fires
  /// at its instant; each once, none missed.
  @Test func alarmsOfEveryKindOfTimeFireOnceAcrossADaylightSavingChange() throws {
    let event = { (uid: String, title: String, start: String, rest: [String], trigger: String) in
      ["BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20260101T000000Z", start] + rest + [
        "SUMMARY:\(title)", "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:\(title)",
        "TRIGGER\(trigger)", "END:VALARM", "END:VEVENT",
      ]
    }
    let lines =
      ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//tests//EN", "X-WR-CALNAME:Home"]
      + event(
        "berlin", "Stand-up", "DTSTART;TZID=Europe/Berlin:20260328T090000",
        ["DURATION:PT15M", "RRULE:FREQ=DAILY;COUNT=3"], ":-PT10M")
      + event(
        "new-york", "Call", "DTSTART;TZID=America/New_York:20260329T090000", ["DURATION:PT30M"],
        ":-PT10M")
      + event("floating", "Breakfast", "DTSTART:20260329T080000", ["DURATION:PT30M"], ":-PT10M")
      + event("all-day", "Spring day", "DTSTART;VALUE=DATE:20260329", [], ":PT9H")
      + event(
        "lunch", "Lunch", "DTSTART;TZID=Europe/Paris:20260329T130000", ["DURATION:PT1H"],
        ";VALUE=DATE-TIME:20260329T100000Z") + ["END:VCALENDAR", ""]
    let file = home.url.appendingPathComponent("spring.ics")
    try Data(lines.joined(separator: "\r\n").utf8).write(to: file)
    #expect(try home.ekctl(["import", file.path]).status == 0)

    try setClock("2026-03-28T07:00:00Z")
    let run = try agent()
    defer { run.stop() }
    // Each firing's instant (UTC), and the line on the Paris clock (CET, then CEST).
    let expected = [
      ("2026-03-28T07:50:00Z", "alarm  2026-03-28T08:50:00  Stand-up"),
      ("2026-03-29T05:50:00Z", "alarm  2026-03-29T07:50:00  Breakfast"),
      ("2026-03-29T06:50:00Z", "alarm  2026-03-29T08:50:00  Stand-up"),
      ("2026-03-29T07:00:00Z", "alarm  2026-03-29T09:00:00  Spring day"),
      ("2026-03-29T10:00:00Z", "alarm  2026-03-29T12:00:00  Lunch"),
      ("2026-03-29T12:50:00Z", "alarm  2026-03-29T14:50:00  Call"),
      ("2026-03-30T06:50:00Z", "alarm  2026-03-30T08:50:00  Stand-up"),
    ]
    for (instant, line) in expected {
      try setClock(instant)
      try run.wait(for: line)
    }
    let output = run.stop()
    #expect(output.components(separatedBy: "\nalarm  ").count == expected.count + 1, "\(output)")
    #expect(!output.contains("missed"), "\(output)")
  }

  /// `--now` starts the agent's clock at a given moment, and it runs on from there; `--json`
  /// delivers each firing as one object a line.
  @Test func anAgentStartedAtAMomentOfItsOwnDeliversJSONLines() throws {
    try importEvents([("dentist", "Dentist", "20260302T100000Z", ":-PT15M")])
    let run = try SampleRun(
      executable: "ekctl",
      arguments: ["alarms", "--watch", "--json", "--now", "2026-03-02T09:44:58Z"], home: home,
      environment: ["DBUS_SESSION_BUS_ADDRESS": ""])
    defer { run.stop() }
    try run.wait(for: "\"delivery\":\"alarm\"", timeout: 20)
    let line = try #require(run.output.split(separator: "\n").first { $0.hasPrefix("{") })
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    #expect(object["title"] as? String == "Dentist")
    #expect(object["fireDate"] as? String == "2026-03-02T09:45:00Z")
    #expect(!run.output.contains("Ctrl-C"), "no sentence among the JSON lines")
  }

  @Test func aFailingExecCommandIsSaidAndTheAgentGoesOn() throws {
    try importEvents([("dentist", "Dentist", "20260302T100000Z", ":-PT15M")])
    try setClock("2026-03-02T09:45:00Z")
    let run = try agent(["--exec", "cat >/dev/null; exit 3"])
    defer { run.stop() }
    try run.wait(for: "ekctl: --exec 'cat >/dev/null; exit 3' exited with 3")
    #expect(run.output.contains("alarm  2026-03-02T10:45:00  Dentist"))
  }

  /// A thousand alarms due together must not start a thousand shells: at most --exec-jobs run
  /// at once, the others in turn, every one of them run.
  @Test(arguments: [nil, 2] as [Int?])
  func execCommandsRunAFewAtATime(jobs: Int?) throws {
    let count = 24
    try importEvents(
      (0..<count).map { ("due-\($0)", "Due \($0)", "20260302T100000Z", ":-PT15M") })
    try setClock("2026-03-02T09:45:00Z")
    let log = home.url.appendingPathComponent("exec.log")
    // Each command notes its start and end (appends of one short line do not interleave).
    let command =
      "cat >/dev/null; echo start >> '\(log.path)'; sleep 0.2; echo end >> '\(log.path)'"
    let run = try agent(["--exec", command] + (jobs.map { ["--exec-jobs", "\($0)"] } ?? []))
    defer { run.stop() }
    let deadline = Date().addingTimeInterval(60)
    var lines: [Substring] = []
    while Date() < deadline {
      lines = ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n")
      if lines.count(where: { $0 == "end" }) == count { break }
      Thread.sleep(forTimeInterval: 0.1)
    }
    #expect(lines.count { $0 == "start" } == count, "\(lines)")
    var running = 0
    var most = 0
    for line in lines {
      running += line == "start" ? 1 : -1
      most = max(most, running)
    }
    print("--exec-jobs \(jobs.map(String.init) ?? "default"): at most \(most) at once")
    #expect(most <= (jobs ?? 4), "\(most) commands ran at once")
    #expect(most >= 2, "commands ran one at a time: \(lines)")
  }
}
