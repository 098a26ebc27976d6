/// One parameter of a content line (RFC 5545 §3.2): `TZID=Europe/Paris`,
/// `MEMBER="mailto:a@example.com","mailto:b@example.com"`.
public struct ICalendarParameter: Hashable, Sendable {
  /// The name in upper case, as §3.1 makes names case-insensitive.
  public var name: String
  /// The values, unquoted and with RFC 6868 caret escapes decoded.
  public var values: [String]

  public init(name: String, values: [String]) {
    self.name = name.uppercased()
    self.values = values
  }

  public init(name: String, value: String) { self.init(name: name, values: [value]) }

  /// The first value, or "" when there is none.
  public var value: String { values.first ?? "" }
}

/// One property of a component: a content line's name, parameters and value (§3.1).
///
/// The value is kept as written, escapes included, because its meaning depends on its type:
/// a TEXT value unescapes (``textValue``), a RRULE or a DATE-TIME does not. That keeps
/// unknown properties exact on the way back out.
public struct ICalendarProperty: Sendable {
  /// The name in upper case.
  public var name: String
  public var parameters: [ICalendarParameter]
  /// The raw value, after unfolding.
  public var value: String
  /// The line of the source where the property starts; 0 for a property built in code.
  public var line: Int

  public init(name: String, parameters: [ICalendarParameter] = [], value: String, line: Int = 0) {
    self.name = name.uppercased()
    self.parameters = parameters
    self.value = value
    self.line = line
  }

  /// A property whose value is TEXT (§3.3.11), escaped for writing.
  public init(name: String, parameters: [ICalendarParameter] = [], text: String) {
    self.init(name: name, parameters: parameters, value: ICalendarText.escape(text))
  }

  /// The first value of a parameter, nil when the property does not have it.
  public func parameter(_ name: String) -> String? {
    parameters.first { $0.name == name }?.value
  }

  /// The value read as TEXT: escapes (`\n`, `\,`, `\;`, `\\`) decoded.
  public var textValue: String { ICalendarText.unescape(value) }

  /// The value read as a list of TEXT values separated by unescaped commas (CATEGORIES).
  public var textValues: [String] { ICalendarText.split(value).map(ICalendarText.unescape) }
}

extension ICalendarProperty: Hashable {
  /// Two properties are equal when they say the same; where they were read does not matter.
  public static func == (lhs: ICalendarProperty, rhs: ICalendarProperty) -> Bool {
    lhs.name == rhs.name && lhs.parameters == rhs.parameters && lhs.value == rhs.value
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(name)
    hasher.combine(parameters)
    hasher.combine(value)
  }
}
