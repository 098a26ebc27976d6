/// What a command's arguments look like, as its help shows them, read as a pattern that the
/// REPL checks a command line against before running the command, so that no command writes
/// its own `usage:` message (or gets it out of step with its help).
///
/// - `LOAN N`: placeholders, one word each (quotes make several words one).
/// - `[WHEN]`, `[CONTACT AMOUNT]`: an optional group, all or nothing.
/// - `TITLE...`: one word or more.
/// - `--future`: a flag, allowed anywhere among the words; any other word starting with `--`
///   is refused.
/// - `A B | [--single-events]`: alternative forms, each a line of its own in the help.
///
/// ```swift
/// let synopsis = Synopsis("LOAN N [--future]")
/// synopsis.accepts(["1", "2", "--future"])  // true
/// synopsis.accepts(["1"])                   // false: the REPL prints "usage: … LOAN N [--future]"
/// ```
public struct Synopsis: Sendable, Hashable, CustomStringConvertible {
  /// The text as written.
  public let description: String
  /// Each alternative form, as help shows it on a line of its own.
  public let forms: [String]
  /// The flags the synopsis names, such as `--single-events`.
  public let flags: Set<String>
  private let counts: [Counts]

  /// Reads a pattern.
  ///
  /// A pattern always reads: brackets that do not match are taken as closed where the text
  /// ends (an extra `]` ends the form early), so keep them paired.
  ///
  /// ```swift
  /// let synopsis = Synopsis("TITLE... | --all")
  /// print(synopsis.forms)  // ["TITLE...", "--all"]
  /// print(synopsis.flags)  // ["--all"]
  /// ```
  ///
  /// - Parameter text: The arguments as help shows them, `|` between alternative forms;
  ///   empty for a command that takes no words.
  public init(_ text: String) {
    description = text
    forms = text.split(separator: "|", omittingEmptySubsequences: false)
      .map { $0.trimmingCharacters(in: .whitespaces) }
    var flags: Set<String> = []
    counts = forms.map { form in
      var tokens = Synopsis.tokens(form)[...]
      return Synopsis.sequence(&tokens, flags: &flags)
    }
    self.flags = flags
  }

  /// Whether `words` (what follows the command's name) fit one of the forms.
  ///
  /// ```swift
  /// let synopsis = Synopsis("NAME [AMOUNT]")
  /// print(synopsis.accepts(["Claire"]), synopsis.accepts(["Claire", "12"]))  // true true
  /// print(synopsis.accepts([]), synopsis.accepts(["Claire", "--now"]))  // false false
  /// ```
  ///
  /// - Parameter words: The words after the command's name, as ``CommandLineWords`` split
  ///   them.
  /// - Returns: True when ``misfit(_:)`` finds nothing wrong.
  public func accepts(_ words: [String]) -> Bool { misfit(words) == nil }

  /// How `words` do not fit, for the person: nil when they fit.
  ///
  /// ``misfit(_:)`` gives one; the REPL words each as its `usage:` answer:
  ///
  /// ```swift
  /// Synopsis("LOAN N [--future]").misfit(["1", "--past"])  // .unknownOption("--past")
  /// // error: unknown option '--past'; usage: delete-payment LOAN N [--future]
  /// ```
  public enum Misfit: Sendable, Hashable {
    /// A word that starts with `--` and is none of the flags.
    case unknownOption(String)
    /// More words than any form takes: often a value of several words typed without quotes.
    case tooManyWords
    /// A number of words no form takes.
    case wrongCount
  }

  /// How `words` fail to fit every form, for the REPL's `usage:` answer; nil when they fit
  /// one.
  ///
  /// Flags are checked first, then the number of other words: flags may come anywhere and
  /// any number of times, and do not count as words. What the words say is not checked.
  ///
  /// ```swift
  /// let synopsis = Synopsis("LOAN N [--future]")
  /// synopsis.misfit(["1", "--past"])   // .unknownOption("--past")
  /// synopsis.misfit(["1", "2", "3"])   // .tooManyWords
  /// synopsis.misfit(["1"])             // .wrongCount
  /// synopsis.misfit(["1", "2"])        // nil
  /// ```
  ///
  /// - Parameter words: The words after the command's name.
  /// - Returns: The first reason found, or nil.
  public func misfit(_ words: [String]) -> Misfit? {
    if let unknown = words.first(where: { $0.hasPrefix("--") && !flags.contains($0) }) {
      return .unknownOption(unknown)
    }
    let positionals = words.count { !flags.contains($0) }
    if counts.contains(where: { $0.allows(positionals) }) { return nil }
    let most = counts.map { $0.atLeast == nil ? $0.exact.max() ?? 0 : Int.max }.max() ?? 0
    // Quotes help only a command that takes words at all.
    return positionals > most && most > 0 ? .tooManyWords : .wrongCount
  }

  // MARK: Reading the pattern

  /// How many positional words a part of the pattern takes: some exact numbers, and every
  /// number from `atLeast` on when it has a `...`.
  private struct Counts: Sendable, Hashable {
    var exact: Set<Int>
    var atLeast: Int?

    static let zero = Counts(exact: [0], atLeast: nil)

    func allows(_ count: Int) -> Bool {
      exact.contains(count) || atLeast.map { count >= $0 } ?? false
    }

    private var smallest: Int { min(exact.min() ?? .max, atLeast ?? .max) }

    /// One part followed by another.
    func then(_ next: Counts) -> Counts {
      var exact: Set<Int> = []
      for a in self.exact { for b in next.exact { exact.insert(a + b) } }
      // Every part allows some number, so neither smallest is `.max`.
      let open = [atLeast.map { $0 + next.smallest }, next.atLeast.map { $0 + smallest }]
      return Counts(exact: exact, atLeast: open.compactMap { $0 }.min())
    }

    /// The part, or nothing.
    var optional: Counts { Counts(exact: exact.union([0]), atLeast: atLeast) }
  }

  private static func tokens(_ form: String) -> [String] {
    var tokens: [String] = []
    var word = ""
    for character in form {
      if character == "[" || character == "]" || character == " " {
        if !word.isEmpty { tokens.append(word) }
        word = ""
        if character != " " { tokens.append(String(character)) }
      } else {
        word.append(character)
      }
    }
    if !word.isEmpty { tokens.append(word) }
    return tokens
  }

  /// Parts up to the end or to the `]` that closes the group being read.
  private static func sequence(
    _ tokens: inout ArraySlice<String>, flags: inout Set<String>
  ) -> Counts {
    var counts = Counts.zero
    while let token = tokens.popFirst() {
      switch token {
      case "]": return counts
      case "[": counts = counts.then(sequence(&tokens, flags: &flags).optional)
      case let flag where flag.hasPrefix("--"): flags.insert(flag)
      case let word where word.hasSuffix("..."): counts = counts.then(Counts(exact: [], atLeast: 1))
      default: counts = counts.then(Counts(exact: [1], atLeast: nil))
      }
    }
    return counts
  }
}
