/// Splits a command line into words as a shell would for simple input: spaces separate words,
/// single and double quotes group them (`add "Claire Dupont" 1320.38`), and a backslash keeps
/// the next character as it is.
///
/// The line is read as Unicode scalars, not as the characters Swift's `String` shows: a quote,
/// space or backslash followed by a combining mark is one `Character` with it, and would
/// otherwise stop being a quote, a space or a backslash.
public enum CommandLineWords {
  /// Why a line cannot be split.
  public struct Error: Swift.Error, Hashable, CustomStringConvertible {
    public let description: String
  }

  public static func split(_ line: String) throws(Error) -> [String] {
    var words: [String] = []
    var current = String.UnicodeScalarView()
    var inWord = false
    var quote: Unicode.Scalar?
    var escaping = false
    for scalar in line.unicodeScalars {
      if escaping {
        current.append(scalar)
        escaping = false
        continue
      }
      switch scalar {
      case "\\" where quote != "'":
        escaping = true
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
}
