import Foundation
import ICalendar
import REPLKit

/// A time as a player types it, a day and a time of day on the player's clock (REPLKit's
/// `WhenWords`: `2026-05-08 20:00`, `fri 20:00`, `tomorrow 8pm`, `2026-05-08T20:00`). A day
/// without a time, a time already past, or one beyond the suggestions' window (two months
/// ahead: a time further on would be listed to nobody), is refused.
enum SuggestedTime {
  static func read(_ words: [String], now: Date, in zone: TimeZone) throws -> Date {
    let text = words.joined(separator: " ")
    let reading: CivilDateTime
    switch WhenWords.read(words, now: now, in: zone) {
    case .time(let time): reading = time
    case .day:
      // `tonight`, `fri`: a game needs its hour.
      throw REPLError(
        "'\(text)' is a day without a time; say the time too, such as '\(text) 20:00'")
    case nil:
      throw REPLError("'\(text)' is not a time I can read; say when as \(WhenWords.examples)")
    }
    let instant = DateReading.instant(local: reading, in: zone)
    guard instant > now else {
      throw REPLError(
        "'\(text)' has already passed; suggest a time to come, such as \(WhenWords.examples)")
    }
    guard instant < PokerTimes.window(around: now, in: zone).end else {
      throw REPLError(
        "'\(text)' is more than two months ahead; times are suggested up to two months ahead")
    }
    return instant
  }
}
