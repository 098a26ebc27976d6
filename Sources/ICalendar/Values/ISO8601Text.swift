/// The ISO 8601 forms people type on command lines (`2025-03-01`, `2025-03-01T09:00`,
/// `2025-03-01T09:00:00Z`, `2025-03-01T10:00+01:00`) and that JSON output uses, read into and
/// written from RFC 5545 values.
///
/// A time with an offset is an instant, so it becomes a UTC value; a time with neither `Z` nor
/// an offset is floating, for the caller to place on its own clock; a plain date is a DATE.
/// RFC 5545's own forms (`20250301T090000Z`) are accepted too.
///
/// ```swift
/// let start = try ISO8601Text.parse("2025-03-01T10:00+01:00")
/// print(start)  // 20250301T090000Z
/// print(ISO8601Text.string(start))  // 2025-03-01T09:00:00Z
/// print(ISO8601Text.string(try ISO8601Text.parse("2025-03-01")))  // 2025-03-01
/// ```
public enum ISO8601Text {
  /// Reads one of the forms above; seconds and a space instead of `T` are optional, and
  /// fractions of a second are dropped.
  ///
  /// ```swift
  /// print(try ISO8601Text.parse("2025-03-01 09:30"))  // 20250301T093000 (floating)
  /// print(try ISO8601Text.parse("2025-03-01T09:30:15.250-05:00"))  // 20250301T143015Z
  /// do {
  ///   _ = try ISO8601Text.parse("2025-02-30")
  /// } catch {
  ///   print(error.text)  // 2025-02-30
  /// }
  /// ```
  ///
  /// - Parameter text: The text to read; whitespace around it is ignored.
  /// - Returns: A ``DateTimeValue/date(_:)`` for a date, ``DateTimeValue/floating(_:)`` for a
  ///   time with neither `Z` nor offset, and ``DateTimeValue/utc(_:)`` for one with either,
  ///   converted to UTC; an RFC 5545 form gives what ``DateTimeValue/init(parsing:tzid:)``
  ///   does.
  /// - Throws: ``ISO8601TextError`` when the text is none of the forms, names a date or time
  ///   that does not exist, or has an offset of 24 hours or more or of 60 minutes or more.
  public static func parse(_ text: some StringProtocol) throws(ISO8601TextError) -> DateTimeValue {
    let trimmed = text.trimmingWhitespace()
    if let value = try? DateTimeValue(parsing: trimmed) { return value }
    var scanner = Scanner(Array(trimmed.utf8))
    guard let year = scanner.number(digits: 4), scanner.skip("-"),
      let month = scanner.number(digits: 2), scanner.skip("-"),
      let day = scanner.number(digits: 2), let date = CivilDate(year: year, month: month, day: day)
    else { throw ISO8601TextError(text: String(trimmed)) }
    if scanner.isAtEnd { return .date(date) }
    guard scanner.skip("T") || scanner.skip("t") || scanner.skip(" "),
      let hour = scanner.number(digits: 2), scanner.skip(":"),
      let minute = scanner.number(digits: 2)
    else { throw ISO8601TextError(text: String(trimmed)) }
    var second = 0
    if scanner.skip(":") {
      guard let value = scanner.number(digits: 2) else {
        throw ISO8601TextError(text: String(trimmed))
      }
      second = value
      if scanner.skip(".") || scanner.skip(",") { scanner.skipDigits() }
    }
    guard
      let reading = CivilDateTime(
        year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    else { throw ISO8601TextError(text: String(trimmed)) }
    if scanner.isAtEnd { return .floating(reading) }
    if (scanner.skip("Z") || scanner.skip("z")) && scanner.isAtEnd { return .utc(reading) }
    // ±HH, ±HHMM or ±HH:MM east of UTC.
    let sign = scanner.skip("+") ? 1 : scanner.skip("-") ? -1 : 0
    guard sign != 0, let offsetHours = scanner.number(digits: 2), offsetHours < 24 else {
      throw ISO8601TextError(text: String(trimmed))
    }
    var offsetMinutes = 0
    if !scanner.isAtEnd {
      _ = scanner.skip(":")
      guard let minutes = scanner.number(digits: 2), minutes < 60 else {
        throw ISO8601TextError(text: String(trimmed))
      }
      offsetMinutes = minutes
    }
    guard scanner.isAtEnd else { throw ISO8601TextError(text: String(trimmed)) }
    let offset = sign * (offsetHours * 3600 + offsetMinutes * 60)
    return .utc(reading.adding(seconds: -offset))
  }

  /// Writes a value in the form JSON output uses: `2025-03-01` for a DATE,
  /// `2025-03-01T09:00:00Z` for UTC, and `2025-03-01T09:00:00` for a floating or zoned
  /// reading (whose zone the caller states apart).
  ///
  /// ```swift
  /// let zoned = try DateTimeValue(parsing: "20250301T090000", tzid: "Europe/Paris")
  /// print(ISO8601Text.string(zoned))  // 2025-03-01T09:00:00 (the zone is left out)
  /// print(ISO8601Text.string(try DateTimeValue(parsing: "20250301T080000Z")))
  /// // 2025-03-01T08:00:00Z
  /// ```
  ///
  /// - Parameter value: The value to write; a zoned value's TZID is left out.
  /// - Returns: The ISO 8601 text, which ``parse(_:)`` reads back as a DATE, a UTC or a
  ///   floating value.
  public static func string(_ value: DateTimeValue) -> String {
    switch value {
    case .date(let date): return string(date)
    case .utc(let reading): return string(reading) + "Z"
    case .floating(let reading), .zoned(let reading, _): return string(reading)
    }
  }

  /// Writes a date as ISO 8601's extended form, `YYYY-MM-DD`.
  ///
  /// ```swift
  /// print(ISO8601Text.string(CivilDate(year: 2025, month: 3, day: 1)!))  // 2025-03-01
  /// ```
  ///
  /// - Parameter date: The date to write.
  /// - Returns: The text, such as `2025-03-01`.
  public static func string(_ date: CivilDate) -> String {
    var text = ""
    ICalendarFormat.appendPadded(date.year, width: 4, to: &text)
    text.append("-")
    ICalendarFormat.appendPadded(date.month, width: 2, to: &text)
    text.append("-")
    ICalendarFormat.appendPadded(date.day, width: 2, to: &text)
    return text
  }

  /// Writes a wall-clock reading as ISO 8601's extended form, `YYYY-MM-DDTHH:MM:SS`, with
  /// no zone.
  ///
  /// ```swift
  /// let reading = CivilDateTime(year: 2025, month: 3, day: 1, hour: 9, minute: 5)!
  /// print(ISO8601Text.string(reading))  // 2025-03-01T09:05:00
  /// ```
  ///
  /// - Parameter reading: The reading to write.
  /// - Returns: The text, such as `2025-03-01T09:00:00`.
  public static func string(_ reading: CivilDateTime) -> String {
    var text = string(reading.date)
    text.append("T")
    ICalendarFormat.appendPadded(reading.hour, width: 2, to: &text)
    text.append(":")
    ICalendarFormat.appendPadded(reading.minute, width: 2, to: &text)
    text.append(":")
    ICalendarFormat.appendPadded(reading.second, width: 2, to: &text)
    return text
  }

  private struct Scanner {
    let bytes: [UInt8]
    var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { position == bytes.count }

    mutating func skip(_ character: Unicode.Scalar) -> Bool {
      guard position < bytes.count, bytes[position] == UInt8(ascii: character) else {
        return false
      }
      position += 1
      return true
    }

    mutating func number(digits: Int) -> Int? {
      guard position + digits <= bytes.count else { return nil }
      var value = 0
      for byte in bytes[position..<position + digits] {
        guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
        value = value * 10 + Int(byte - UInt8(ascii: "0"))
      }
      position += digits
      return value
    }

    mutating func skipDigits() {
      while position < bytes.count, bytes[position] >= UInt8(ascii: "0"),
        bytes[position] <= UInt8(ascii: "9")
      {
        position += 1
      }
    }
  }
}

/// Text that is none of the ISO 8601 forms ``ISO8601Text`` reads.
///
/// ```swift
/// do {
///   _ = try ISO8601Text.parse("March 1")
/// } catch {
///   print(error.text)  // March 1
/// }
/// ```
public struct ISO8601TextError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The text refused, without the whitespace around it.
  public let text: String
  /// One line for a person, quoting the text and naming the forms accepted.
  public var description: String {
    "'\(ICalendarText.excerpt(text))' is not a date (2025-03-01) or a date and time (2025-03-01T09:00, "
      + "ending in Z or an offset such as +01:00 for an exact instant)"
  }
}
