/// Splits a command line into words as a shell would for simple input: spaces separate words,
/// single and double quotes group them (`add "Claire Dupont" 1320.38`), and a backslash keeps
/// the next character as it is.
public enum CommandLineWords {
  /// Why a line cannot be split.
  public struct Error: Swift.Error, Hashable, CustomStringConvertible {
    public let description: String
  }

  public static func split(_ line: String) throws(Error) -> [String] {
    var words: [String] = []
    var current = ""
    var inWord = false
    var quote: Character?
    var escaping = false
    for character in line {
      if escaping {
        current.append(character)
        escaping = false
        continue
      }
      switch character {
      case "\\" where quote != "'":
        escaping = true
        inWord = true
      case "\"", "'":
        if quote == nil {
          quote = character
          inWord = true
        } else if quote == character {
          quote = nil
        } else {
          current.append(character)
        }
      case " ", "\t":
        if quote != nil {
          current.append(character)
        } else if inWord {
          words.append(current)
          current = ""
          inWord = false
        }
      default:
        current.append(character)
        inWord = true
      }
    }
    if let quote { throw Error(description: "missing closing \(quote)") }
    if escaping { throw Error(description: "a backslash ends the line") }
    if inWord { words.append(current) }
    return words
  }
}
