/// RFC 5545's UTC-OFFSET (§3.3.14): `+0100`, `-0500`, `+053000`, in seconds east of UTC.
///
/// VTIMEZONE observances give their TZOFFSETFROM and TZOFFSETTO in this form.
///
/// ```swift
/// print(UTCOffset.seconds(parsing: "-0500") ?? 0)  // -18000
/// print(UTCOffset.text(19_800))  // +0530
/// ```
public enum UTCOffset {
  /// Reads `±HHMM` or `±HHMMSS`; nil for anything else, and for `-0000`, which §3.3.14
  /// forbids.
  ///
  /// ```swift
  /// print(UTCOffset.seconds(parsing: "+0530") ?? 0)  // 19800
  /// print(UTCOffset.seconds(parsing: "-0000") == nil)  // true: §3.3.14 forbids it
  /// ```
  ///
  /// - Parameter text: The offset; whitespace around it is ignored. The sign is required.
  /// - Returns: Seconds east of UTC, negative west of it; nil when hours exceed 23, minutes
  ///   or seconds 59, or the text is not of the form.
  public static func seconds(parsing text: some StringProtocol) -> Int? {
    let bytes = Array(text.trimmingWhitespace().utf8)
    guard bytes.count == 5 || bytes.count == 7,
      bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-"),
      bytes.dropFirst().allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
    else { return nil }
    func pair(_ at: Int) -> Int { Int(bytes[at] - 0x30) * 10 + Int(bytes[at + 1] - 0x30) }
    let hours = pair(1)
    let minutes = pair(3)
    let seconds = bytes.count == 7 ? pair(5) : 0
    guard hours < 24, minutes < 60, seconds < 60 else { return nil }
    let total = hours * 3600 + minutes * 60 + seconds
    if bytes[0] == UInt8(ascii: "-") {
      return total == 0 ? nil : -total
    }
    return total
  }

  /// The text of an offset: `+0100`, `-0430`, `+053015` when there are seconds.
  ///
  /// ```swift
  /// print(UTCOffset.text(-14_400))  // -0400
  /// print(UTCOffset.text(0))  // +0000
  /// ```
  ///
  /// - Parameter seconds: Seconds east of UTC, negative west of it.
  /// - Returns: The UTC-OFFSET text; zero is `+0000`.
  public static func text(_ seconds: Int) -> String {
    let sign = seconds < 0 ? "-" : "+"
    let magnitude = abs(seconds)
    var text = sign
    ICalendarFormat.appendPadded(magnitude / 3600, width: 2, to: &text)
    ICalendarFormat.appendPadded(magnitude / 60 % 60, width: 2, to: &text)
    if magnitude % 60 != 0 { ICalendarFormat.appendPadded(magnitude % 60, width: 2, to: &text) }
    return text
  }
}
