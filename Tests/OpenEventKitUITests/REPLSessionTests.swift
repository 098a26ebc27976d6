import Foundation
import TestSupport
import Testing

/// Whole sessions of `oek-ui-helper`, a REPL built from REPLKit and OpenEventKitUI: piped, as
/// scripts and the integration tests drive the samples, and on a pseudo-terminal through
/// readline, as a person types.
@Suite(.serialized) struct REPLSessionTests {
  /// The helper's environment in `home`: a terminal that shows colour (`TERM=xterm`, neither
  /// `NO_COLOR` nor `COLORTERM`) unless `more` says otherwise.
  static func environment(_ home: TemporaryHome, _ more: [String: String]) -> [String: String] {
    var environment = home.environment
    environment["TERM"] = "xterm"
    environment["NO_COLOR"] = nil
    environment["COLORTERM"] = nil
    return environment.merging(more) { $1 }
  }

  static let helper = BuildProducts.executable("oek-ui-helper")

  /// Runs the helper with `input` piped in; returns its output, errors and exit status.
  func run(
    _ input: String, arguments: [String] = ["--now", "2025-03-01T10:20"], home: TemporaryHome,
    environment: [String: String] = [:]
  ) throws -> (output: String, errors: String, status: Int32) {
    let result = try runProgram(
      REPLSessionTests.helper, arguments, input: input,
      environment: Self.environment(home, environment))
    return (result.stdout, result.stderr, result.status)
  }

  @Test func aPipedSessionReadsLikeATranscript() throws {
    let home = try TemporaryHome()
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
        Error: unknown command 'agnda'; did you mean 'agenda'?
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
    let home = try TemporaryHome()
    let good = try run("color\nhelp fail\n", home: home)
    #expect(good.status == 0)
    #expect(good.output.contains("ui> color\ncolour off\n"))  // never colour into a pipe
    #expect(good.output.contains("ui> help fail\nOVERVIEW: Fails, for the exit status.\n"))
    let bad = try run("fail\ncolor\n", home: home)
    #expect(bad.status == 1)
    #expect(bad.output.contains("Error: this command always fails\nui> color\n"))
  }

  @Test func deniedAccessIsExplainedAndKeptAndTheNowOptionIsChecked() throws {
    let home = try TemporaryHome()
    let denied = try run("events\n2\nevents\n", home: home)
    #expect(
      denied.output.contains(
        "Error: You did not allow this app to use your calendar. To change that: "
          + "ekctl privacy set --app org.openeventkit.ui-helper --entity events full\n"))
    // Asked once: the second time it is refused without a prompt.
    #expect(
      denied.output.hasSuffix(
        "ui> events\nError: You did not allow this app to use your calendar. To change that: "
          + "ekctl privacy set --app org.openeventkit.ui-helper --entity events full\n"))
    #expect(denied.output.components(separatedBy: "Choose 1 or 2").count == 2)

    let badNow = try run("", arguments: ["--now", "soon"], home: home)
    #expect(badNow.status == 64)  // as ekctl's usage errors
    #expect(
      badNow.errors.hasPrefix(
        "Error: The value 'soon' is invalid for '--now <iso-date-time>': give a date and time"))
    #expect(badNow.errors.contains("\nUsage: oek-ui-helper [--now <iso-date-time>]\n"))
  }

  /// Types into the helper on a pseudo-terminal: each step waits for some output, then sends
  /// its keys. Returns everything the terminal showed.
  func typeOnTerminal(
    _ steps: [PseudoTerminal.Step], home: TemporaryHome, environment: [String: String] = [:]
  ) throws -> String {
    let run = try PseudoTerminal.run(
      Self.helper, arguments: ["--now", "2025-03-01T10:20"],
      environment: Self.environment(home, environment), steps: steps)
    #expect(run.stepsTaken == steps.count && !run.timedOut, "\(run.ending):\n\(run.shown)")
    return run.shown
  }

  @Test func readlineCompletesKeepsHistoryAndCtrlCClearsTheLine() throws {
    let home = try TemporaryHome()
    let first = try typeOnTerminal(
      [
        .after("ui> ", send: "col\t"),  // completes to "color "
        .after("color ", send: "\r"),
        .after("colour on", send: "garbage"),
        .after("garbage", send: "\u{03}"),  // Ctrl-C: the line is dropped
        .after("ui> ", send: "he\t"),  // "help "
        .after("help ", send: "fa\t"),  // "help fail "
        .after("fail ", send: "\r"),
        .after("Fails, for the exit status.", send: "\u{04}"),  // Ctrl-D leaves
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
      [
        .after("ui> ", send: "\u{1B}[A"), .after("help fail", send: "\r"),
        .after("Fails, for the exit status.", send: "quit\r"),
      ],
      home: home)
    #expect(second.contains("Fails, for the exit status."))
  }

  @Test func noColorTurnsColourOffOnATerminal() throws {
    let home = try TemporaryHome()
    let text = try typeOnTerminal(
      [.after("ui> ", send: "color\r"), .after("colour", send: "quit\r")], home: home,
      environment: ["NO_COLOR": "1"])
    #expect(text.contains("colour off"))
  }

  /// An observer added with `queue: .main`, as an app adds its `.EKEventStoreChanged` one, and
  /// a notice posted from another thread: in a piped session the kit runs the main queue after
  /// the command, so the block runs on the main thread before the next command's output; and
  /// a second observer's block too.
  @Test func aMainQueueObserverRunsBeforeTheNextPromptInAPipedSession() throws {
    let home = try TemporaryHome()
    let session = try run("notice the store changed\ncolor\n", home: home)
    #expect(session.status == 0, "\(session.output)\(session.errors)")
    let notice = "Notice: the store changed (on the main thread: true)"
    let lines = session.output.components(separatedBy: "\n")
    let posted = try #require(lines.firstIndex { $0.contains("Posted.") }, "\(session.output)")
    let told = try #require(lines.firstIndex { $0.contains(notice) }, "\(session.output)")
    let colour = try #require(lines.firstIndex { $0.contains("colour") }, "\(session.output)")
    #expect(posted < told && told < colour, "\(session.output)")
    // The other observer's turn comes once one block ran (in no set order); it too is told
    // before the next command's output.
    let second = lines.firstIndex { $0 == "Second observer told (on the main thread: true)" }
    #expect(second.map { posted < $0 && $0 < colour } == true, "\(session.output)")
  }

  /// The same on a terminal, posted while the prompt waits with half a command typed: the
  /// block runs at once, its line appears above the prompt, and the prompt is drawn again with
  /// what was typed, which the person finishes.
  @Test func aMainQueueObserverRunsWhileATerminalPromptWaits() throws {
    let home = try TemporaryHome()
    let fifo = home.url.appendingPathComponent("notice").path
    #expect(mkfifo(fifo, 0o600) == 0)
    let shown = try typeOnTerminal(
      [
        .after("ui> ", send: "notice-from \(fifo)\r"),
        .after("Waiting for a notice.", send: "col"),
        .after(
          "col",
          .run {
            let writer = FileHandle(forWritingAtPath: fifo)  // waits for the helper's reader
            writer?.write(Data("another app wrote\n".utf8))
            try? writer?.close()
          }),
        .after("Notice: another app wrote (on the main thread: true)", send: "or\r"),
        .after("colour on", send: "\u{04}"),
      ], home: home)
    let after = shown.components(separatedBy: "Notice: another app wrote").last ?? ""
    let redrawn = after.components(separatedBy: "ui> ").dropFirst().first ?? ""
    #expect(
      redrawn.hasPrefix("col") || redrawn.contains("col"), "drawn again, typed kept: \(shown)")
    #expect(after.contains("colour on"), "\(shown)")
  }
}
