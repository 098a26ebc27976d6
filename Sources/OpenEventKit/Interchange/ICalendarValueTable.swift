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

  /// The value a word stands for; nil for a word the table does not know (or none).
  func value(for text: String?) -> Value? {
    text.flatMap { byText[$0.uppercased()] }
  }

  /// The word written for a value; nil when iCalendar has none for it.
  func text(for value: Value) -> String? {
    byValue[value]
  }

  /// Every value that has a word, for tests that each one comes back.
  var writtenValues: [Value] { Array(byValue.keys) }
}
