/// One RDATE value (RFC 5545 §3.8.5.2): a DATE, a DATE-TIME, or a PERIOD whose start is the
/// instance's start.
public enum RecurrenceDate: Hashable, Sendable {
  case dateTime(DateTimeValue)
  /// A PERIOD with an explicit end, `19960403T020000Z/19960403T040000Z`.
  case period(start: DateTimeValue, end: DateTimeValue)
  /// A PERIOD with a duration, `19960404T010000Z/PT3H`.
  case periodWithDuration(start: DateTimeValue, duration: DurationValue)

  public var start: DateTimeValue {
    switch self {
    case .dateTime(let value), .period(let value, _), .periodWithDuration(let value, _): value
    }
  }

  /// Reads one RDATE value; `tzid` is the property's TZID parameter.
  public init(parsing text: some StringProtocol, tzid: String? = nil) throws(RecurrenceDateError) {
    let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
    do {
      let start = try DateTimeValue(parsing: parts[0], tzid: tzid)
      guard parts.count == 2 else {
        self = .dateTime(start)
        return
      }
      if parts[1].trimmingWhitespace().hasPrefix("P") || parts[1].hasPrefix("-")
        || parts[1].hasPrefix("+")
      {
        self = .periodWithDuration(start: start, duration: try DurationValue(parsing: parts[1]))
      } else {
        self = .period(start: start, end: try DateTimeValue(parsing: parts[1], tzid: tzid))
      }
    } catch {
      throw RecurrenceDateError(text: String(text))
    }
  }

  /// The value's text without its TZID.
  public var text: String {
    switch self {
    case .dateTime(let value): value.text
    case .period(let start, let end): "\(start.text)/\(end.text)"
    case .periodWithDuration(let start, let duration): "\(start.text)/\(duration.text)"
    }
  }
}

/// Text that is not an RDATE value.
public struct RecurrenceDateError: Error, Hashable, Sendable, CustomStringConvertible {
  public let text: String
  public var description: String {
    "'\(ICalendarText.excerpt(text))' is not an RDATE value (a DATE, a DATE-TIME, or a PERIOD start/end or start/duration)"
  }
}
