/// Where a REPL, and every prompt that shares its input (the privacy alert, editors' fields),
/// reads its next line: one stream, so that a piped session answers commands, prompts and
/// fields in order.
public protocol LineReader: AnyObject {
  /// The next line after showing `prompt`, without its newline; nil at the end of input.
  func readLine(prompt: String) -> String?
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
