/// What is wrong with an iCalendar document, and where: the line (counted from 1 in the file
/// as written, before unfolding) and, for a bad value, the property.
public struct ICalendarParseError: Error, Hashable, Sendable, CustomStringConvertible {
  public var line: Int
  /// The property whose value is wrong, nil for a problem with the structure.
  public var property: String?
  public var reason: String

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
