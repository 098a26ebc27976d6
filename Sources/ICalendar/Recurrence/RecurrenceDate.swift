/// One RDATE value (RFC 5545 §3.8.5.2): a DATE, a DATE-TIME, or a PERIOD whose start is the
/// instance's start.
///
/// A ``RecurrenceSet`` adds each one's ``start`` to its instances; the end of a PERIOD is kept
/// for the caller (an instance that lasts longer than the event's usual duration).
///
/// ```swift
/// let date = try RecurrenceDate(parsing: "20250704")
/// let period = try RecurrenceDate(parsing: "20250705T090000/PT2H", tzid: "America/New_York")
/// print(period.start)  // TZID=America/New_York:20250705T090000
/// print(period.text)  // 20250705T090000/PT2H
///
/// let set = RecurrenceSet(
///   start: try DateTimeValue(parsing: "20250701"), dates: [date])
/// print(try set.occurrences().map(\.local))  // [20250701T000000, 20250704T000000]
/// ```
public enum RecurrenceDate: Hashable, Sendable {
  /// A DATE or DATE-TIME, `19970714` or `19970714T123000Z`.
  case dateTime(DateTimeValue)
  /// A PERIOD with an explicit end, `19960403T020000Z/19960403T040000Z`.
  case period(start: DateTimeValue, end: DateTimeValue)
  /// A PERIOD with a duration, `19960404T010000Z/PT3H`.
  case periodWithDuration(start: DateTimeValue, duration: DurationValue)

  /// When the instance starts: the value itself, or the start of the PERIOD.
  public var start: DateTimeValue {
    switch self {
    case .dateTime(let value), .period(let value, _), .periodWithDuration(let value, _): value
    }
  }

  /// Reads one RDATE value; `tzid` is the property's TZID parameter.
  ///
  /// A value with a `/` is a PERIOD (§3.3.9): its second half is a DURATION when it starts
  /// with `P`, `+` or `-`, and an end otherwise.
  ///
  /// ```swift
  /// let zoned = try RecurrenceDate(parsing: "20250301T100000", tzid: "Europe/Oslo")
  /// print(zoned.start)  // TZID=Europe/Oslo:20250301T100000
  /// let period = try RecurrenceDate(parsing: "20250301T100000Z/20250301T113000Z")
  /// print(period.text)  // 20250301T100000Z/20250301T113000Z
  /// ```
  ///
  /// - Parameters:
  ///   - text: One value of the property, without the commas that separate several.
  ///   - tzid: The property's TZID parameter, the zone of a DATE-TIME without `Z`; UTC
  ///     values and DATEs ignore it. Nil for none.
  /// - Throws: ``RecurrenceDateError`` when the text, or either half of a PERIOD, is not of
  ///   its form.
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
///
/// ```swift
/// do {
///   _ = try RecurrenceDate(parsing: "20250704T090000/soon")
/// } catch {
///   print(error.text)  // 20250704T090000/soon
/// }
/// ```
public struct RecurrenceDateError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The text refused, as given.
  public let text: String
  /// One line for a person, quoting the text and naming the forms an RDATE takes.
  public var description: String {
    "'\(ICalendarText.excerpt(text))' is not an RDATE value (a DATE, a DATE-TIME, or a PERIOD start/end or start/duration)"
  }
}
