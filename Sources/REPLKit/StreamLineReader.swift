import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Lines from a C stream without line editing: how a REPL reads when standard input is not a
/// terminal. Each line read is echoed after its prompt, so that the output of a piped session
/// reads like the session a person would have typed.
public final class StreamLineReader: LineReader {
  private let input: UnsafeMutablePointer<FILE>
  private let echo: (String) -> Void

  public init(input: UnsafeMutablePointer<FILE>, echo: @escaping (String) -> Void) {
    self.input = input
    self.echo = echo
  }

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
