/// One parameter of a content line (RFC 5545 §3.2): `TZID=Europe/Paris`,
/// `MEMBER="mailto:a@example.com","mailto:b@example.com"`.
///
/// Values are kept decoded, not as they are written: ``ICalendarWriter`` quotes and
/// caret-escapes them (RFC 6868) on the way out, and the reader undoes both.
///
/// ```swift
/// let tzid = ICalendarParameter(name: "tzid", value: "Europe/Paris")
/// print(tzid.name)  // TZID
/// let members = ICalendarParameter(
///   name: "MEMBER", values: ["mailto:a@example.com", "mailto:b@example.com"])
/// print(members.value)  // mailto:a@example.com
/// ```
public struct ICalendarParameter: Hashable, Sendable {
  /// The name in upper case, as §3.1 makes names case-insensitive.
  public var name: String
  /// The values, unquoted and with RFC 6868 caret escapes decoded.
  public var values: [String]

  /// A parameter with several values, as MEMBER or DELEGATED-TO take.
  ///
  /// ```swift
  /// let delegates = ICalendarParameter(
  ///   name: "delegated-to", values: ["mailto:ann@example.com", "mailto:bob@example.com"])
  /// print(delegates.name)  // DELEGATED-TO
  /// print(delegates.values.count)  // 2
  /// ```
  ///
  /// - Parameters:
  ///   - name: The parameter's name, in any case; it is kept in upper case.
  ///   - values: The values, unquoted and unescaped.
  public init(name: String, values: [String]) {
    self.init(upperCaseName: ICalendarText.upperCaseName(name), values: values)
  }

  /// A parameter whose name is upper case already, as the reader's are.
  init(upperCaseName name: String, values: [String]) {
    self.name = name
    self.values = values
  }

  /// A parameter with one value, as most are.
  ///
  /// ```swift
  /// let role = ICalendarParameter(name: "role", value: "CHAIR")
  /// print(role.name, role.value)  // ROLE CHAIR
  /// ```
  ///
  /// - Parameters:
  ///   - name: The parameter's name, in any case; it is kept in upper case.
  ///   - value: The value, unquoted and unescaped.
  public init(name: String, value: String) { self.init(name: name, values: [value]) }

  /// The first value, or "" when there is none.
  public var value: String { values.first ?? "" }
}

/// One property of a component: a content line's name, parameters and value (§3.1).
///
/// The value is kept as written, escapes included, because its meaning depends on its type:
/// a TEXT value unescapes (``textValue``), a RRULE or a DATE-TIME does not. That keeps
/// unknown properties exact on the way back out.
///
/// ```swift
/// let summary = ICalendarProperty(name: "SUMMARY", text: "Lunch; then a walk")
/// print(summary.value)  // Lunch\; then a walk
/// print(summary.textValue)  // Lunch; then a walk
///
/// let start = ICalendarProperty(
///   name: "DTSTART", parameters: [ICalendarParameter(name: "TZID", value: "Europe/Paris")],
///   value: "20250301T090000")
/// print(start.parameter("TZID") ?? "none")  // Europe/Paris
/// print(start.contentLine)  // DTSTART;TZID=Europe/Paris:20250301T090000
/// ```
public struct ICalendarProperty: Sendable {
  /// The name in upper case.
  public var name: String
  /// The parameters in the order they were written (§3.2).
  public var parameters: [ICalendarParameter]
  /// The raw value, after unfolding.
  public var value: String
  /// The line of the source where the property starts; 0 for a property built in code.
  public var line: Int

  /// A property with a value written as it goes in the file, escapes included.
  ///
  /// For a TEXT value, ``init(name:parameters:text:)`` does the escaping.
  ///
  /// ```swift
  /// let rule = ICalendarProperty(name: "rrule", value: "FREQ=DAILY;COUNT=3")
  /// print(rule.name)  // RRULE
  /// print(rule.value)  // FREQ=DAILY;COUNT=3 (no escaping: a RECUR value is not TEXT)
  /// ```
  ///
  /// - Parameters:
  ///   - name: The property's name, in any case; it is kept in upper case.
  ///   - parameters: The parameters, in the order to write them.
  ///   - value: The raw value, as the content line holds it after the colon.
  ///   - line: The line of the source it was read from; 0 for a property built in code.
  public init(name: String, parameters: [ICalendarParameter] = [], value: String, line: Int = 0) {
    self.init(
      upperCaseName: ICalendarText.upperCaseName(name), parameters: parameters, value: value,
      line: line)
  }

  /// A property whose name is upper case already, as the reader's are.
  init(upperCaseName name: String, parameters: [ICalendarParameter], value: String, line: Int) {
    self.name = name
    self.parameters = parameters
    self.value = value
    self.line = line
  }

  /// A property whose value is TEXT (§3.3.11), escaped for writing.
  ///
  /// ```swift
  /// let location = ICalendarProperty(
  ///   name: "LOCATION", parameters: [ICalendarParameter(name: "LANGUAGE", value: "en")],
  ///   text: "Room 4, second floor")
  /// print(location.value)  // Room 4\, second floor
  /// print(location.textValue)  // Room 4, second floor
  /// ```
  ///
  /// - Parameters:
  ///   - name: The property's name, in any case; it is kept in upper case.
  ///   - parameters: The parameters, in the order to write them.
  ///   - text: The text as a person reads it; backslashes, semicolons, commas and line
  ///     breaks are escaped (``ICalendarText/escape(_:)``).
  public init(name: String, parameters: [ICalendarParameter] = [], text: String) {
    self.init(name: name, parameters: parameters, value: ICalendarText.escape(text))
  }

  /// The first value of a parameter, nil when the property does not have it.
  ///
  /// ```swift
  /// let start = ICalendarProperty(
  ///   name: "DTSTART", parameters: [ICalendarParameter(name: "TZID", value: "Asia/Tokyo")],
  ///   value: "20250301T090000")
  /// print(start.parameter("TZID") ?? "floating")  // Asia/Tokyo
  /// print(start.parameter("VALUE") ?? "DATE-TIME")  // DATE-TIME
  /// ```
  ///
  /// - Parameter name: The parameter's name in upper case (`TZID`), as names are kept.
  /// - Returns: The first value of the first parameter of that name, or nil.
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
  ///
  /// - Parameters:
  ///   - lhs: A property.
  ///   - rhs: Another property.
  /// - Returns: Whether the names, the parameters (in order) and the raw values are equal.
  public static func == (lhs: ICalendarProperty, rhs: ICalendarProperty) -> Bool {
    lhs.name == rhs.name && lhs.parameters == rhs.parameters && lhs.value == rhs.value
  }

  /// Hashes the name, parameters and value, as `==` compares them; not the line.
  ///
  /// - Parameter hasher: The hasher to feed.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(name)
    hasher.combine(parameters)
    hasher.combine(value)
  }
}
