/// Where a REPL, and every prompt that shares its input (the privacy alert, editors' fields),
/// reads its next line: one stream, so that a piped session answers commands, prompts and
/// fields in order.
///
/// Two kinds of line are read. A *command* line is what a person types at the REPL's prompt:
/// it goes into the history, and Ctrl-C clears it. A *form* line answers a question a command
/// asks (a name, an amount, the privacy alert): it stays out of the history, since answers
/// are often private and never worth recalling as commands, and Ctrl-C leaves the form.
public protocol LineReader: AnyObject {
  /// The answer to a question, read after showing `prompt`, without its newline; nil at the
  /// end of input, or when the person pressed Ctrl-C to leave the form.
  func readLine(prompt: String) -> String?

  /// A command line, read after showing the REPL's `prompt`; nil at the end of input.
  func readCommand(prompt: String) -> String?
}

extension LineReader {
  /// Readers without a history read commands as any other line.
  public func readCommand(prompt: String) -> String? { readLine(prompt: prompt) }
}

/// Lines from a list, for tests and scripted sessions; each line read is echoed after its
/// prompt, as a piped session shows it.
public final class ScriptedLineReader: LineReader {
  private var lines: [String]
  private let echo: (String) -> Void

  public init(_ lines: [String], echo: @escaping (String) -> Void) {
    self.lines = lines
    self.echo = echo
  }

  public func readLine(prompt: String) -> String? {
    guard !lines.isEmpty else { return nil }
    let line = lines.removeFirst()
    echo(prompt + line + "\n")
    return line
  }
}
