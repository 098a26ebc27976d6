/// Where a REPL, and every prompt that shares its input (the privacy alert, editors' fields),
/// reads its next line: one stream, so that a piped session answers commands, prompts and
/// fields in order.
///
/// Two kinds of line are read. A *command* line is what a person types at the REPL's prompt:
/// it goes into the history, and Ctrl-C clears it. A *form* line answers a question a command
/// asks (a name, an amount, the privacy alert): it stays out of the history, since answers
/// are often private and never worth recalling as commands, and Ctrl-C leaves the form.
///
/// REPLKit has three: ``TerminalLineReader`` (readline), ``StreamLineReader`` (a pipe) and
/// ``ScriptedLineReader`` (tests); ``standardLineReader(app:)`` picks the process's. A reader
/// of one's own implements ``readLine(prompt:)`` and, when it keeps a history,
/// ``readCommand(prompt:)``:
///
/// ```swift
/// final class UppercaseReader: LineReader {
///   let inner: any LineReader
///   init(_ inner: any LineReader) { self.inner = inner }
///   func readLine(prompt: String) -> String? { inner.readLine(prompt: prompt)?.uppercased() }
/// }
/// ```
public protocol LineReader: AnyObject {
  /// The answer to a question, read after showing `prompt`, without its newline; nil at the
  /// end of input, or when the person pressed Ctrl-C to leave the form.
  ///
  /// - Parameter prompt: The question, shown (or echoed) as it is, before the answer.
  /// - Returns: The line as typed (spaces kept), or nil when there is none.
  func readLine(prompt: String) -> String?

  /// A command line, read after showing the REPL's `prompt`; nil at the end of input.
  ///
  /// - Parameter prompt: The REPL's prompt, such as `loans> `.
  /// - Returns: The line as typed, or nil at the end of input.
  func readCommand(prompt: String) -> String?

  /// Whether a question that got an answer fitting no choice is asked again: true where a
  /// person types the answers; false where the lines are written beforehand (a pipe, a file),
  /// whose next line is the session's next command, not another try.
  var asksAgain: Bool { get }
}

extension LineReader {
  /// Readers ask again unless they say otherwise (``StreamLineReader`` does not).
  ///
  /// ```swift
  /// let reader = ScriptedLineReader(["maybe", "1"], echo: { _ in })
  /// print(reader.asksAgain)  // true: a scripted person may try again
  /// ```
  public var asksAgain: Bool { true }

  /// Readers without a history read commands as any other line.
  ///
  /// ```swift
  /// let reader = ScriptedLineReader(["agenda"], echo: { _ in })
  /// print(reader.readCommand(prompt: "cal> ") ?? "end of input")  // agenda
  /// print(reader.readCommand(prompt: "cal> ") ?? "end of input")  // end of input
  /// ```
  ///
  /// - Parameter prompt: The REPL's prompt.
  /// - Returns: What ``readLine(prompt:)`` returns.
  public func readCommand(prompt: String) -> String? { readLine(prompt: prompt) }
}

/// Lines from a list, for tests and scripted sessions; each line read is echoed after its
/// prompt, as a piped session shows it.
///
/// ```swift
/// let transcript = Transcript()
/// let repl = REPL(
///   prompt: "> ", commands: commands,
///   reader: ScriptedLineReader(["help", "quit"], echo: transcript.append),
///   write: transcript.append)
/// _ = repl.run()  // transcript.text starts with "> help\n"
/// ```
///
/// ``Console/scripted(_:transcript:timeZone:now:style:)`` makes a console over one.
public final class ScriptedLineReader: LineReader {
  private var lines: [String]
  private let echo: (String) -> Void

  /// A reader of `lines`, in order.
  ///
  /// ```swift
  /// let transcript = Transcript()
  /// let reader = ScriptedLineReader(["Claire", "42"], echo: transcript.append)
  /// _ = reader.readLine(prompt: "Name: ")
  /// _ = reader.readLine(prompt: "Age: ")
  /// print(transcript.text == "Name: Claire\nAge: 42\n")  // true
  /// ```
  ///
  /// - Parameters:
  ///   - lines: The lines to hand out, without newlines; once they run out every read gives
  ///     nil, as at the end of input.
  ///   - echo: Called with each prompt, the line read and a newline, as one string; not
  ///     called when there is no line left.
  public init(_ lines: [String], echo: @escaping (String) -> Void) {
    self.lines = lines
    self.echo = echo
  }

  /// The next line, echoed after `prompt`; commands and answers alike.
  ///
  /// ```swift
  /// let reader = ScriptedLineReader(["  spaced  "], echo: { print($0, terminator: "") })
  /// let line = reader.readLine(prompt: "> ")  // echoes "> " + the line + "\n"
  /// print(line == "  spaced  ", reader.readLine(prompt: "> ") == nil)  // true true
  /// ```
  ///
  /// - Parameter prompt: The text echoed before the line.
  /// - Returns: The next line, or nil when none is left.
  public func readLine(prompt: String) -> String? {
    guard !lines.isEmpty else { return nil }
    let line = lines.removeFirst()
    echo(prompt + line + "\n")
    return line
  }
}
