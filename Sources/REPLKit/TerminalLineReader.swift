import CReadline
import Foundation

/// Lines typed on a terminal, through GNU readline: line editing, a history kept per app
/// between sessions (capped), and tab completion of the words a REPL offers.
public final class TerminalLineReader: LineReader {
  /// Where the history is kept: `$XDG_STATE_HOME/OpenEventKit/<app>.history`
  /// (default `~/.local/state/…`).
  public let historyFile: URL
  /// How many lines of history are kept.
  public let historyLimit: Int32

  public init(
    app: String, historyLimit: Int32 = 1000,
    environment: [String: String] =
      ProcessInfo.processInfo.environment
  ) {
    historyFile = TerminalLineReader.historyFile(app: app, environment: environment)
    self.historyLimit = historyLimit
    try? FileManager.default.createDirectory(
      at: historyFile.deletingLastPathComponent(), withIntermediateDirectories: true,
      attributes: [.posixPermissions: 0o700])
    stifle_history(historyLimit)
    _ = read_history(historyFile.path)
  }

  /// The history file for an app, following the XDG Base Directory specification (a relative
  /// `XDG_STATE_HOME` is ignored).
  public static func historyFile(app: String, environment: [String: String]) -> URL {
    let state =
      environment["XDG_STATE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
      .map { URL(fileURLWithPath: $0, isDirectory: true) }
      ?? URL(
        // An empty HOME would put the history in the working folder.
        fileURLWithPath: environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }
          ?? NSHomeDirectory(), isDirectory: true
      )
      .appendingPathComponent(".local/state", isDirectory: true)
    return state.appendingPathComponent("OpenEventKit", isDirectory: true)
      .appendingPathComponent("\(app).history")
  }

  /// What tab offers: given the line before the word being typed, and that word.
  public var completer: ((_ line: String, _ word: String) -> [String])? {
    get { TerminalLineReader.activeCompleter }
    set { TerminalLineReader.activeCompleter = newValue }
  }

  // readline calls plain C functions, which cannot capture: the completer in use, and the
  // matches being handed out, live here. readline runs on one thread at a time.
  nonisolated(unsafe) private static var activeCompleter: ((String, String) -> [String])?
  nonisolated(unsafe) private static var pendingMatches: [String] = []

  private static let attemptCompletion:
    @convention(c) (UnsafePointer<CChar>?, Int32, Int32) -> UnsafeMutablePointer<
      UnsafeMutablePointer<CChar>?
    >? = { text, start, _ in
      oek_completion_over()  // never file names
      guard let text else { return nil }
      let word = String(cString: text)
      let line = oek_line_buffer().map { String(cString: $0) } ?? ""
      let before = String(line.utf8.prefix(Int(start))) ?? ""
      TerminalLineReader.pendingMatches = TerminalLineReader.activeCompleter?(before, word) ?? []
      return rl_completion_matches(text, TerminalLineReader.nextMatch)
    }

  private static let nextMatch:
    @convention(c) (UnsafePointer<CChar>?, Int32) ->
      UnsafeMutablePointer<CChar>? = { _, _ in
        guard !TerminalLineReader.pendingMatches.isEmpty else { return nil }
        return strdup(TerminalLineReader.pendingMatches.removeFirst())
      }

  public func readLine(prompt: String) -> String? {
    oek_set_attempted_completion(TerminalLineReader.attemptCompletion)
    oek_begin_interruptible_read()
    let raw = readline(prompt)
    oek_end_interruptible_read()
    guard let raw else { return nil }
    defer { free(raw) }
    let line = String(cString: raw)
    if !line.trimmingCharacters(in: .whitespaces).isEmpty {
      add_history(raw)
      _ = write_history(historyFile.path)
    }
    return line
  }
}

/// The line reader for this process: readline on a terminal, plain lines echoed after their
/// prompt otherwise (a piped or scripted session).
public func standardLineReader(app: String) -> any LineReader {
  if isatty(STDIN_FILENO) != 0 {
    return TerminalLineReader(app: app)
  }
  return StreamLineReader(input: oek_standard_input()) { text in
    FileHandle.standardOutput.write(Data(text.utf8))
  }
}
