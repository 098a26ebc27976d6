/// One mapping between iCalendar's words for a value and EventKit's enumeration, used both to
/// read and to write, so that the two directions cannot drift apart.
///
/// The canonical pairs go both ways. `alsoRead` lists words read but never written (aliases
/// other writers use); `alsoWrite` lists EventKit values with no word of their own, written as
/// another's word. Reading ignores case (RFC 5545 §3.2: property and parameter values of
/// enumerated types are case-insensitive).
struct ICalendarValueTable<Value: Hashable & Sendable>: Sendable {
  private let byText: [String: Value]
  private let byValue: [Value: String]

  init(
    _ pairs: KeyValuePairs<String, Value>, alsoRead: KeyValuePairs<String, Value> = [:],
    alsoWrite: KeyValuePairs<Value, String> = [:]
  ) {
    // `value(for:)` upper-cases what it reads to find it here.
    assert(
      (pairs.map(\.key) + alsoRead.map(\.key)).allSatisfy { $0 == $0.uppercased() },
      "a value table's words are written in upper case")
    var byText: [String: Value] = [:]
    var byValue: [Value: String] = [:]
    for (text, value) in pairs {
      byText[text] = value
      if byValue[value] == nil { byValue[value] = text }
    }
    for (text, value) in alsoRead { byText[text] = value }
    for (value, text) in alsoWrite { byValue[value] = text }
    self.byText = byText
    self.byValue = byValue
  }

  /// The value a word stands for; nil for a word the table does not know (or none). The
  /// table's words are upper case, as files nearly always write them: such a word is found
  /// as it is, and only another is upper-cased first.
  func value(for text: String?) -> Value? {
    guard let text else { return nil }
    return byText[text] ?? byText[text.uppercased()]
  }

  /// The word written for a value; nil when iCalendar has none for it.
  func text(for value: Value) -> String? {
    byValue[value]
  }

  /// Every value that has a word, for tests that each one comes back.
  var writtenValues: [Value] { Array(byValue.keys) }
}
