/// A time zone that cannot be used.
///
/// ``ZoneRules/named(_:)`` throws it; so do the values and expansions that load a zone by its
/// TZID (``DateTimeValue/secondsSinceEpoch()``, ``RecurrenceSetError/timeZone(_:)``).
///
/// ```swift
/// do {
///   _ = try ZoneRules.named("Mars/Olympus_Mons")
/// } catch TimeZoneError.unknownTimeZone(let name) {
///   print("no zone named", name)
/// } catch {
///   print(error)
/// }
/// ```
public enum TimeZoneError: Error, Hashable, Sendable, CustomStringConvertible {
  /// No zone of that name in the tz database.
  case unknownTimeZone(String)
  /// The zone's file exists but could not be read as TZif (RFC 8536).
  case unreadableTimeZone(String, reason: String)

  /// One line for a person, quoting the zone's name.
  public var description: String {
    switch self {
    case .unknownTimeZone(let name): "unknown time zone '\(ICalendarText.excerpt(name))'"
    case .unreadableTimeZone(let name, let reason):
      "time zone '\(ICalendarText.excerpt(name))' is unreadable: \(reason)"
    }
  }
}
