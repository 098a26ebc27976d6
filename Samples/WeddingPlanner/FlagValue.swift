/// An option with a value, such as `--vendor "Sweet Things"`: the REPL's synopsis lets the
/// flag come anywhere, and the command takes the word after it as its value.
enum FlagValue {
  /// The value after `flag` among `words`, and the words without the flag and its value;
  /// nil when the flag is not there.
  static func take(_ flag: String, from words: [String]) throws -> (value: String?, rest: [String])
  {
    guard let index = words.firstIndex(of: flag) else { return (nil, words) }
    guard index + 1 < words.count, !words[index + 1].hasPrefix("--") else {
      throw WeddingError("\(flag) needs a value after it.")
    }
    var rest = words
    let value = rest[index + 1]
    rest.removeSubrange(index...(index + 1))
    return (value, rest)
  }
}
