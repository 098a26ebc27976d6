import Foundation

/// Everything a sample's front end reads from and writes to, in one place: the line reader
/// that commands, prompts and editors share, the output, how it is styled, and the session's
/// clock and time zone. Views and editors take a console, so a test runs them on scripted
/// lines with a fixed clock and reads back exactly what a person would have seen.
///
/// A console is used from one thread at a time (the REPL's, or the one a prompt runs on while
/// the REPL waits for it).
///
/// A program makes its console with ``standard(app:options:)``; a test makes one with
/// ``scripted(_:transcript:timeZone:now:style:)`` and reads what it wrote from a
/// ``Transcript``:
///
/// ```swift
/// let transcript = Transcript()
/// let console = Console.scripted(
///   ["-3", "12"], transcript: transcript, timeZone: .gmt, now: Date())
/// let read: (String) throws -> Int = { text in
///   guard let number = Int(text), number > 0 else { throw REPLError("'\(text)' is not a count") }
///   return number
/// }
/// let count = console.ask("Count", read: read)  // 12
/// // transcript.text == "Count: -3\n'-3' is not a count\nCount: 12\n"
/// ```
public final class Console: @unchecked Sendable {
  /// The one input stream that the REPL's commands, prompts and editors' fields all read, in
  /// order.
  public let reader: any LineReader
  /// How text written to this console is decorated (colour, box drawing), for views that
  /// style what they write.
  public let style: TerminalStyle
  /// The session's time zone: the clock that dates are shown and typed dates read on.
  public let timeZone: TimeZone
  private let clock: @Sendable () -> Date
  private let output: (String) -> Void

  /// Makes a console from its parts; ``standard(app:options:)`` and
  /// ``scripted(_:transcript:timeZone:now:style:)`` make the usual ones.
  ///
  /// ```swift
  /// var lines: [String] = []
  /// let console = Console(
  ///   reader: ScriptedLineReader(["yes"], echo: { _ in }), style: .plain, timeZone: .gmt,
  ///   clock: { Date(timeIntervalSince1970: 0) }, output: { lines.append($0) })
  /// console.print("Started at \(console.now)")
  /// print(lines)  // ["Started at 1970-01-01 00:00:00 +0000\n"]
  /// ```
  ///
  /// - Parameters:
  ///   - reader: Where every line is read: commands, prompts and fields.
  ///   - style: How written text is decorated.
  ///   - timeZone: The session's time zone; the process's own by default.
  ///   - clock: The session's current time, read each time ``now`` is asked; the real clock
  ///     by default, a fixed time for reproducible sessions and tests.
  ///   - output: Where written text goes, exactly as given (newlines included).
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
  ///
  /// Its output is standard output, and its time zone the process's (`TZ`).
  ///
  /// ```swift
  /// let options = SessionOptions.forThisProcess(app: "loan-scheduler", errors: .standardError)
  /// let console = Console.standard(app: "loan-scheduler", options: options)
  /// ```
  ///
  /// - Parameters:
  ///   - app: The app's name, which names its history file on a terminal
  ///     (``TerminalLineReader/historyFile(app:environment:)``).
  ///   - options: The session's options, whose ``SessionOptions/clock`` the console keeps.
  /// - Returns: A console over ``standardLineReader(app:)`` and
  ///   ``TerminalStyle/forStandardOutput(environment:)``.
  public static func standard(app: String, options: SessionOptions) -> Console {
    Console(
      reader: standardLineReader(app: app), style: .forStandardOutput(),
      clock: options.clock
    ) { text in
      TerminalLineReader.makeRoomAbovePrompt()  // when written while the prompt waits
      FileHandle.standardOutput.write(Data(text.utf8))
    }
  }

  /// The session's current time.
  public var now: Date { clock() }

  /// Writes text, adding no newline: for text that already ends its lines, such as a view's
  /// rendering.
  ///
  /// What would act on the terminal is shown instead (``InertText``): text keeps its line
  /// breaks and, when ``style`` uses colour, its colour codes; any other control, escape or
  /// bidi character is written as `\u{…}`, so that a calendar's name or an event's title in
  /// a sentence can neither clear the screen nor set the window's title. A view makes its
  /// data values inert on one line itself, before it measures or styles them.
  ///
  /// ```swift
  /// let transcript = Transcript()
  /// let console = Console.scripted([], transcript: transcript, timeZone: .gmt, now: Date())
  /// console.write("Saving… ")
  /// console.write("done\n")
  /// print(transcript.text == "Saving… done\n")  // true
  /// ```
  ///
  /// - Parameter text: The text to write.
  public func write(_ text: String) {
    output(InertText.keepingStyle(text, colours: style.usesColor))
  }

  /// Writes lines, each ended by a newline.
  ///
  /// ```swift
  /// console.print("Deleted loan 3.", "  Removed the event of payments 1 and 2.")
  /// ```
  ///
  /// Like ``write(_:)``, what would act on the terminal is shown instead.
  ///
  /// - Parameter lines: The lines, without their newlines; none writes nothing.
  public func print(_ lines: String...) {
    for line in lines { write(line + "\n") }
  }

  /// The next line after `prompt`, without surrounding spaces; nil at the end of input (or
  /// when the person pressed Ctrl-C on a terminal to leave the form).
  ///
  /// The line is read as a form's answer (``LineReader/readLine(prompt:)``): kept out of the
  /// history. Nothing is added to `prompt`: give it its own `: ` or `? `.
  ///
  /// ```swift
  /// guard let name = console.ask("Name: ") else { return }  // cancelled
  /// ```
  ///
  /// - Parameter prompt: The text shown before the answer, inert like ``write(_:)``'s (it
  ///   often shows a field's current value).
  /// - Returns: The answer with spaces and tabs trimmed from both ends (possibly empty), or
  ///   nil when there is none.
  public func ask(_ prompt: String) -> String? {
    reader.readLine(prompt: InertText.keepingStyle(prompt, colours: style.usesColor))?
      .trimmingCharacters(in: .whitespaces)
  }

  /// Asks for one value until an answer reads as one: `read` turns the answer into the value
  /// or throws an error whose text is shown before asking again. An empty answer stands for
  /// `default` when there is one. Nil when the person types `cancel`, presses Ctrl-C, or the
  /// input ends: the caller stops what it was doing and changes nothing.
  ///
  /// ```swift
  /// let amountOf: (String) throws -> Double = { text in
  ///   guard let amount = Double(text), amount > 0 else {
  ///     throw REPLError("'\(text)' is not an amount; give one such as 1320.38 (no sign)")
  ///   }
  ///   return amount
  /// }
  /// guard let amount = console.ask("Amount", read: amountOf) else { return }
  /// // Amount: -3
  /// // '-3' is not an amount; give one such as 1320.38 (no sign)
  /// // Amount: 1320.38
  /// ```
  ///
  /// The prompt is `label`, then the default in brackets when there is one, then `: `
  /// (`Count [5]: `). An error `read` throws is shown in its own words (``ErrorText``) and does
  /// not end the question: only `cancel` (in any case), Ctrl-C or the end of input do.
  ///
  /// - Parameters:
  ///   - label: What is asked, without punctuation: `Amount`.
  ///   - value: The answer an empty line stands for, shown in brackets; nil when an empty
  ///     line is handed to `read` like any other.
  ///   - read: Turns an answer (trimmed, or the default) into the value, or throws an error
  ///     whose text tells the person what was expected.
  /// - Returns: The first value `read` returns, or nil when the person cancelled or the input
  ///   ended.
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
        print(ErrorText.shortened(ErrorText.of(error)))  // a long answer is not echoed whole
      }
    }
  }

  /// Prints rows in columns two spaces apart, each as wide as its widest cell (the last one
  /// left as it is), indented by two spaces; `header`, when given, comes first. The layout is
  /// ``TextTable``'s: cells made inert, widths in terminal columns, none cut.
  ///
  /// ```
  ///   #  due         amount   paid
  ///   1  2025-03-02  $440.13  no
  /// ```
  ///
  /// ```swift
  /// console.table(
  ///   [["1", "2025-03-02", "$440.13", "no"]], header: ["#", "due", "amount", "paid"])
  /// ```
  ///
  /// - Parameters:
  ///   - rows: The rows, each a list of cells; rows may have different numbers of cells.
  ///   - header: The first row, when given; it is styled like the others.
  public func table(_ rows: [[String]], header: [String]? = nil) {
    var table = TextTable(rows: rows, header: header)
    table.indent = 2
    for line in table.lines { print(line) }
  }

  /// Asks until the answer is one of `choices` (matched by number, by the whole word, by
  /// the start of one word alone, or by one of `aliases`); nil at the end of input or after
  /// three answers that fit none.
  ///
  /// Case is ignored. After an answer that fits none, it prints `Please answer 1, 2 or 3.`
  /// and asks again, except when the reader does not (``LineReader/asksAgain``: a pipe or a
  /// file, a ``StreamLineReader``): there the one line read is the answer or no answer, so that
  /// a mistyped answer does not take the session's next commands for answers. It prints no
  /// list of choices itself: show them (numbered from 1) before calling it.
  ///
  /// ```swift
  /// console.print("  1) Allow", "  2) Don't Allow")
  /// let index = console.choose(
  ///   "Choose 1 or 2: ", among: ["Allow", "Don't Allow"], aliases: ["y": 0, "n": 1])
  /// // "1", "allow", "al" or "y" give 0; nil after three answers that fit neither
  /// ```
  ///
  /// - Parameters:
  ///   - prompt: The question, shown as it is before each answer.
  ///   - choices: The choices, in the order they are numbered (from 1).
  ///   - aliases: Other answers, in lower case, and the index each stands for: `["y": 0]`.
  ///     An alias of `""` makes an empty answer choose.
  /// - Returns: The index in `choices` of the one chosen (from 0), or nil.
  public func choose(
    _ prompt: String, among choices: [String], aliases: [String: Int] = [:]
  ) -> Int? {
    let tries = reader.asksAgain ? 3 : 1
    for attempt in 1...tries {
      guard let answer = ask(prompt)?.lowercased() else { return nil }
      if let number = Int(answer), number >= 1, number <= choices.count { return number - 1 }
      if let index = aliases[answer] { return index }
      if let index = choices.firstIndex(where: { $0.lowercased() == answer }) { return index }
      let initials = choices.indices.filter {
        !answer.isEmpty && choices[$0].lowercased().hasPrefix(answer)
      }
      if initials.count == 1 { return initials[0] }
      guard attempt < tries else { break }
      print("Please answer " + Console.list(choices.indices.map { "\($0 + 1)" }, or: true) + ".")
    }
    return nil
  }

  /// "a, b and c" (or "a, b or c"): items joined as a sentence names them.
  ///
  /// ```swift
  /// Console.list(["save", "edit", "cancel"], or: true)  // "save, edit or cancel"
  /// Console.list(["Claire"])                            // "Claire"
  /// ```
  ///
  /// - Parameters:
  ///   - items: The items, in order.
  ///   - or: Whether the last two are joined by "or" rather than "and".
  /// - Returns: The items as a phrase; the item alone when there is one, empty when none.
  public static func list(_ items: [String], or: Bool = false) -> String {
    guard items.count > 1 else { return items.first ?? "" }
    return items.dropLast().joined(separator: ", ") + (or ? " or " : " and ") + items.last!
  }
}

/// What a console wrote, for tests: text gathered in order.
///
/// A scripted console (``Console/scripted(_:transcript:timeZone:now:style:)``) writes both
/// its output and each line read, after its prompt, to one transcript, so that a test compares
/// the whole session as a person would have seen it:
///
/// ```swift
/// let transcript = Transcript()
/// let console = Console.scripted(["Claire"], transcript: transcript, timeZone: .gmt, now: Date())
/// _ = console.ask("Who? ")
/// console.print("Hello")
/// // transcript.text == "Who? Claire\nHello\n"
/// ```
///
/// It has no lock: write to it from one thread at a time, as a console does.
public final class Transcript: @unchecked Sendable {
  /// Everything appended so far, in order.
  public private(set) var text = ""

  /// An empty transcript.
  ///
  /// ```swift
  /// let transcript = Transcript()
  /// print(transcript.text.isEmpty)  // true
  /// ```
  public init() {}

  /// Adds text at the end, as it is.
  ///
  /// ```swift
  /// let transcript = Transcript()
  /// transcript.append("one ")
  /// transcript.append("two\n")
  /// print(transcript.text == "one two\n")  // true
  /// ```
  ///
  /// - Parameter more: The text to add; a console's output function, or a reader's echo.
  public func append(_ more: String) { text += more }
}

extension Console {
  /// A console over fixed lines with no styling, whose output (with each line read echoed
  /// after its prompt, as a piped session shows it) goes to `transcript`.
  ///
  /// ```swift
  /// let transcript = Transcript()
  /// let console = Console.scripted(
  ///   ["Claire", "cancel"], transcript: transcript, timeZone: .gmt, now: Date())
  /// let name = console.ask("Name: ")  // "Claire"
  /// let age = console.ask("Age", read: { text in Int(text) ?? 0 })  // nil: "cancel"
  /// print(transcript.text == "Name: Claire\nAge: cancel\n", name ?? "", age as Any)
  /// // true Claire nil
  /// ```
  ///
  /// - Parameters:
  ///   - lines: The answers and commands to read, in order; when they run out, reading gives
  ///     nil, as at the end of input.
  ///   - transcript: Where the output and the echoed lines go.
  ///   - timeZone: The session's time zone.
  ///   - now: The session's fixed current time.
  ///   - style: How text is decorated; ``TerminalStyle/plain`` by default.
  /// - Returns: A console over a ``ScriptedLineReader``.
  public static func scripted(
    _ lines: [String], transcript: Transcript, timeZone: TimeZone,
    now: Date, style: TerminalStyle = .plain
  ) -> Console {
    Console(
      reader: ScriptedLineReader(lines, echo: transcript.append), style: style,
      timeZone: timeZone, clock: { now }, output: transcript.append)
  }
}
