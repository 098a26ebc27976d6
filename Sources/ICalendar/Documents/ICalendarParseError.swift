/// What is wrong with an iCalendar document, and where: the line (counted from 1 in the file
/// as written, before unfolding) and, for a bad value, the property.
///
/// ``ICalendarDocument/init(parsing:)`` throws it for a broken file, and the typed readings of
/// ``ICalendarProperty`` (``ICalendarProperty/dateTimeValue(zones:)`` and the others) for a
/// value they cannot read, so one error type says where any problem in a file is.
///
/// ```swift
/// do {
///   _ = try ICalendarDocument(parsing: "BEGIN:VCALENDAR\r\nEND:VEVENT\r\n")
/// } catch {
///   print(error.line, error.reason)
///   // 2 END:VEVENT closes BEGIN:VCALENDAR of line 1
/// }
/// ```
public struct ICalendarParseError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The physical line the problem is on, counted from 1 before unfolding; for a property,
  /// the line it starts on.
  public var line: Int
  /// The property whose value is wrong, nil for a problem with the structure.
  public var property: String?
  /// What is wrong, in one phrase for a person (`no VCALENDAR in the file`).
  public var reason: String

  /// An error at a line, about a property's value or, without one, the document's structure.
  ///
  /// ```swift
  /// let error = ICalendarParseError(line: 12, property: "PRIORITY", reason: "not a number")
  /// print(error)  // line 12: PRIORITY: not a number
  /// print(ICalendarParseError(line: 3, reason: "no VCALENDAR in the file"))
  /// // line 3: no VCALENDAR in the file
  /// ```
  ///
  /// - Parameters:
  ///   - line: The line the problem is on, counted from 1; 0 for a value built in code.
  ///   - property: The name of the property whose value is wrong, or nil.
  ///   - reason: What is wrong, as ``description`` shows it after the line and property.
  public init(line: Int, property: String? = nil, reason: String) {
    self.line = line
    self.property = property
    self.reason = reason
  }

  /// One line: `line 12: SUMMARY: reason`. A property's name is shortened as any quoted input
  /// is (``ICalendarText/excerpt(_:limit:)``).
  public var description: String {
    if let property { return "line \(line): \(ICalendarText.excerpt(property)): \(reason)" }
    return "line \(line): \(reason)"
  }
}
