/// Reading and writing RFC 5545's DATE (`YYYYMMDD`, §3.3.4) and DATE-TIME
/// (`YYYYMMDDTHHMMSS[Z]`, §3.3.5) text forms.
///
/// Hand-written rather than through a date formatter: these run once per instance when an
/// expansion is printed, and a formatter per call costs more than the expansion itself.
///
/// ```swift
/// let date = ICalendarFormat.parseDate("20250704")!
/// print(ICalendarFormat.date(date))  // 20250704
/// if let (reading, isUTC) = ICalendarFormat.parseDateTime("20250704T093000Z") {
///   print(ICalendarFormat.dateTime(reading, utc: isUTC))  // 20250704T093000Z
/// }
/// ```
public enum ICalendarFormat {
  /// Writes a DATE, `YYYYMMDD` (§3.3.4).
  ///
  /// ```swift
  /// print(ICalendarFormat.date(CivilDate(year: 812, month: 12, day: 25)!))  // 08121225
  /// ```
  ///
  /// - Parameter date: The date to write.
  /// - Returns: The year in four digits (more for years past 9999, with a `-` before years
  ///   before 0), then month and day in two.
  public static func date(_ date: CivilDate) -> String {
    var text = ""
    text.reserveCapacity(8)
    appendPadded(date.year, width: 4, to: &text)
    appendPadded(date.month, width: 2, to: &text)
    appendPadded(date.day, width: 2, to: &text)
    return text
  }

  /// Writes a DATE-TIME, `YYYYMMDDTHHMMSS`, with a trailing `Z` for UTC (§3.3.5).
  ///
  /// ```swift
  /// let reading = CivilDateTime(year: 2025, month: 7, day: 4, hour: 9, minute: 30)!
  /// print(ICalendarFormat.dateTime(reading))  // 20250704T093000
  /// print(ICalendarFormat.dateTime(reading, utc: true))  // 20250704T093000Z
  /// ```
  ///
  /// - Parameters:
  ///   - value: The wall-clock reading, or the UTC reading of an instant.
  ///   - utc: Whether to write the `Z` that marks a UTC value (form 2); `false` writes a
  ///     floating or zoned reading (forms 1 and 3).
  /// - Returns: The DATE-TIME text.
  public static func dateTime(_ value: CivilDateTime, utc: Bool = false) -> String {
    var text = date(value.date)
    text.append("T")
    appendPadded(value.hour, width: 2, to: &text)
    appendPadded(value.minute, width: 2, to: &text)
    appendPadded(value.second, width: 2, to: &text)
    if utc { text.append("Z") }
    return text
  }

  static func appendPadded(_ number: Int, width: Int, to text: inout String) {
    if number < 0 {
      text.append("-")
      appendPadded(-number, width: width, to: &text)
      return
    }
    let digits = String(number)
    if digits.count < width {
      text.append(String(repeating: "0", count: width - digits.count))
    }
    text.append(digits)
  }

  /// Reads `YYYYMMDD`; nil unless the text is exactly that and names a real date.
  ///
  /// ```swift
  /// print(ICalendarFormat.parseDate("20240229") as Any)  // Optional(20240229)
  /// print(ICalendarFormat.parseDate("20250229") as Any)  // nil: 2025 is no leap year
  /// ```
  ///
  /// - Parameter text: The text to read, with no whitespace around it.
  /// - Returns: The date, or nil.
  public static func parseDate(_ text: some StringProtocol) -> CivilDate? {
    withBytes(text, parseDate)
  }

  static func parseDate(_ bytes: UnsafeBufferPointer<UInt8>) -> CivilDate? {
    guard bytes.count == 8, let year = number(bytes, 0, 4), let month = number(bytes, 4, 2),
      let day = number(bytes, 6, 2)
    else { return nil }
    return CivilDate(year: year, month: month, day: day)
  }

  /// Reads `YYYYMMDDTHHMMSS` with an optional trailing `Z`; returns the reading and whether it
  /// was UTC.
  ///
  /// The `T` and `Z` may be in lower case; second 60 reads as 59, as
  /// ``CivilDateTime/init(year:month:day:hour:minute:second:)`` says.
  ///
  /// ```swift
  /// if let (reading, isUTC) = ICalendarFormat.parseDateTime("20250704t093000z") {
  ///   print(reading, isUTC)  // 20250704T093000 true
  /// }
  /// print(ICalendarFormat.parseDateTime("20250704") == nil)  // true: a DATE, not a DATE-TIME
  /// ```
  ///
  /// - Parameter text: The text to read, with no whitespace around it.
  /// - Returns: The reading and whether a `Z` ended it, or nil when the text is not a
  ///   DATE-TIME or names a date or time that does not exist.
  public static func parseDateTime(_ text: some StringProtocol) -> (CivilDateTime, isUTC: Bool)? {
    withBytes(text, parseDateTime)
  }

  static func parseDateTime(_ bytes: UnsafeBufferPointer<UInt8>) -> (CivilDateTime, isUTC: Bool)? {
    var bytes = bytes
    var isUTC = false
    if bytes.last == UInt8(ascii: "Z") || bytes.last == UInt8(ascii: "z") {
      isUTC = true
      bytes = UnsafeBufferPointer(rebasing: bytes.dropLast())
    }
    guard bytes.count == 15, bytes[8] == UInt8(ascii: "T") || bytes[8] == UInt8(ascii: "t"),
      let year = number(bytes, 0, 4), let month = number(bytes, 4, 2),
      let day = number(bytes, 6, 2), let hour = number(bytes, 9, 2),
      let minute = number(bytes, 11, 2), let second = number(bytes, 13, 2),
      let value = CivilDateTime(
        year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    else { return nil }
    return (value, isUTC)
  }

  /// `body` on the text's UTF-8 bytes, without copying them when the text holds them in one
  /// piece (a value is read for every date of every item an import reads).
  static func withBytes<Result>(
    _ text: some StringProtocol, _ body: (UnsafeBufferPointer<UInt8>) -> Result
  ) -> Result {
    if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
    return Array(text.utf8).withUnsafeBufferPointer(body)
  }

  private static func number(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int)
    -> Int?
  {
    var value = 0
    for byte in UnsafeBufferPointer(rebasing: bytes[start..<start + count]) {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
      value = value * 10 + Int(byte - UInt8(ascii: "0"))
    }
    return value
  }
}
