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
///   try show(loanNamed: words[0])
/// }
/// ```
public struct REPLCommand: Sendable {
  public let name: String
  /// The arguments as help shows them, such as `LOAN [--single-events]` (``Synopsis``).
  public let synopsis: Synopsis
  public let help: String
  public let run: @Sendable ([String]) throws -> Void
  /// The words that may come next, given the arguments typed so far (calendar titles, item
  /// numbers…), for tab completion; nil when the arguments are not completable.
  public let complete: (@Sendable ([String]) -> [String])?

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
public struct REPLError: Error, Hashable, CustomStringConvertible {
  public let description: String

  public init(_ description: String) { self.description = description }
}
