import CReadline
import Foundation
import OpenEventKitPaths

/// Lines typed on a terminal, through GNU readline: line editing, a history of commands kept
/// per app between sessions (capped), and tab completion of the words a REPL offers. Answers
/// to a form's questions stay out of the history, and Ctrl-C there leaves the form.
///
/// ``standardLineReader(app:)`` makes one when standard input is a terminal, and a ``REPL``
/// running over it installs its completion and ``whileIdle``:
///
/// ```swift
/// let reader = TerminalLineReader(app: "loan-scheduler")  // reads its history
/// reader.completer = { line, word in ["show", "loans"].filter { $0.hasPrefix(word) } }
/// while let line = reader.readCommand(prompt: "loans> ") {  // nil after Ctrl-D
///   print("you typed", line)
/// }
/// ```
///
/// readline's state is the process's: use one reader at a time, from one thread; the
/// completer and idle function set through any reader are those of every reader.
public final class TerminalLineReader: LineReader {
  /// Where the history is kept: `$XDG_STATE_HOME/OpenEventKit/<app>.history`
  /// (default `~/.local/state/…`).
  public let historyFile: URL
  /// How many lines of history are kept.
  public let historyLimit: Int32

  /// A reader with `app`'s history loaded, capped at `historyLimit` lines.
  ///
  /// The history file and its folder are made private (0600 in a 0700 folder) when they can
  /// be; when they cannot (a read-only home) the session goes on with no history kept, and
  /// no error.
  ///
  /// ```swift
  /// let reader = TerminalLineReader(app: "recipes", historyLimit: 200)
  /// print(reader.historyFile.lastPathComponent)  // recipes.history
  /// if let line = reader.readCommand(prompt: "recipes> ") { print("you typed", line) }
  /// ```
  ///
  /// - Parameters:
  ///   - app: The app's name, which names its history file
  ///     (``historyFile(app:environment:)``).
  ///   - historyLimit: How many command lines are kept; 1,000 by default.
  ///   - environment: Where `XDG_STATE_HOME` and `HOME` are read; the process's environment
  ///     by default.
  public init(
    app: String, historyLimit: Int32 = 1000,
    environment: [String: String] =
      ProcessInfo.processInfo.environment
  ) {
    historyFile = TerminalLineReader.historyFile(app: app, environment: environment)
    self.historyLimit = historyLimit
    // What a person typed is theirs: the file is 0600 in a 0700 folder, as their data is.
    // Without it (a read-only home), the session goes on with no history kept.
    try? DataLocation.preparePrivateFile(historyFile, ownFolder: true)
    stifle_history(historyLimit)
    _ = read_history(historyFile.path)
  }

  /// The history file for an app, in OpenEventKit's state folder (`DataLocation`, following
  /// the XDG Base Directory specification).
  ///
  /// ```swift
  /// let file = TerminalLineReader.historyFile(
  ///   app: "recipes", environment: ["XDG_STATE_HOME": "/tmp/state"])
  /// print(file.path)  // /tmp/state/OpenEventKit/recipes.history
  /// ```
  ///
  /// - Parameters:
  ///   - app: The app's name.
  ///   - environment: Where `XDG_STATE_HOME` and `HOME` are read.
  /// - Returns: `<state folder>/<app>.history`; the file is named, not made.
  public static func historyFile(app: String, environment: [String: String]) -> URL {
    DataLocation.stateFolder(environment: environment).appendingPathComponent("\(app).history")
  }

  /// What tab offers: given the line before the word being typed, and that word.
  ///
  /// It returns the full words to offer (readline completes their common start, and lists
  /// them on a second Tab); nil, the default, offers nothing, never file names. Only command
  /// lines complete: a form's answers do not. ``REPL/run()`` sets it to
  /// ``REPL/completions(line:word:)``.
  public var completer: ((_ line: String, _ word: String) -> [String])? {
    get { TerminalLineReader.activeCompleter }
    set { TerminalLineReader.activeCompleter = newValue }
  }

  /// Runs while the command prompt waits for a key, every fifth of a second: returns nil when
  /// there is nothing to say, else a function that says it. That function's lines appear
  /// above the prompt, which is drawn again below them with what was being typed; so do the
  /// lines the idle function itself writes through the standard console. (Not while
  /// a form's question waits: a person answering is not interrupted.)
  public var whileIdle: (() -> (() -> Void)?)? {
    get { TerminalLineReader.activeIdle }
    set {
      TerminalLineReader.activeIdle = newValue
      oek_set_idle(newValue == nil ? nil : TerminalLineReader.idleTick)
    }
  }

  // readline calls plain C functions, which cannot capture: the completer and idle function
  // in use, and the matches being handed out, live here. readline runs on one thread at a
  // time.
  nonisolated(unsafe) private static var activeCompleter: ((String, String) -> [String])?
  nonisolated(unsafe) private static var activeIdle: (() -> (() -> Void)?)?
  nonisolated(unsafe) private static var pendingMatches: [String] = []

  /// Whether the idle function runs with the prompt on screen, not yet cleared: the first
  /// text written then clears its line (``makeRoomAbovePrompt()``). Read and written on the
  /// thread readline runs on, only.
  nonisolated(unsafe) private static var promptToClear = false
  /// Whether text written by the idle function cleared the prompt's line, to be drawn again.
  nonisolated(unsafe) private static var promptCleared = false

  /// Clears the prompt's line before text is written while the idle function runs (what an
  /// app's `queue: .main` observer prints, run then), so that the text appears above the
  /// prompt, drawn again below it with what was being typed. Does nothing at any other time,
  /// or from another thread. ``Console/standard(app:options:)`` calls it before each write.
  static func makeRoomAbovePrompt() {
    guard Thread.isMainThread, promptToClear else { return }
    promptToClear = false
    promptCleared = true
    oek_clear_prompt_line()
  }

  private static let idleTick: @convention(c) () -> Void = {
    promptToClear = true
    if let say = TerminalLineReader.activeIdle?() {
      makeRoomAbovePrompt()
      say()
    }
    promptToClear = false
    if promptCleared {
      promptCleared = false
      oek_redraw_prompt_line()
    }
  }

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

  /// A form's answers complete to nothing (not to file names, readline's default).
  private static let noCompletion:
    @convention(c) (UnsafePointer<CChar>?, Int32, Int32) -> UnsafeMutablePointer<
      UnsafeMutablePointer<CChar>?
    >? = { _, _, _ in
      oek_completion_over()
      return nil
    }

  private static let nextMatch:
    @convention(c) (UnsafePointer<CChar>?, Int32) ->
      UnsafeMutablePointer<CChar>? = { _, _ in
        guard !TerminalLineReader.pendingMatches.isEmpty else { return nil }
        return strdup(TerminalLineReader.pendingMatches.removeFirst())
      }

  /// A form's answer: kept out of the history; Ctrl-C leaves the form (nil).
  ///
  /// ```swift
  /// let reader = TerminalLineReader(app: "loans")
  /// // A form's question: Ctrl-C gives nil, and the answer is not kept in the history.
  /// guard let amount = reader.readLine(prompt: "Amount: ") else { return }
  /// print("amount:", amount)
  /// ```
  ///
  /// - Parameter prompt: The question, shown before the answer is typed.
  /// - Returns: The line as typed, or nil at the end of input (Ctrl-D on an empty line) or
  ///   after Ctrl-C.
  public func readLine(prompt: String) -> String? {
    read(prompt: prompt, form: true)
  }

  /// A command line: kept in the history (when not blank); Ctrl-C clears it and asks again.
  ///
  /// The history file is written after each line kept, so that a session killed later keeps
  /// it.
  ///
  /// ```swift
  /// let reader = TerminalLineReader(app: "loans")
  /// while let line = reader.readCommand(prompt: "loans> ") {  // Up recalls earlier commands
  ///   if line == "quit" { break }
  ///   print("you typed", line)
  /// }
  /// ```
  ///
  /// - Parameter prompt: The REPL's prompt.
  /// - Returns: The line as typed, or nil at the end of input (Ctrl-D on an empty line).
  public func readCommand(prompt: String) -> String? {
    guard let line = read(prompt: prompt, form: false) else { return nil }
    if !line.trimmingCharacters(in: .whitespaces).isEmpty {
      add_history(line)
      _ = write_history(historyFile.path)
    }
    return line
  }

  private func read(prompt: String, form: Bool) -> String? {
    oek_set_attempted_completion(
      form ? TerminalLineReader.noCompletion : TerminalLineReader.attemptCompletion)
    oek_begin_interruptible_read(form ? 1 : 0)
    let raw = readline(prompt)
    let cancelled = oek_end_interruptible_read() != 0
    guard let raw else { return nil }
    defer { free(raw) }
    return cancelled ? nil : String(cString: raw)
  }
}

/// The line reader for this process: readline on a terminal, plain lines echoed after their
/// prompt otherwise (a piped or scripted session).
///
/// On a pipe the echo goes to standard output, so that a piped session's output reads like a
/// transcript. ``Console/standard(app:options:)`` uses it.
///
/// ```swift
/// let reader = standardLineReader(app: "loan-scheduler")
/// let repl = REPL(prompt: "loans> ", commands: commands, reader: reader) { text in
///   print(text, terminator: "")
/// }
/// ```
///
/// - Parameter app: The app's name, which names its history on a terminal.
/// - Returns: A ``TerminalLineReader`` when standard input is a terminal, else a
///   ``StreamLineReader`` over standard input.
public func standardLineReader(app: String) -> any LineReader {
  if isatty(STDIN_FILENO) != 0 {
    return TerminalLineReader(app: app)
  }
  return StreamLineReader(input: oek_standard_input()) { text in
    FileHandle.standardOutput.write(Data(text.utf8))
  }
}
