import Foundation
import Testing

/// Whole sessions of `oek-ui-helper`, a REPL built from REPLKit and OpenEventKitUI: piped, as
/// scripts and the integration tests drive the samples, and on a pseudo-terminal through
/// readline, as a person types.
@Suite(.serialized) struct REPLSessionTests {
  /// A folder for the store and the history, removed afterwards.
  final class Home {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("OpenEventKitUITests-\(UUID().uuidString)", isDirectory: true)

    init() throws {
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    var environment: [String: String] {
      var environment = ProcessInfo.processInfo.environment
      environment["OPENEVENTKIT_HOME"] = url.path
      environment["XDG_STATE_HOME"] = url.appendingPathComponent("state").path
      environment["TZ"] = "Europe/Paris"
      environment["TERM"] = "xterm"
      environment["NO_COLOR"] = nil
      environment["COLORTERM"] = nil
      return environment
    }
  }

  static var helper: URL {
    let bundle = Bundle.main.bundleURL
    let products = bundle.pathExtension == "xctest" ? bundle.deletingLastPathComponent() : bundle
    return products.appendingPathComponent("oek-ui-helper")
  }

  /// Runs the helper with `input` piped in; returns its output, errors and exit status.
  func run(
    _ input: String, arguments: [String] = ["--now", "2025-03-01T10:20"], home: Home,
    environment: [String: String] = [:]
  ) throws -> (output: String, errors: String, status: Int32) {
    let process = Process()
    process.executableURL = REPLSessionTests.helper
    process.arguments = arguments
    process.environment = home.environment.merging(environment) { $1 }
    let output = Pipe()
    let errors = Pipe()
    let standardInput = Pipe()
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = standardInput
    try process.run()
    standardInput.fileHandleForWriting.write(Data(input.utf8))
    try standardInput.fileHandleForWriting.close()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let errorText = String(
      decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (text, errorText, process.terminationStatus)
  }

  @Test func aPipedSessionReadsLikeATranscript() throws {
    let home = try Home()
    let session = try run(
      """
      add "Dentist appointment" 2025-03-03T09:00
      1
      events
      view 1
      agnda
      month
      quit
      events
      """, home: home)
    #expect(
      session.output == """
        ui> add "Dentist appointment" 2025-03-03T09:00

        ---------------------------------------------------
        "UI Helper" Would Like Full Access to Your Calendar
        The terminal UI tests show and edit events.
        ---------------------------------------------------
          1) Allow Full Access
          2) Don't Allow
        Choose 1 or 2: 1
        Added Dentist appointment.
        ui> events
        1. Dentist appointment Mon 3 Mar 2025 09:00
        ui> view 1
        Dentist appointment
          When        Mon 3 Mar 2025 09:00–10:00
          Calendar    Calendar (Local)
        ui> agnda
        error: unknown command 'agnda'; did you mean 'agenda'?
        ui> month
             March 2025
        Mo Tu We Th Fr Sa Su
                        1  2
         3* 4  5  6  7  8  9
        10 11 12 13 14 15 16
        17 18 19 20 21 22 23
        24 25 26 27 28 29 30
        31
        * a day with events
        ui> quit

        """)
    // A command failed: the exit status says so.
    #expect(session.status == 1)
  }

  @Test func theExitStatusIsZeroWhenEveryCommandWorked() throws {
    let home = try Home()
    let good = try run("color\nhelp fail\n", home: home)
    #expect(good.status == 0)
    #expect(good.output.contains("ui> color\ncolour off\n"))  // never colour into a pipe
    #expect(good.output.contains("fail\n  Fails, for the exit status.\n"))
    let bad = try run("fail\ncolor\n", home: home)
    #expect(bad.status == 1)
    #expect(bad.output.contains("error: this command always fails\nui> color\n"))
  }

  @Test func deniedAccessIsExplainedAndKeptAndTheNowOptionIsChecked() throws {
    let home = try Home()
    let denied = try run("events\n2\nevents\n", home: home)
    #expect(
      denied.output.contains(
        "error: Without access to your calendar this cannot be done. To change that: "
          + "ekctl privacy set --app org.openeventkit.ui-helper --entity events full\n"))
    // Asked once: the second time it is refused without a prompt.
    #expect(
      denied.output.hasSuffix(
        "ui> events\nerror: You did not allow this app to use your calendar. To change that: "
          + "ekctl privacy set --app org.openeventkit.ui-helper --entity events full\n"))
    #expect(denied.output.components(separatedBy: "Choose 1 or 2").count == 2)

    let badNow = try run("", arguments: ["--now", "soon"], home: home)
    #expect(badNow.status == 2)
    #expect(badNow.errors.contains("--now needs a date and time"))
  }

  /// Types into the helper on a pseudo-terminal: each step waits for some output, then sends
  /// its keys. Returns everything the terminal showed.
  func typeOnTerminal(
    _ steps: [(waitFor: String, send: String)], home: Home, environment: [String: String] = [:]
  ) throws -> String {
    let script = """
      import json, os, pty, select, signal, sys, time
      steps = json.loads(sys.argv[2])
      pid, fd = pty.fork()
      if pid == 0:
          # As a shell starts a program: Ctrl-C neither blocked nor ignored.
          signal.pthread_sigmask(signal.SIG_SETMASK, [])
          signal.signal(signal.SIGINT, signal.SIG_DFL)
          os.execv(sys.argv[1], [sys.argv[1], "--now", "2025-03-01T10:20"])
      seen = b""
      deadline = time.time() + 30
      def read_until(text):
          # Reads what the terminal shows until `text` appears, the program ends or time is up.
          global seen
          while (text is None or text.encode() not in seen) and time.time() < deadline:
              ready, _, _ = select.select([fd], [], [], max(0, deadline - time.time()))
              if not ready:
                  return
              try:
                  chunk = os.read(fd, 4096)
              except OSError:
                  return
              if not chunk:
                  return
              seen += chunk
      for wait_for, send in steps:
          read_until(wait_for)
          os.write(fd, send.encode())
          time.sleep(0.2)
      read_until(None)
      os.kill(pid, 9)
      os.waitpid(pid, 0)
      sys.stdout.write(seen.decode("utf-8", "replace"))
      """
    let json = try JSONSerialization.data(withJSONObject: steps.map { [$0.waitFor, $0.send] })
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "python3", "-c", script, REPLSessionTests.helper.path, String(decoding: json, as: UTF8.self),
    ]
    process.environment = home.environment.merging(environment) { $1 }
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return text
  }

  @Test func readlineCompletesKeepsHistoryAndCtrlCClearsTheLine() throws {
    let home = try Home()
    let first = try typeOnTerminal(
      [
        ("ui> ", "col\t"),  // completes to "color "
        ("color ", "\r"),
        ("colour on", "garbage"),
        ("garbage", "\u{03}"),  // Ctrl-C: the line is dropped
        ("ui> ", "he\t"),  // "help "
        ("help ", "fa\t"),  // "help fail "
        ("fail ", "\r"),
        ("Fails, for the exit status.", "\u{04}"),  // Ctrl-D leaves
      ], home: home)
    #expect(first.contains("colour on"))
    #expect(first.contains("help fail"))
    #expect(first.contains("Fails, for the exit status."))
    #expect(!first.contains("unknown command 'garbage'"))

    let history = try String(
      contentsOf: home.url.appendingPathComponent("state/OpenEventKit/oek-ui-helper.history"),
      encoding: .utf8)
    #expect(history.contains("color"))
    #expect(history.contains("help fail"))
    #expect(!history.contains("garbage"))

    // A new session recalls the last line with the up arrow.
    let second = try typeOnTerminal(
      [("ui> ", "\u{1B}[A"), ("help fail", "\r"), ("Fails, for the exit status.", "quit\r")],
      home: home)
    #expect(second.contains("Fails, for the exit status."))
  }

  @Test func noColorTurnsColourOffOnATerminal() throws {
    let home = try Home()
    let text = try typeOnTerminal(
      [("ui> ", "color\r"), ("colour", "quit\r")], home: home, environment: ["NO_COLOR": "1"])
    #expect(text.contains("colour off"))
  }
}
