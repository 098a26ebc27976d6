/// A time zone that cannot be used.
public enum TimeZoneError: Error, Hashable, Sendable, CustomStringConvertible {
  /// No zone of that name in the tz database.
  case unknownTimeZone(String)
  /// The zone's file exists but could not be read as TZif (RFC 8536).
  case unreadableTimeZone(String, reason: String)

  public var description: String {
    switch self {
    case .unknownTimeZone(let name): "unknown time zone '\(ICalendarText.excerpt(name))'"
    case .unreadableTimeZone(let name, let reason):
      "time zone '\(ICalendarText.excerpt(name))' is unreadable: \(reason)"
    }
  }
}
