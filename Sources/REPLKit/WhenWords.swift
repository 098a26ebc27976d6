import Foundation
import ICalendar

/// A day, or a day and a time of day, as a person types it at a prompt, read on their clock:
/// what poker-vote's `suggest` and recipe-reminders' `due` take.
///
/// - a day: `2026-05-08`, `today`, `tonight`, `tomorrow`, or a weekday (`fri`, `friday`:
///   the next one, today included);
/// - a day and a time: `fri 20:00`, `tomorrow 8pm`, `2026-05-08 8:30pm`; a weekday with a
///   time is the next one whose time is still to come;
/// - an ISO 8601 date-time, `2026-05-08T20:00` (with `Z` or an offset, taken to the clock).
///
/// ```swift
/// let zone = TimeZone(identifier: "Europe/Paris")!
/// let now = ISO8601DateFormatter().date(from: "2026-05-05T10:00:00+02:00")!  // a Tuesday
/// WhenWords.read(["fri", "20:00"], now: now, in: zone)  // .time(2026-05-08 20:00)
/// WhenWords.read(["tomorrow"], now: now, in: zone)      // .day(2026-05-06)
/// WhenWords.read(["fri 20:00"], now: now, in: zone)     // the same as ["fri", "20:00"]
/// ```
public enum WhenWords {
  /// What the words name.
  ///
  /// ```swift
  /// switch WhenWords.read(words, now: console.now, in: console.timeZone) {
  /// case .day(let day): console.print("On \(day)")
  /// case .time(let reading): console.print("At \(reading)")
  /// case nil: throw REPLError("give a day or a time, such as \(WhenWords.examples)")
  /// }
  /// ```
  public enum Reading: Hashable, Sendable {
    /// A whole day.
    case day(CivilDate)
    /// A wall-clock time on a day.
    case time(CivilDateTime)
  }

  /// Examples of what ``read(_:now:in:)`` takes, for messages that refuse a text.
  public static let examples = "2026-05-08 20:00, fri 20:00, tomorrow 19:00 or today 22:00"

  /// The day or time the words name on `zone`'s clock, `now` being the person's present;
  /// nil when they name neither.
  ///
  /// Words are read in any case. A time is `20:00`, `8pm` or `8:30pm` (`H:MM` with a 24-hour
  /// clock, or 1 to 12 with `am`/`pm` joined to it); a date is `2026-05-08`.
  ///
  /// ```swift
  /// let zone = TimeZone(identifier: "Europe/Paris")!
  /// let now = ISO8601DateFormatter().date(from: "2026-05-05T10:00:00+02:00")!  // a Tuesday
  /// print(WhenWords.read(["tomorrow", "8pm"], now: now, in: zone) as Any)
  /// // Optional(REPLKit.WhenWords.Reading.time(20260506T200000))
  /// print(WhenWords.read(["Friday"], now: now, in: zone) as Any)
  /// // Optional(REPLKit.WhenWords.Reading.day(20260508))
  /// print(WhenWords.read(["tomorrow", "25:00"], now: now, in: zone) as Any)  // nil
  /// ```
  ///
  /// - Parameters:
  ///   - words: The words as typed (``CommandLineWords`` splits a line into them): one for a
  ///     day or an ISO 8601 date-time, two for a day and a time. A word with spaces in it (a
  ///     quoted `"2026-05-08 20:00"`) reads as its words typed apart.
  ///   - now: The person's present, which `today`, `tomorrow` and weekdays count from.
  ///   - zone: The clock `now` is read on, and an ISO 8601 date-time with `Z` or an offset is
  ///     taken to.
  /// - Returns: ``Reading/day(_:)`` or ``Reading/time(_:)``, or nil when the words name
  ///   neither (three words or more, a time alone, an impossible time such as `25:00`).
  public static func read(_ words: [String], now: Date, in zone: TimeZone) -> Reading? {
    // Quoted or not, the same words: `"fri 20:00"` is `fri 20:00`.
    let words = words.flatMap { $0.split(whereSeparator: \.isWhitespace).map(String.init) }
    let today = DateReading.local(now, in: zone)
    if words.count == 1, words[0].contains("T"),
      let instant = DateReading.instant(words[0], in: zone)
    {
      return .time(DateReading.local(instant, in: zone))
    }
    switch words.count {
    case 1:
      return day(words[0].lowercased(), from: today, notBefore: nil).map { .day($0) }
    case 2:
      guard let time = secondOfDay(words[1].lowercased()),
        let day = day(words[0].lowercased(), from: today, notBefore: time)
      else { return nil }
      return .time(CivilDateTime(date: day, secondOfDay: time))
    default:
      return nil
    }
  }

  /// The day a word names. A weekday is the next such day, today included unless `time` of
  /// day (when given) has already passed today.
  private static func day(_ word: String, from now: CivilDateTime, notBefore time: Int?)
    -> CivilDate?
  {
    let today = now.date
    switch word {
    case "today", "tonight": return today
    case "tomorrow": return CivilDate(dayNumber: today.dayNumber + 1)
    default: break
    }
    if let weekday = weekday(word) {
      var ahead = (weekday.rawValue - today.weekday.rawValue + 7) % 7
      if ahead == 0, let time, time <= now.secondOfDay { ahead = 7 }
      return CivilDate(dayNumber: today.dayNumber + ahead)
    }
    guard !word.contains("t"), let value = try? ISO8601Text.parse(word),
      case .date(let date) = value
    else { return nil }
    return date
  }

  /// `fri`, `friday` (and `thu`/`thur`/`thurs`, `tue`/`tues`): three letters at least.
  private static func weekday(_ word: String) -> Weekday? {
    let names: [(String, Weekday)] = [
      ("sunday", .sunday), ("monday", .monday), ("tuesday", .tuesday),
      ("wednesday", .wednesday), ("thursday", .thursday), ("friday", .friday),
      ("saturday", .saturday),
    ]
    guard word.count >= 3 else { return nil }
    return names.first { $0.0.hasPrefix(word) }?.1
  }

  /// `20:00`, `8pm`, `8:30pm`; `8:30 pm` is two words and refused.
  private static func secondOfDay(_ word: String) -> Int? {
    var text = Substring(word)
    var half: Int?
    if text.hasSuffix("am") || text.hasSuffix("pm") {
      half = text.hasSuffix("pm") ? 12 : 0
      text = text.dropLast(2)
    }
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard (1...2).contains(parts.count),
      parts.allSatisfy({ (1...2).contains($0.count) && $0.allSatisfy(\.isASCIIDigit) }),
      var hour = Int(parts[0]), let minute = parts.count == 2 ? Int(parts[1]) : 0,
      (0..<60).contains(minute), parts.count == 2 || half != nil
    else { return nil }
    if let half {
      guard (1...12).contains(hour) else { return nil }
      hour = hour % 12 + half
    }
    guard (0..<24).contains(hour) else { return nil }
    return hour * 3600 + minute * 60
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { isASCII && isWholeNumber }
}
