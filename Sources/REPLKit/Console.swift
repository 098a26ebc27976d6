import Foundation

/// Everything a sample's front end reads from and writes to, in one place: the line reader
/// that commands, prompts and editors share, the output, how it is styled, and the session's
/// clock and time zone. Views and editors take a console, so a test runs them on scripted
/// lines with a fixed clock and reads back exactly what a person would have seen.
///
/// A console is used from one thread at a time (the REPL's, or the one a prompt runs on while
/// the REPL waits for it).
public final class Console: @unchecked Sendable {
  public let reader: any LineReader
  public let style: TerminalStyle
  public let timeZone: TimeZone
  private let clock: @Sendable () -> Date
  private let output: (String) -> Void

  public init(
    reader: any LineReader, style: TerminalStyle, timeZone: TimeZone = .current,
    clock: @escaping @Sendable () -> Date = { Date() }, output: @escaping (String) -> Void
  ) {
    self.reader = reader
    self.style = style
    self.timeZone = timeZone
    self.clock = clock
    self.output = output
  }

  /// The console of this process: readline on a terminal, echoed lines when piped; colour
  /// only on a terminal; the clock of `--now` when given.
  public static func standard(app: String, options: SessionOptions) -> Console {
    Console(
      reader: standardLineReader(app: app), style: .forStandardOutput(),
      clock: options.clock
    ) { text in
      FileHandle.standardOutput.write(Data(text.utf8))
    }
  }

  /// The session's current time.
  public var now: Date { clock() }

  public func write(_ text: String) { output(text) }

  /// Writes lines, each ended by a newline.
  public func print(_ lines: String...) {
    for line in lines { output(line + "\n") }
  }

  /// The next line after `prompt`, without surrounding spaces; nil at the end of input (or
  /// when the person pressed Ctrl-C on a terminal to leave the form).
  public func ask(_ prompt: String) -> String? {
    reader.readLine(prompt: prompt)?.trimmingCharacters(in: .whitespaces)
  }

  /// Asks for one value until an answer reads as one: `read` turns the answer into the value
  /// or throws an error whose text is shown before asking again. An empty answer stands for
  /// `default` when there is one. Nil when the person types `cancel`, presses Ctrl-C, or the
  /// input ends: the caller stops what it was doing and changes nothing.
  ///
  /// ```swift
  /// guard let amount = console.ask("Amount", read: LoanTerms.amount) else { return }
  /// // Amount: -3
  /// // '-3' is not an amount; give one such as 1320.38 (no sign)
  /// // Amount: 1320.38
  /// ```
  public func ask<Value>(
    _ label: String, default value: String? = nil, read: (String) throws -> Value
  ) -> Value? {
    while true {
      guard var answer = ask("\(label)\(value.map { " [\($0)]" } ?? ""): "),
        answer.lowercased() != "cancel"
      else { return nil }
      if answer.isEmpty, let value { answer = value }
      do {
        return try read(answer)
      } catch {
        print(ErrorText.of(error))
      }
    }
  }

  /// Prints rows in columns two spaces apart, each as wide as its widest cell (the last one
  /// left as it is), indented by two spaces; `header`, when given, comes first.
  ///
  /// ```
  ///   #  due         amount   paid
  ///   1  2025-03-02  $440.13  no
  /// ```
  public func table(_ rows: [[String]], header: [String]? = nil) {
    let all = (header.map { [$0] } ?? []) + rows
    let columns = all.map(\.count).max() ?? 0
    let widths = (0..<columns).map { column in
      all.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0
    }
    for row in all {
      let cells = row.enumerated().map { column, cell in
        column == row.count - 1
          ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
      }
      let line = "  " + cells.joined(separator: "  ")
      print(String(line.reversed().drop { $0 == " " }.reversed()))
    }
  }

  /// Asks until the answer is one of `choices` (matched by number, by the whole word, by
  /// the start of one word alone, or by one of `aliases`); nil at the end of input or after
  /// three answers that fit none.
  public func choose(
    _ prompt: String, among choices: [String], aliases: [String: Int] = [:]
  ) -> Int? {
    for _ in 0..<3 {
      guard let answer = ask(prompt)?.lowercased() else { return nil }
      if let number = Int(answer), number >= 1, number <= choices.count { return number - 1 }
      if let index = aliases[answer] { return index }
      if let index = choices.firstIndex(where: { $0.lowercased() == answer }) { return index }
      let initials = choices.indices.filter {
        !answer.isEmpty && choices[$0].lowercased().hasPrefix(answer)
      }
      if initials.count == 1 { return initials[0] }
      print("Please answer " + Console.list(choices.indices.map { "\($0 + 1)" }, or: true) + ".")
    }
    return nil
  }

  /// "a, b and c" (or "a, b or c").
  public static func list(_ items: [String], or: Bool = false) -> String {
    guard items.count > 1 else { return items.first ?? "" }
    return items.dropLast().joined(separator: ", ") + (or ? " or " : " and ") + items.last!
  }
}

/// What a console wrote, for tests: text gathered in order.
public final class Transcript: @unchecked Sendable {
  public private(set) var text = ""

  public init() {}

  public func append(_ more: String) { text += more }
}

extension Console {
  /// A console over fixed lines with no styling, whose output (with each line read echoed
  /// after its prompt, as a piped session shows it) goes to `transcript`.
  public static func scripted(
    _ lines: [String], transcript: Transcript, timeZone: TimeZone,
    now: Date, style: TerminalStyle = .plain
  ) -> Console {
    Console(
      reader: ScriptedLineReader(lines, echo: transcript.append), style: style,
      timeZone: timeZone, clock: { now }, output: transcript.append)
  }
}
