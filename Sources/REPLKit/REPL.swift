/// A read-eval-print loop over a table of commands, with `help`, `help COMMAND` and `quit`
/// built in. Words that do not read as their command's arguments are answered as ekctl
/// answers them, with swift-argument-parser's `Error: …` and `Usage: …`; a failing command
/// prints its error and the loop goes on; the exit status says whether any command failed,
/// so that scripts driving a sample can tell.
///
/// Hooks let an app do what every command needs without wrapping each one:
/// ``beforePrompt``, ``beforeCommand``, ``afterCommand``, and ``whileIdle`` on a terminal.
///
/// A sample app gets its loop from OpenEventKitApp's `AppInfo.run`; a program of its own makes
/// one over a console:
///
/// ```swift
/// let options = SessionOptions.forThisProcess(app: "loan-scheduler", errors: .standardError)
/// let console = Console.standard(app: "loan-scheduler", options: options)
/// let commands = [
///   REPLCommand("loans", help: "Lists the loans.") { console.print("1  Claire") }
/// ]
/// let repl = REPL(prompt: "loans> ", commands: commands, console: console)
/// repl.beforePrompt = { /* tell what other apps changed meanwhile */ }
/// exit(repl.run())
/// ```
///
/// `quit` and `exit` leave the loop; `help` lists every command's usage with its help, and
/// `help COMMAND` (or `COMMAND --help`, `COMMAND -h`) shows ArgumentParser's help of one. An
/// unknown command is answered with the nearest name (``NearestName``). Blank lines are
/// skipped. A REPL is run from one thread, and on a terminal only one runs at
/// a time (readline's completion and idle functions are the process's).
public final class REPL {
  /// What is shown before each command line, such as `loans> `.
  public let prompt: String
  private let commands: [REPLCommand]
  private let reader: any LineReader
  private let write: (String) -> Void
  /// How many lines have been answered with an error so far: a command that threw, words
  /// that do not read as its arguments, an unknown command, `help` of one, a line that could
  /// not be split (an open quote). ``run()`` returns 1 when it is not 0.
  private(set) public var failures = 0
  /// Runs before each prompt: where an app tells of what happened meanwhile (a change another
  /// app made to the calendar, say), so that it reads before the next command, not amid one.
  public var beforePrompt: (() -> Void)?
  /// Runs before a command whose words read as its arguments (not before `help` or a usage
  /// error).
  public var beforeCommand: ((REPLCommand) -> Void)?
  /// Runs after that command, whether it succeeded or threw (the error is not yet printed):
  /// where an app takes note of what its own command did.
  public var afterCommand: ((REPLCommand) -> Void)?
  /// Runs while the prompt waits on a terminal, every fifth of a second: nil when there is
  /// nothing to say, else a function that says it, above the prompt, which is drawn again
  /// below with what was being typed (``TerminalLineReader/whileIdle``). A piped session has
  /// no idle prompt: what this would say waits for ``beforePrompt`` or ``beforeCommand``.
  public var whileIdle: (() -> (() -> Void)?)?

  /// A REPL over a reader and an output function, for a loop without a ``Console``.
  ///
  /// ```swift
  /// import ArgumentParser
  ///
  /// struct Hello: ParsableArguments {
  ///   @Argument(help: "Who to greet.") var name: String
  /// }
  /// let transcript = Transcript()
  /// let hello = REPLCommand("hello", Hello.self, help: "Greets someone.") { hello in
  ///   transcript.append("Hello, \(hello.name)!\n")
  /// }
  /// let repl = REPL(
  ///   prompt: "> ", commands: [hello],
  ///   reader: ScriptedLineReader(["hello Claire", "quit"], echo: transcript.append),
  ///   write: transcript.append)
  /// print(repl.run(), transcript.text.contains("Hello, Claire!"))  // 0 true
  /// ```
  ///
  /// - Parameters:
  ///   - prompt: What is shown before each command line.
  ///   - commands: The commands, in the order `help` lists them; `help` and `quit` are added.
  ///     Names should be unique: the first command of a name is the one run.
  ///   - reader: Where command lines are read (``LineReader/readCommand(prompt:)``).
  ///   - write: Where the REPL's own text goes (help, `Error: …` lines), as given, newlines
  ///     included.
  public init(
    prompt: String, commands: [REPLCommand], reader: any LineReader,
    write: @escaping (String) -> Void
  ) {
    self.prompt = prompt
    self.commands = commands
    self.reader = reader
    self.write = write
  }

  /// A REPL reading and writing through a console.
  ///
  /// ```swift
  /// let repl = REPL(
  ///   prompt: "cal> ",
  ///   commands: [
  ///     REPLCommand("today", help: "Shows today's date.") {
  ///       console.print("It is \(console.now).")
  ///     }
  ///   ],
  ///   console: console)
  /// exit(repl.run())
  /// ```
  ///
  /// - Parameters:
  ///   - prompt: What is shown before each command line.
  ///   - commands: The commands, in the order `help` lists them; `help` and `quit` are added.
  ///   - console: The console whose reader and output the REPL uses, the same ones its
  ///     commands ask and print through.
  public convenience init(prompt: String, commands: [REPLCommand], console: Console) {
    self.init(prompt: prompt, commands: commands, reader: console.reader, write: console.write)
  }

  /// The completions of `word`, the word being typed, when `line` is what comes before it:
  /// command names for the first word, the command's options for a word that starts with
  /// `-`, else what the command says may come next.
  ///
  /// This is what Tab offers on a terminal; ``run()`` hands it to the
  /// ``TerminalLineReader``. After `help`, command names are offered.
  ///
  /// ```swift
  /// repl.completions(line: "", word: "he")      // ["help"]
  /// repl.completions(line: "show ", word: "")   // what the show command's `complete` gives
  /// ```
  ///
  /// - Parameters:
  ///   - line: The text before the word being typed (a line that cannot be split counts as
  ///     empty).
  ///   - word: The start of the word being typed; empty offers every candidate.
  /// - Returns: The candidates that start with `word`, sorted.
  public func completions(line: String, word: String) -> [String] {
    let before = (try? CommandLineWords.split(line)) ?? []
    let candidates: [String]
    if before.isEmpty {
      candidates = commands.map(\.name) + ["help", "quit"]
    } else if before.first == "help" && before.count == 1 {
      candidates = commands.map(\.name)
    } else if word.hasPrefix("-") {
      candidates = commands.first { $0.name == before.first }?.options ?? []
    } else {
      let command = commands.first { $0.name == before.first }
      candidates = command?.complete?(Array(before.dropFirst())) ?? []
    }
    return candidates.filter { $0.hasPrefix(word) }.sorted()
  }

  /// Runs until `quit` or the end of input; returns the exit status (1 when a command failed).
  ///
  /// Each time round it runs ``beforePrompt``, reads a command line, and runs the command its
  /// first word names when the rest reads as its arguments (between ``beforeCommand`` and
  /// ``afterCommand``). Failures are printed as `Error: …` and counted in ``failures``; they
  /// do not end the loop. On a terminal it installs Tab completion (``completions(line:word:)``)
  /// and ``whileIdle`` for as long as it runs.
  ///
  /// ```swift
  /// exit(repl.run())  // 0 when every command succeeded, else 1
  /// ```
  ///
  /// - Returns: The process's exit status: 0 when no line failed, 1 otherwise.
  public func run() -> Int32 {
    if let terminal = reader as? TerminalLineReader {
      terminal.completer = { [weak self] line, word in
        self?.completions(line: line, word: word) ?? []
      }
      if whileIdle != nil {
        terminal.whileIdle = { [weak self] in self?.whileIdle?() }
      }
    }
    defer { (reader as? TerminalLineReader)?.whileIdle = nil }
    while true {
      beforePrompt?()
      guard let line = reader.readCommand(prompt: prompt) else {
        // Ctrl-D leaves readline's cursor after the prompt.
        if reader is TerminalLineReader { write("\n") }
        break
      }
      if !handle(line) { break }
    }
    return failures == 0 ? 0 : 1
  }

  /// Runs one line; false when it asks to quit.
  func handle(_ line: String) -> Bool {
    let words: [String]
    do {
      words = try CommandLineWords.split(line)
    } catch {
      fail("\(error)")
      return true
    }
    guard let name = words.first else { return true }
    let arguments = Array(words.dropFirst())
    switch name {
    case "quit", "exit": return false
    case "help":
      showHelp(arguments.first)
      return true
    default: break
    }
    guard let command = commands.first(where: { $0.name == name }) else {
      let suggestion = NearestName.suggestion(
        for: name, among: commands.map(\.name) + ["help", "quit"])
      fail(
        "unknown command '\(name)'"
          + (suggestion.map { "; did you mean '\($0)'?" } ?? "; type 'help' for the commands"))
      return true
    }
    var started = false
    do {
      try command.perform(arguments) {
        started = true
        beforeCommand?(command)
      }
      afterCommand?(command)
    } catch let answer as ArgumentsAnswer where !started {
      // ArgumentParser's own text, as ekctl prints it: help asked for, or the error and usage.
      if !answer.isHelp { failures += 1 }
      var text = answer.text
      // Words too many are often a name or a place typed in several words, not numbers
      // (`vote 1 2`): quotes make them one.
      if !answer.isHelp, text.contains("nexpected argument"),
        arguments.contains(where: { $0.contains(where: \.isLetter) })
      {
        text += "\n  A value of several words goes in quotes: \"Villa Lario\"."
      }
      write(InertText.keepingLineBreaks(text) + "\n")
    } catch {
      if started { afterCommand?(command) }
      fail(ErrorText.of(error))
    }
    return true
  }

  private func fail(_ message: String) {
    failures += 1
    // A message may quote data or the line typed: shown inert, whatever writes it.
    write("Error: \(InertText.keepingLineBreaks(ErrorText.shortened(message)))\n")
  }

  /// The widest usage that help keeps on one line with its text.
  static let usageColumn = 32

  private func showHelp(_ name: String?) {
    if let name {
      guard let command = commands.first(where: { $0.name == name }) else {
        fail("no command '\(name)' to explain")
        return
      }
      write(InertText.keepingLineBreaks(command.manual) + "\n")
      return
    }
    // Each usage on a line, the help after it in a column, or on the next line in that
    // column when the usage is too long to leave it room.
    let width =
      commands.map { DisplayWidth.width(of: $0.usage) }.filter { $0 <= REPL.usageColumn }.max()
      ?? 0
    for command in commands {
      if DisplayWidth.width(of: command.usage) > width {
        write(
          "  \(command.usage)\n  " + String(repeating: " ", count: width + 2) + command.help + "\n")
      } else {
        write("  " + DisplayWidth.padded(command.usage, to: width) + "  " + command.help + "\n")
      }
    }
    write("  help [<command>], quit\n")
  }
}
