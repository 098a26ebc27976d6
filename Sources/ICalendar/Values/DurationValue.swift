/// RFC 5545's DURATION (§3.3.6): `P15DT5H0M20S`, `-PT15M`, `P7W`.
///
/// Weeks and days are nominal (a day is a calendar day, 23 or 25 hours across a DST change);
/// hours, minutes and seconds are exact. The two are kept apart for that reason.
public struct DurationValue: Hashable, Sendable, Codable {
  public var isNegative: Bool
  public var weeks: Int
  public var days: Int
  public var hours: Int
  public var minutes: Int
  public var seconds: Int

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
public struct DurationValueError: Error, Hashable, Sendable, CustomStringConvertible {
  public let text: String
  public var description: String {
    "'\(ICalendarText.excerpt(text))' is not a DURATION such as PT1H30M or P1W"
  }
}
