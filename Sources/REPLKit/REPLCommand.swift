/// One command of a REPL: its name, what its arguments look like, one line of help, and what
/// it does with the words that follow its name.
public struct REPLCommand: Sendable {
  public let name: String
  /// The arguments as help shows them, such as `LOAN [--single-events]`.
  public let synopsis: String
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
    self.synopsis = synopsis
    self.help = help
    self.complete = complete
    self.run = run
  }
}

/// A failure a command reports to the person: printed, and the loop goes on.
public struct REPLError: Error, Hashable, CustomStringConvertible {
  public let description: String

  public init(_ description: String) { self.description = description }
}
