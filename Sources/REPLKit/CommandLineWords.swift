/// Splits a command line into words as a shell would for simple input: spaces separate words,
/// single and double quotes group them (`add "Claire Dupont" 1320.38`), and a backslash keeps
/// the next character as it is. Unlike a shell, an apostrophe between two letters or digits
/// is part of the word, not a quote: `add-recipe Gâteau d'été` names "Gâteau d'été".
///
/// The line is read as Unicode scalars, not as the characters Swift's `String` shows: a quote,
/// space or backslash followed by a combining mark is one `Character` with it, and would
/// otherwise stop being a quote, a space or a backslash.
///
/// A ``REPL`` splits each line it reads this way, then reads the words after the command's
/// name, quotes removed, into its arguments (``NamedArguments``).
///
/// ```swift
/// try CommandLineWords.split(#"add "Claire Dupont" 1320.38"#)
/// // ["add", "Claire Dupont", "1320.38"]
/// try CommandLineWords.split(#"note a\ b 'c d'"#)  // ["note", "a b", "c d"]
/// try CommandLineWords.split(#"add "Claire"#)      // throws: missing closing "
/// ```
public enum CommandLineWords {
  /// Why a line cannot be split: a quote left open, or a backslash with nothing after it.
  ///
  /// A ``REPL`` prints it as `Error: …` (counted as a failed command) and reads the next line.
  ///
  /// ```swift
  /// do {
  ///   _ = try CommandLineWords.split(#"add "Claire"#)
  /// } catch {
  ///   print(error.description)  // missing closing "
  /// }
  /// ```
  public struct Error: Swift.Error, Hashable, CustomStringConvertible {
    /// What is wrong with the line, in words: `missing closing "` or
    /// `a backslash ends the line`.
    public let description: String
  }

  /// The words of a command line, with quotes removed and escapes resolved.
  ///
  /// Spaces and tabs outside quotes separate words; runs of them count as one, and leading or
  /// trailing ones make no empty word. Inside double quotes a backslash still escapes the next
  /// character; inside single quotes it is kept as it is. A pair of quotes with nothing
  /// between (`""`) is an empty word. A `'` with a letter or digit on each side is an
  /// apostrophe, kept in the word, inside single quotes too (`'Gâteau d'été'`).
  ///
  /// ```swift
  /// print(try CommandLineWords.split("  show   3 "))  // ["show", "3"]
  /// print(try CommandLineWords.split(#"rename 'Book club' "Reading \"group\"""#))
  /// // ["rename", "Book club", "Reading \"group\""]
  /// print(try CommandLineWords.split(#"note """#))  // ["note", ""]
  /// print(try CommandLineWords.split("add-recipe Gâteau d'été"))
  /// // ["add-recipe", "Gâteau", "d'été"]
  /// ```
  ///
  /// - Parameter line: The line as typed, without its newline.
  /// - Returns: The words in order; empty for a blank line.
  /// - Throws: ``Error`` when a quote is not closed by the end of the line, or when the line
  ///   ends with a backslash that escapes nothing.
  public static func split(_ line: String) throws(Error) -> [String] {
    var words: [String] = []
    var current = String.UnicodeScalarView()
    var inWord = false
    var quote: Unicode.Scalar?
    var escaping = false
    let scalars = Array(line.unicodeScalars)
    for (index, scalar) in scalars.enumerated() {
      if escaping {
        current.append(scalar)
        escaping = false
        continue
      }
      switch scalar {
      case "\\" where quote != "'":
        escaping = true
        inWord = true
      case "'" where isApostrophe(at: index, in: scalars):
        current.append(scalar)
        inWord = true
      case "\"", "'":
        if quote == nil {
          quote = scalar
          inWord = true
        } else if quote == scalar {
          quote = nil
        } else {
          current.append(scalar)
        }
      case " ", "\t":
        if quote != nil {
          current.append(scalar)
        } else if inWord {
          words.append(String(current))
          current = String.UnicodeScalarView()
          inWord = false
        }
      default:
        current.append(scalar)
        inWord = true
      }
    }
    if let quote { throw Error(description: "missing closing \(quote)") }
    if escaping { throw Error(description: "a backslash ends the line") }
    if inWord { words.append(String(current)) }
    return words
  }

  /// Whether the `'` at `index` stands between two letters or digits (`d'été`, `O'Brien`),
  /// where it is an apostrophe, not a quote.
  private static func isApostrophe(at index: Int, in scalars: [Unicode.Scalar]) -> Bool {
    guard index > 0, index + 1 < scalars.count else { return false }
    func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
      scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }
    return isLetterOrDigit(scalars[index - 1]) && isLetterOrDigit(scalars[index + 1])
  }
}
