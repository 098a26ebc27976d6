import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Lines from a C stream without line editing: how a REPL reads when standard input is not a
/// terminal. Each line read is echoed after its prompt, so that the output of a piped session
/// reads like the session a person would have typed.
///
/// ``standardLineReader(app:)`` makes one over standard input when it is not a terminal. It
/// keeps no history, so commands are read as any other line.
///
/// ```swift
/// guard let file = fopen("answers.txt", "r") else { return }
/// defer { fclose(file) }
/// let reader = StreamLineReader(input: file) { text in print(text, terminator: "") }
/// let name = reader.readLine(prompt: "Name: ")  // "Claire"; prints "Name: Claire\n"
/// ```
public final class StreamLineReader: LineReader {
  private let input: UnsafeMutablePointer<FILE>
  private let echo: (String) -> Void

  /// A reader of a C stream.
  ///
  /// ```swift
  /// // Commands from a file, as a script of the session (standard input is what
  /// // standardLineReader(app:) reads when it is not a terminal).
  /// guard let input = fopen("commands.txt", "r") else { return }
  /// defer { fclose(input) }
  /// let reader = StreamLineReader(input: input) { text in print(text, terminator: "") }
  /// let repl = REPL(
  ///   prompt: "> ", commands: [], reader: reader, write: { print($0, terminator: "") })
  /// exit(repl.run())
  /// ```
  ///
  /// - Parameters:
  ///   - input: The stream lines are read from; it is not closed by the reader, and must stay
  ///     open while the reader is used.
  ///   - echo: Called with each prompt, the line read and a newline, as one string; not
  ///     called at the end of input.
  public init(input: UnsafeMutablePointer<FILE>, echo: @escaping (String) -> Void) {
    self.input = input
    self.echo = echo
  }

  /// A piped or scripted-from-a-file session's next line is its next command: a question is
  /// asked once.
  ///
  /// ```swift
  /// guard let file = fopen("answers.txt", "r") else { return }
  /// defer { fclose(file) }
  /// print(StreamLineReader(input: file) { _ in }.asksAgain)  // false
  /// ```
  public var asksAgain: Bool { false }

  /// The next line of the stream, echoed after `prompt`.
  ///
  /// A line's ending (`\n`, `\r\n`) is dropped; a last line without one is read too. The
  /// prompt is not shown before reading, only echoed with the line.
  ///
  /// ```swift
  /// guard let file = fopen("names.txt", "r") else { return }  // "Ann\r\nBob" (no final newline)
  /// defer { fclose(file) }
  /// let reader = StreamLineReader(input: file) { _ in }
  /// while let name = reader.readLine(prompt: "Name: ") {
  ///   print(name)  // Ann, then Bob
  /// }
  /// ```
  ///
  /// - Parameter prompt: The text echoed before the line.
  /// - Returns: The line, or nil at the end of the stream (or on a read error).
  public func readLine(prompt: String) -> String? {
    var buffer: UnsafeMutablePointer<CChar>?
    var capacity = 0
    defer { free(buffer) }
    let length = getline(&buffer, &capacity, input)
    guard length >= 0, let buffer else { return nil }
    var line = String(cString: buffer)
    // By scalars: Swift counts "\r\n" as one character.
    while let last = line.unicodeScalars.last, last == "\n" || last == "\r" {
      line.unicodeScalars.removeLast()
    }
    echo(prompt + line + "\n")
    return line
  }
}
