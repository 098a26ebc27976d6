import Foundation
import ICalendar
import REPLKit

/// A time as a player types it: a day and a time of day, read on the player's clock.
///
/// - day: `2026-05-08`, `today`, `tonight`, `tomorrow`, or a weekday (`fri`, `friday`: the
///   next one, today when its time is still to come);
/// - time: `20:00`, `8pm`, `8:30pm`.
///
/// `2026-05-08T20:00` works too. A time already past is refused.
enum SuggestedTime {
  static let examples = "2026-05-08 20:00, fri 20:00, tomorrow 19:00 or today 22:00"

  static func read(_ words: [String], now: Date, in zone: TimeZone) throws -> Date {
    let text = words.joined(separator: " ")
    guard let instant = instant(words, now: now, in: zone) else {
      throw REPLError("'\(text)' is not a time I can read; say when as \(examples)")
    }
    guard instant > now else {
      throw REPLError("'\(text)' has already passed; suggest a time to come, such as \(examples)")
    }
    return instant
  }

  private static func instant(_ words: [String], now: Date, in zone: TimeZone) -> Date? {
    if words.count == 1, words[0].contains("T"),
      let instant = DateReading.instant(words[0], in: zone)
    {
      return instant
    }
    guard words.count == 2, let time = secondOfDay(words[1].lowercased()) else { return nil }
    let today = DateReading.local(now, in: zone).date
    let day: CivilDate
    switch words[0].lowercased() {
    case "today", "tonight": day = today
    case "tomorrow": day = CivilDate(dayNumber: today.dayNumber + 1)
    case let word:
      if let weekday = weekday(word) {
        var ahead = (weekday.rawValue - today.weekday.rawValue + 7) % 7
        let reading = CivilDateTime(
          date: CivilDate(dayNumber: today.dayNumber + ahead), secondOfDay: time)
        if DateReading.instant(local: reading, in: zone) <= now { ahead += 7 }
        day = CivilDate(dayNumber: today.dayNumber + ahead)
      } else if let date = DateReading.day(word, in: zone), !word.contains("T") {
        day = date
      } else {
        return nil
      }
    }
    return DateReading.instant(local: CivilDateTime(date: day, secondOfDay: time), in: zone)
  }

  /// `fri`, `friday` (and `thu`/`thur`/`thurs`, `tue`/`tues`).
  private static func weekday(_ word: String) -> Weekday? {
    let names: [(String, Weekday)] = [
      ("sunday", .sunday), ("monday", .monday), ("tuesday", .tuesday),
      ("wednesday", .wednesday), ("thursday", .thursday), ("friday", .friday),
      ("saturday", .saturday),
    ]
    guard word.count >= 3 else { return nil }
    return names.first { $0.0.hasPrefix(word) }?.1
  }

  /// `20:00`, `8pm`, `8:30pm`, `8:30 pm` is two words and refused.
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
