import ArgumentParser
import REPLKit

/// Names of several words typed without quotes: `check chocolate cake dark chocolate` is the
/// list "Chocolate cake" and its item "dark chocolate". Quotes work too, and are needed only
/// when the words could be read two ways.
enum NameWords {
  /// The leading words that make one of `names` (ignoring case and accents), the longest
  /// such run that leaves at least `leaving` words after it, and the words after it. When no
  /// run is a name, the first word is taken as the name, for the error that says so.
  static func split(_ words: [String], names: [String], leaving: Int = 0)
    -> (name: String, rest: [String])
  {
    let keys = Set(names.map(NearestName.key))
    for count in stride(from: words.count - leaving, through: 1, by: -1) {
      let name = words[..<count].joined(separator: " ")
      if keys.contains(NearestName.key(name)) { return (name, Array(words[count...])) }
    }
    return (words[0], Array(words.dropFirst()))
  }

  /// Refuses fewer than `count` words, before the command runs, with the usage: a command's
  /// arguments' `validate()` (RecipeArguments.swift).
  static func require(_ words: [String], _ count: Int, _ what: String) throws {
    guard words.count >= count else { throw ValidationError("Give \(what).") }
  }
}
