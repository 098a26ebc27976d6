/// RFC 5545's DURATION (§3.3.6): `P15DT5H0M20S`, `-PT15M`, `P7W`.
///
/// Weeks and days are nominal (a day is a calendar day, 23 or 25 hours across a DST change);
/// hours, minutes and seconds are exact. The two are kept apart for that reason.
///
/// ```swift
/// let reminder = try DurationValue(parsing: "-PT15M")
/// print(reminder.exactSeconds)  // -900
/// let stay = DurationValue(weeks: 1, days: 2, hours: 3)
/// print(stay.text, stay.nominalDays, stay.exactSeconds)  // P1W2DT3H 9 10800
/// ```
public struct DurationValue: Hashable, Sendable, Codable {
  /// Whether the duration points back in time (`-P…`), as an alarm before its event does.
  public var isNegative: Bool
  /// Whole weeks, nominal (seven calendar days each); not negative.
  public var weeks: Int
  /// Calendar days, nominal; not negative.
  public var days: Int
  /// Hours, exact; not negative.
  public var hours: Int
  /// Minutes, exact; not negative.
  public var minutes: Int
  /// Seconds, exact; not negative.
  public var seconds: Int

  /// A duration from its fields; the sign is kept apart from them, as RFC 5545 writes it.
  ///
  /// ```swift
  /// let before = DurationValue(isNegative: true, minutes: 30)
  /// print(before.text, before.exactSeconds)  // -PT30M -1800
  /// print(DurationValue(days: 1).text)  // P1D
  /// ```
  ///
  /// - Parameters:
  ///   - isNegative: Whether the duration points back in time.
  ///   - weeks: Whole weeks.
  ///   - days: Calendar days.
  ///   - hours: Hours.
  ///   - minutes: Minutes.
  ///   - seconds: Seconds.
  public init(
    isNegative: Bool = false, weeks: Int = 0, days: Int = 0, hours: Int = 0, minutes: Int = 0,
    seconds: Int = 0
  ) {
    self.isNegative = isNegative
    self.weeks = weeks
    self.days = days
    self.hours = hours
    self.minutes = minutes
    self.seconds = seconds
  }

  /// Calendar days, signed.
  public var nominalDays: Int { (weeks * 7 + days) * (isNegative ? -1 : 1) }
  /// Exact seconds, signed.
  public var exactSeconds: Int { (hours * 3600 + minutes * 60 + seconds) * (isNegative ? -1 : 1) }

  /// Reads a DURATION (§3.3.6), `P15DT5H0M20S`, `-PT15M` or `P7W`.
  ///
  /// An optional `+` or `-` comes first; then `P`, then weeks and days, then `T` and hours,
  /// minutes and seconds, each a number followed by its letter. Letters must be in upper
  /// case. Weeks are accepted together with other parts (`P1W2D`), though the grammar of
  /// §3.3.6 gives them alone.
  ///
  /// ```swift
  /// let duration = try DurationValue(parsing: "P1DT2H")
  /// print(duration.days, duration.hours)  // 1 2
  /// ```
  ///
  /// - Parameter text: The text to read; whitespace around it is ignored.
  /// - Throws: ``DurationValueError`` when the text is not of that form: no `P`, no part, a
  ///   `T` with no time part after it, a letter out of place, or a number of a billion or
  ///   more.
  public init(parsing text: some StringProtocol) throws(DurationValueError) {
    var bytes = Array(text.trimmingWhitespace().utf8)
    let original = String(decoding: bytes, as: UTF8.self)
    self.init()
    if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
      isNegative = sign == UInt8(ascii: "-")
      bytes.removeFirst()
    }
    guard bytes.first == UInt8(ascii: "P"), bytes.count > 1 else {
      throw DurationValueError(text: original)
    }
    var inTime = false
    var number: Int? = nil
    var sawPart = false
    // §3.3.6: a "T" must be followed by at least one of hours, minutes or seconds.
    var sawTimePart = true
    for byte in bytes.dropFirst() {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        let digit = Int(byte - UInt8(ascii: "0"))
        let (value, overflow) = (number ?? 0).multipliedReportingOverflow(by: 10)
        guard !overflow, value < 1_000_000_000 else { throw DurationValueError(text: original) }
        number = value + digit
      case UInt8(ascii: "T"):
        guard !inTime, number == nil else { throw DurationValueError(text: original) }
        inTime = true
        sawTimePart = false
      default:
        guard let value = number else { throw DurationValueError(text: original) }
        switch (byte, inTime) {
        case (UInt8(ascii: "W"), false): weeks = value
        case (UInt8(ascii: "D"), false): days = value
        case (UInt8(ascii: "H"), true): hours = value
        case (UInt8(ascii: "M"), true): minutes = value
        case (UInt8(ascii: "S"), true): seconds = value
        default: throw DurationValueError(text: original)
        }
        number = nil
        sawPart = true
        sawTimePart = true
      }
    }
    guard sawPart, sawTimePart, number == nil else { throw DurationValueError(text: original) }
  }

  /// The canonical text, `P1DT2H`, `-PT15M`, `P0D` for zero.
  public var text: String {
    var text = isNegative ? "-P" : "P"
    if weeks != 0 { text += "\(weeks)W" }
    if days != 0 { text += "\(days)D" }
    if hours != 0 || minutes != 0 || seconds != 0 {
      text += "T"
      if hours != 0 { text += "\(hours)H" }
      if minutes != 0 { text += "\(minutes)M" }
      if seconds != 0 { text += "\(seconds)S" }
    }
    if text.hasSuffix("P") { text += "0D" }
    return text
  }
}

/// Text that is not an RFC 5545 DURATION.
///
/// ```swift
/// do {
///   _ = try DurationValue(parsing: "1 hour")
/// } catch {
///   print(error)  // '1 hour' is not a DURATION such as PT1H30M or P1W
/// }
/// ```
public struct DurationValueError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The text refused, without the whitespace around it.
  public let text: String
  /// One line for a person, quoting the text and giving examples of the form.
  public var description: String {
    "'\(ICalendarText.excerpt(text))' is not a DURATION such as PT1H30M or P1W"
  }
}
