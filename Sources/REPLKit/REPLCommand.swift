/// One command of a REPL: its name, what its arguments look like, one line of help, and what
/// it does with the words that follow its name.
///
/// The REPL checks the words against ``synopsis`` before running the command, and answers a
/// line that does not fit with `usage:` and the synopsis; the command reads words it knows are
/// there. A command reports a failure by throwing any error: the REPL prints it (its
/// `description`, or an `NSError`'s localized description) and goes on.
///
/// ```swift
/// REPLCommand("show", synopsis: "LOAN", help: "Shows a loan's schedule.") { words in
///   console.print("The schedule of loan \(words[0])")
/// }
/// ```
public struct REPLCommand: Sendable {
  /// The first word of the command's lines, such as `show`.
  public let name: String
  /// The arguments as help shows them, such as `LOAN [--single-events]` (``Synopsis``).
  public let synopsis: Synopsis
  /// One line of help, shown after the command's forms by `help` and `help COMMAND`.
  public let help: String
  /// What the command does, given the words after its name (flags included, quotes removed),
  /// once they fit ``synopsis``; it throws to report a failure.
  public let run: @Sendable ([String]) throws -> Void
  /// The words that may come next, given the arguments typed so far (calendar titles, item
  /// numbers…), for tab completion; nil when the arguments are not completable.
  public let complete: (@Sendable ([String]) -> [String])?

  /// A command for a ``REPL``'s table.
  ///
  /// ```swift
  /// REPLCommand(
  ///   "payment", synopsis: "LOAN N", help: "Shows payment N's event.",
  ///   complete: { words in words.isEmpty ? ["1", "2", "3"] : [] }  // the loans' numbers
  /// ) { words in console.print("Payment \(words[1]) of loan \(words[0])") }
  /// ```
  ///
  /// - Parameters:
  ///   - name: The word that runs the command; not `help`, `quit` or `exit`, which the REPL
  ///     keeps for itself.
  ///   - synopsis: The arguments as a ``Synopsis`` pattern, such as `LOAN N [--future]`;
  ///     empty (the default) for a command that takes none.
  ///   - help: One line saying what the command does.
  ///   - complete: The words Tab may offer next, given the arguments typed so far; nil (the
  ///     default) offers nothing.
  ///   - run: The command's body, given the words after its name; any error it throws is
  ///     printed as `error: …` (``ErrorText``) and counted as a failure.
  public init(
    _ name: String, synopsis: String = "", help: String,
    complete: (@Sendable ([String]) -> [String])? = nil,
    run: @escaping @Sendable ([String]) throws -> Void
  ) {
    self.name = name
    self.synopsis = Synopsis(synopsis)
    self.help = help
    self.complete = complete
    self.run = run
  }

  /// Each form of the command as help shows it: `show LOAN`.
  public var usages: [String] {
    synopsis.forms.map { $0.isEmpty ? name : "\(name) \($0)" }
  }
}

/// A failure a command reports to the person: printed, and the loop goes on.
///
/// For a failure with no error type of its own; any error a command throws is printed the
/// same way, in its own words (``ErrorText``).
///
/// ```swift
/// REPLCommand("pay", synopsis: "LOAN N", help: "Marks payment N as paid.") { words in
///   guard let number = Int(words[1]) else { throw REPLError("'\(words[1])' is not a number") }
///   console.print("Payment \(number) of loan \(words[0]) is paid.")
/// }
/// // loans> pay 3 x
/// // error: 'x' is not a number
/// ```
public struct REPLError: Error, Hashable, CustomStringConvertible {
  /// The message, as the person reads it after `error: `.
  public let description: String

  /// An error with a message.
  ///
  /// ```swift
  /// let error = REPLError("no loan 7; 'list' shows the loans")
  /// print(ErrorText.of(error))  // no loan 7; 'list' shows the loans
  /// ```
  ///
  /// - Parameter description: A sentence, or a phrase, saying what went wrong and, where it
  ///   helps, what to do instead; without `error:` or a final newline.
  public init(_ description: String) { self.description = description }
}
