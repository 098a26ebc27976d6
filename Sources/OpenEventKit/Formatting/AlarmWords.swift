import Foundation

/// Alarms in words, as Calendar shows them: "15 minutes before", "At 09:00 on 3 May",
/// "When arriving at Trader Joe's".
///
/// An OpenEventKit addition (Apple's EventKit has no text for an alarm), shared by
/// OpenEventKitUI's views, `ekctl show` and the samples, in fixed English words. Alarms are
/// introduced in <doc:Learn>.
///
/// ```swift
/// for alarm in event.alarms ?? [] {
///   print(AlarmWords.describe(
///     alarm, start: event.startDate, isAllDay: event.isAllDay,
///     timeZone: event.timeZone ?? .current))
/// }
/// ```
public enum AlarmWords {
  /// The alarm of an item starting at `start` (all-day or not), on `timeZone`'s clock.
  ///
  /// An all-day item's relative offset counts from the midnight starting its day, so −15 hours
  /// reads "1 day before at 09:00", as Calendar says of all-day alarms. An absolute date shows
  /// its year only when it is not `start`'s.
  ///
  /// A location alarm reads "When arriving at …" or "When leaving …", whatever its offset. An
  /// alarm that is not a display alarm says how it alerts after the time: " (email to …)",
  /// " (sound …)", " (opens …)".
  ///
  /// ```swift
  /// let paris = TimeZone(identifier: "Europe/Paris")!
  /// let start = Date(timeIntervalSince1970: 1_740_988_800)  // Mon 3 Mar 2025 09:00 in Paris
  /// let before = EKAlarm(relativeOffset: -15 * 60)
  /// print(AlarmWords.describe(before, start: start, isAllDay: false, timeZone: paris))
  /// // 15 minutes before
  /// let atNine = EKAlarm(absoluteDate: start)
  /// print(AlarmWords.describe(atNine, start: start, isAllDay: false, timeZone: paris))
  /// // At 09:00 on 3 March
  /// ```
  ///
  /// - Parameters:
  ///   - alarm: The alarm to describe.
  ///   - start: The item's start (an event's `startDate`; a reminder's start or due date, or
  ///     nil when it has none). Only an absolute date uses it, to leave out a year it shares.
  ///   - isAllDay: Whether the item is all-day, so that a relative offset counts from the
  ///     midnight starting its day.
  ///   - timeZone: The zone whose clock the times are shown on.
  /// - Returns: The alarm in words, such as "15 minutes before" or "At 09:00 on 3 May".
  public static func describe(
    _ alarm: EKAlarm, start: Date?, isAllDay: Bool, timeZone: TimeZone
  ) -> String {
    let dates = DateText(timeZone: timeZone)
    var text: String
    if let place = alarm.structuredLocation?.title, alarm.proximity != .none {
      text = alarm.proximity == .enter ? "When arriving at \(place)" : "When leaving \(place)"
    } else if let date = alarm.absoluteDate {
      let sameYear = start.map { dates.parts($0).year == dates.parts(date).year } ?? false
      text = "At \(dates.time(date)) on \(dates.dayInSentence(date, year: !sameYear))"
    } else if isAllDay {
      text = allDayOffset(seconds(alarm.relativeOffset))
    } else {
      text = offset(seconds(alarm.relativeOffset))
    }
    switch alarm.type {
    case .email: text += alarm.emailAddress.map { " (email to \($0))" } ?? " (email)"
    case .procedure: text += alarm.snapshot.url.map { " (opens \($0.absoluteString))" } ?? ""
    case .audio: text += alarm.soundName.map { " (sound \($0))" } ?? " (sound)"
    case .display: break
    }
    return text
  }

  /// How often an alarm fires, from the time between two firings: "every second", "every
  /// 5 minutes", "every hour", "every 1 day 2 hours" (``AlarmFiringTally/Summary/interval``).
  ///
  /// ```swift
  /// print(AlarmWords.every(1))  // every second
  /// print(AlarmWords.every(300))  // every 5 minutes
  /// print(AlarmWords.every(3600))  // every hour
  /// ```
  public static func every(_ interval: TimeInterval) -> String {
    let text = amount(max(1, seconds(interval)))
    // "1 hour" alone reads "every hour"; "1 day 2 hours" keeps its numbers.
    let words = text.split(separator: " ")
    return "every " + (words.count == 2 && words[0] == "1" ? String(words[1]) : text)
  }

  /// Whole seconds, within a thousand years either way (an offset beyond that, or not a
  /// number, would not fit an Int).
  static func seconds(_ offset: TimeInterval) -> Int {
    guard offset.isFinite else { return 0 }
    return Int(min(max(offset, -31_557_600_000), 31_557_600_000).rounded())
  }

  /// "At the start", "15 minutes before", "1 hour 30 minutes after", "2 days before".
  static func offset(_ seconds: Int) -> String {
    guard seconds != 0 else { return "At the start" }
    return amount(abs(seconds)) + (seconds < 0 ? " before" : " after")
  }

  /// "On the day at 09:00", "1 day before at 09:00", "2 days after at 00:00".
  static func allDayOffset(_ seconds: Int) -> String {
    let days = seconds >= 0 ? seconds / 86_400 : -((-seconds + 86_399) / 86_400)
    let timeOfDay = seconds - days * 86_400
    let time = DateText.time(hour: timeOfDay / 3600, minute: timeOfDay / 60 % 60)
    switch days {
    case 0: return "On the day at \(time)"
    case ..<0: return "\(counted(-days, "day")) before at \(time)"
    default: return "\(counted(days, "day")) after at \(time)"
    }
  }

  /// The largest whole units first: "1 week", "2 days 3 hours", "45 minutes", "30 seconds".
  static func amount(_ seconds: Int) -> String {
    let units: [(String, Int)] = [
      ("week", 604_800), ("day", 86_400), ("hour", 3600), ("minute", 60), ("second", 1),
    ]
    var rest = seconds
    var parts: [String] = []
    for (name, size) in units where rest >= size {
      parts.append(counted(rest / size, name))
      rest %= size
    }
    return parts.joined(separator: " ")
  }

  static func counted(_ number: Int, _ unit: String) -> String {
    "\(number) \(unit)\(number == 1 ? "" : "s")"
  }
}
