import ArgumentParser
import Foundation

/// One command of a REPL: its name, one line of help, the arguments it takes, declared with
/// swift-argument-parser as ekctl's are, and what it does with them.
///
/// The REPL reads the words after the name into the arguments before running the command
/// (``NamedArguments``), and answers words that do not read with ArgumentParser's error and
/// usage, as ekctl does; the command gets typed values, with no flag of its own to look for.
/// A command reports a failure by throwing any error: the REPL prints it (its `description`,
/// or an `NSError`'s localized description) and goes on.
///
/// ```swift
/// import ArgumentParser
///
/// struct Show: ParsableArguments {
///   @Argument(help: "The loan's number.") var loan: Int
/// }
/// REPLCommand("show", Show.self, help: "Shows a loan's schedule.") { show in
///   console.print("The schedule of loan \(show.loan)")
/// }
/// ```
public struct REPLCommand: Sendable {
  /// The first word of the command's lines, such as `show`.
  public let name: String
  /// One line of help, shown after the command's usage by `help`, and as the `OVERVIEW:` of
  /// `help COMMAND`.
  public let help: String
  /// The command's usage line, as ArgumentParser writes it: `show <loan>`,
  /// `delete-payment <loan> <n> [--future]`.
  public let usage: String
  /// The full help of the command (`help COMMAND`, `COMMAND --help`): ArgumentParser's, with
  /// each argument's and option's own help.
  public let manual: String
  /// The long options and flags the command takes, for Tab.
  public let options: [String]
  /// Reads the words into the command's arguments and, when they read, runs `started` and
  /// then the command; throws ``ArgumentsAnswer`` when they do not.
  let perform: @Sendable (_ words: [String], _ started: () -> Void) throws -> Void
  /// The words that may come next, given the arguments typed so far (calendar titles, item
  /// numbers…), for tab completion; nil when the arguments are not completable.
  public let complete: (@Sendable ([String]) -> [String])?

  /// A command with arguments, for a ``REPL``'s table.
  ///
  /// ```swift
  /// import ArgumentParser
  ///
  /// struct Payment: ParsableArguments {
  ///   @Argument(help: "The loan's number.") var loan: Int
  ///   @Argument(help: "The payment's number, from 1.") var n: Int
  /// }
  /// let payment = REPLCommand(
  ///   "payment", Payment.self, help: "Shows payment N's event.",
  ///   complete: { words in words.isEmpty ? ["1", "2", "3"] : [] }  // the loans' numbers
  /// ) { payment in console.print("Payment \(payment.n) of loan \(payment.loan)") }
  /// print(payment.usage)  // payment <loan> <n>
  /// ```
  ///
  /// - Parameters:
  ///   - name: The word that runs the command; not `help`, `quit` or `exit`, which the REPL
  ///     keeps for itself.
  ///   - arguments: The arguments' type, declared with ArgumentParser's `@Argument`,
  ///     `@Option` and `@Flag`; its `validate()` runs before the command.
  ///   - help: One line saying what the command does.
  ///   - complete: The words Tab may offer next, given the arguments typed so far; nil (the
  ///     default) offers nothing but the options.
  ///   - run: The command's body, given the arguments read; any error it throws is printed
  ///     as `Error: …` (``ErrorText``) and counted as a failure.
  public init<Arguments: ParsableArguments>(
    _ name: String, _ arguments: Arguments.Type, help: String,
    complete: (@Sendable ([String]) -> [String])? = nil,
    run: @escaping @Sendable (Arguments) throws -> Void
  ) {
    let named = NamedArguments(arguments, name: name, abstract: help)
    self.name = name
    self.help = help
    usage = named.usage
    manual = named.help
    options = named.options
    self.complete = complete
    perform = { words, started in
      let arguments = try named.parse(words)
      started()
      try run(arguments)
    }
  }

  /// A command that takes no arguments: a word after its name is refused, with its usage.
  ///
  /// ```swift
  /// let today = REPLCommand("today", help: "Shows today's date.") {
  ///   console.print("It is \(console.now).")
  /// }
  /// print(today.usage)  // today
  /// ```
  ///
  /// - Parameters:
  ///   - name: The word that runs the command; not `help`, `quit` or `exit`.
  ///   - help: One line saying what the command does.
  ///   - run: The command's body; any error it throws is printed as `Error: …`.
  public init(_ name: String, help: String, run: @escaping @Sendable () throws -> Void) {
    self.init(name, NoArguments.self, help: help) { _ in try run() }
  }
}

/// A failure a command reports to the person: printed, and the loop goes on.
///
/// For a failure with no error type of its own; any error a command throws is printed the
/// same way, in its own words (``ErrorText``).
///
/// ```swift
/// import ArgumentParser
///
/// struct Pay: ParsableArguments {
///   @Argument(help: "The loan's number.") var loan: Int
///   @Argument(help: "The payment's number, from 1.") var n: Int
/// }
/// REPLCommand("pay", Pay.self, help: "Marks payment N as paid.") { pay in
///   guard pay.n >= 1 else { throw REPLError("payments are numbered from 1, not \(pay.n)") }
///   console.print("Payment \(pay.n) of loan \(pay.loan) is paid.")
/// }
/// // loans> pay 3 0
/// // Error: payments are numbered from 1, not 0
/// ```
public struct REPLError: Error, Hashable, CustomStringConvertible {
  /// The message, as the person reads it after `Error: `.
  public let description: String

  /// An error with a message.
  ///
  /// ```swift
  /// let error = REPLError("no loan 7; 'list' shows the loans")
  /// print(ErrorText.of(error))  // no loan 7; 'list' shows the loans
  /// ```
  ///
  /// - Parameter description: A sentence, or a phrase, saying what went wrong and, where it
  ///   helps, what to do instead; without `Error:` or a final newline.
  public init(_ description: String) { self.description = description }
}

extension REPLError: LocalizedError {
  /// The message, so that `localizedDescription` gives it too, as it does an `EKError`'s:
  /// code that prints any error with `localizedDescription` reads the sentence.
  ///
  /// ```swift
  /// let error: any Error = REPLError("no loan 7")
  /// print(error.localizedDescription)  // no loan 7
  /// ```
  public var errorDescription: String? { description }
}
