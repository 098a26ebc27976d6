/// A start, end or boundary as RFC 5545 writes it: a DATE, or a DATE-TIME that is floating,
/// UTC, or tied to a time zone by a TZID (§3.3.4, §3.3.5 forms 1–3).
///
/// ```swift
/// let meeting = try DateTimeValue(parsing: "20250310T090000", tzid: "America/New_York")
/// print(meeting)  // TZID=America/New_York:20250310T090000
/// print(try meeting.secondsSinceEpoch())  // 1741611600
///
/// switch try DateTimeValue(parsing: "20250310") {
/// case .date(let day): print("all day on", day)  // all day on 20250310
/// default: break
/// }
/// ```
public enum DateTimeValue: Hashable, Sendable {
  /// A whole day, `19970714`.
  case date(CivilDate)
  /// A wall-clock reading valid in whatever zone the reader is in, `19970714T133000`.
  case floating(CivilDateTime)
  /// An instant written in UTC, `19970714T173000Z`.
  case utc(CivilDateTime)
  /// A wall-clock reading in a named zone of the tz database, `TZID=America/New_York:…`.
  case zoned(CivilDateTime, tzid: String)

  /// Reads the RFC 5545 text of a value; `tzid` is the value's TZID parameter, if any.
  ///
  /// A TZID on a UTC or DATE value is ignored, as §3.2.19 says it must not be given there.
  /// The zone is not looked up here; ``secondsSinceEpoch()`` loads it.
  ///
  /// ```swift
  /// let zoned = try DateTimeValue(parsing: "20250310T090000", tzid: "Europe/Paris")
  /// print(zoned.tzid ?? "none", zoned.local)  // Europe/Paris 20250310T090000
  /// let utc = try DateTimeValue(parsing: "20250310T080000Z", tzid: "Europe/Paris")
  /// print(utc)  // 20250310T080000Z: a UTC value ignores the TZID
  /// print(try DateTimeValue(parsing: "20250310").isDate)  // true
  /// ```
  ///
  /// - Parameters:
  ///   - text: `YYYYMMDD`, `YYYYMMDDTHHMMSS` or `YYYYMMDDTHHMMSSZ`; whitespace around it is
  ///     ignored.
  ///   - tzid: The TZID of a zoned value, a tz database identifier (`Europe/Paris`); nil or
  ///     empty for none.
  /// - Throws: ``DateTimeValueError`` when the text is neither form, or names a date or time
  ///   that does not exist.
  public init(parsing text: some StringProtocol, tzid: String? = nil) throws(DateTimeValueError) {
    let trimmed = text.trimmingWhitespace()
    let parsed = ICalendarFormat.withBytes(trimmed) { bytes in
      bytes.count == 8
        ? ICalendarFormat.parseDate(bytes).map { DateTimeValue.date($0) }
        : ICalendarFormat.parseDateTime(bytes).map { reading, isUTC in
          isUTC ? .utc(reading) : .floating(reading)
        }
    }
    if let parsed {
      if case .floating(let reading) = parsed, let tzid, !tzid.isEmpty {
        self = .zoned(reading, tzid: tzid)
      } else {
        self = parsed
      }
    } else {
      throw DateTimeValueError(text: String(trimmed))
    }
  }

  /// The wall-clock reading (midnight for a DATE; the UTC reading for a UTC value).
  public var local: CivilDateTime {
    switch self {
    case .date(let date): CivilDateTime(date: date)
    case .floating(let reading), .utc(let reading), .zoned(let reading, _): reading
    }
  }

  /// Whether the value is a DATE, a whole day with no time.
  public var isDate: Bool {
    if case .date = self { return true }
    return false
  }

  /// The TZID of a zoned value.
  public var tzid: String? {
    if case .zoned(_, let tzid) = self { return tzid }
    return nil
  }

  /// The value's text without its TZID: `YYYYMMDD`, `YYYYMMDDTHHMMSS` or `…Z`.
  public var text: String {
    switch self {
    case .date(let date): ICalendarFormat.date(date)
    case .floating(let reading), .zoned(let reading, _): ICalendarFormat.dateTime(reading)
    case .utc(let reading): ICalendarFormat.dateTime(reading, utc: true)
    }
  }

  /// Seconds since 1970-01-01T00:00:00Z of a UTC or zoned value; a zoned reading inside a
  /// DST gap or overlap resolves as RFC 5545 §3.3.5 says (see ``ZoneRules/instant(forLocal:)``).
  /// Floating and DATE values name no instant: for them this is the reading taken as UTC.
  ///
  /// ```swift
  /// print(try DateTimeValue(parsing: "19700101T000100Z").secondsSinceEpoch())  // 60
  /// let paris = try DateTimeValue(parsing: "19700101T010100", tzid: "Europe/Paris")
  /// print(try paris.secondsSinceEpoch())  // 60: Paris was an hour ahead of UTC
  /// ```
  ///
  /// - Returns: Seconds since 1970-01-01T00:00:00Z.
  /// - Throws: ``TimeZoneError`` when the TZID of a zoned value names no zone of the tz
  ///   database, or its file cannot be read.
  public func secondsSinceEpoch() throws(TimeZoneError) -> Int {
    switch self {
    case .date, .floating, .utc: return local.localSeconds
    case .zoned(let reading, let tzid):
      return try ZoneRules.named(tzid).instant(forLocal: reading.localSeconds).seconds
    }
  }
}

extension DateTimeValue: CustomStringConvertible {
  /// The ``text``, after `TZID=…:` for a zoned value, as a content line would hold it.
  public var description: String {
    if let tzid { return "TZID=\(tzid):\(text)" }
    return text
  }
}

extension DateTimeValue: Codable {
  private enum CodingKeys: String, CodingKey { case value, tzid }

  /// Decodes a value from a keyed container: `value`, its RFC 5545 text, and `tzid`, for a
  /// zoned value only.
  ///
  /// ```swift
  /// let json = #"{"value":"20250310T090000","tzid":"Europe/Paris"}"#
  /// let value = try JSONDecoder().decode(DateTimeValue.self, from: Data(json.utf8))
  /// print(value)  // TZID=Europe/Paris:20250310T090000
  /// ```
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError.dataCorrupted` when `value` is not a DATE or DATE-TIME; any
  ///   error the decoder throws for a missing `value` or a key of the wrong type.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let text = try container.decode(String.self, forKey: .value)
    let tzid = try container.decodeIfPresent(String.self, forKey: .tzid)
    do {
      self = try DateTimeValue(parsing: text, tzid: tzid)
    } catch {
      throw DecodingError.dataCorruptedError(
        forKey: .value, in: container, debugDescription: error.description)
    }
  }

  /// Encodes the value as `value`, its ``text``, and `tzid` when it is zoned.
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: Whatever error `encoder` throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(text, forKey: .value)
    try container.encodeIfPresent(tzid, forKey: .tzid)
  }
}

/// Text that is not an RFC 5545 DATE or DATE-TIME.
///
/// ```swift
/// do {
///   _ = try DateTimeValue(parsing: "2025-03-10")
/// } catch {
///   print(error.text)  // 2025-03-10
/// }
/// ```
public struct DateTimeValueError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The text refused, without the whitespace around it.
  public let text: String
  /// One line for a person, quoting the text and naming the two forms.
  public var description: String {
    "'\(ICalendarText.excerpt(text))' is not a DATE (YYYYMMDD) or DATE-TIME (YYYYMMDDTHHMMSS, optionally ending in Z)"
  }
}

extension StringProtocol {
  /// The text without the whitespace around it. Values are read on hot paths (an import
  /// reads hundreds of thousands), so text that starts and ends with a printable ASCII byte,
  /// the usual case, is returned without looking further.
  ///
  /// ```swift
  /// print(" 20250310T090000Z \r\n".trimmingWhitespace())  // 20250310T090000Z
  /// print("PT15M".trimmingWhitespace() == "PT15M")  // true
  /// ```
  ///
  /// - Returns: The text between the first and the last character that is not whitespace
  ///   (`Character.isWhitespace`), empty when there is none.
  public func trimmingWhitespace() -> Substring {
    // On a generic `Self`, `Substring(self)` is the initializer from a sequence of
    // characters, which walks and copies them (a third of reading a date): a String or a
    // Substring is taken as it is. Where `Self` is known the casts cost nothing.
    if let string = self as? String {
      // A native string's bytes lie in one piece: its ends are read there, not through
      // the UTF-8 view's indices.
      let trimmed = string.utf8.withContiguousStorageIfAvailable(hasPrintableEnds) ?? false
      return trimmed ? Substring(string) : Substring(string).trimmedOfWhitespace()
    }
    if let substring = self as? Substring { return substring.trimmedOfWhitespace() }
    return Substring(self).trimmedOfWhitespace()
  }
}

/// Whether `bytes` start and end with a printable ASCII character: text with nothing to trim,
/// as nearly every value is.
private func hasPrintableEnds(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
  guard let first = bytes.first, let last = bytes.last else { return false }
  return first > 0x20 && first < 0x7F && last > 0x20 && last < 0x7F
}

extension Substring {
  /// ``Swift/StringProtocol/trimmingWhitespace()`` of a slice.
  fileprivate func trimmedOfWhitespace() -> Substring {
    if let first = utf8.first, let last = utf8.last, first > 0x20, first < 0x7F, last > 0x20,
      last < 0x7F
    {
      return self
    }
    let start = firstIndex { !$0.isWhitespace } ?? endIndex
    let end = lastIndex { !$0.isWhitespace }.map { index(after: $0) } ?? start
    return self[start..<Swift.max(start, end)]
  }
}
