import Foundation
import ICalendar
import OpenEventKit
import REPLKit

/// What the editors read from a person's answers: dates and times, yes or no, a repeat rule
/// and alarms, each with a message that says what was expected when an answer does not fit.
enum EditorInput {
  struct Problem: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }

  static func yesOrNo(_ text: String) throws(Problem) -> Bool {
    switch text.lowercased() {
    case "y", "yes", "true", "on": return true
    case "n", "no", "false", "off": return false
    default: throw Problem("Please answer yes or no.")
    }
  }

  /// A date and time: ISO 8601 (`2025-03-01T09:00`, with `Z` or an offset for an exact
  /// instant), or just a time (`14:30`) to keep `current`'s day. Read on `zone`'s clock.
  static func dateTime(_ text: String, current: Date?, zone: TimeZone) throws(Problem) -> Date {
    if let time = timeOfDay(text) {
      // That time on the current day; a time a DST change skips moves forward (§3.3.5).
      let day = DateReading.local(current ?? Date(), in: zone).date
      return DateReading.instant(
        local: CivilDateTime(date: day, secondOfDay: time.hour * 3600 + time.minute * 60),
        in: zone)
    }
    guard let date = DateReading.instant(text, in: zone) else {
      throw Problem(
        "Please give a date and time such as 2025-03-01T09:00, or a time such as 14:30.")
    }
    return date
  }

  /// A day (`2025-03-01`), at its midnight on `zone`'s clock.
  static func day(_ text: String, zone: TimeZone) throws(Problem) -> Date {
    guard let day = DateReading.day(text, in: zone),
      let date = DateReading.instant(ISO8601Text.string(day), in: zone)
    else { throw Problem("Please give a date such as 2025-03-01.") }
    return date
  }

  /// The end of an all-day event whose start moved to `start`: as many days as from
  /// `oldStart` to `oldEnd`, counted on `zone`'s clock, so that a DST change between the old
  /// and new days cannot shift the end by an hour. EventKit's all-day end is the last second
  /// of the last day.
  static func allDayEnd(
    keepingDaysFrom oldStart: Date, to oldEnd: Date, movedTo start: Date, zone: TimeZone
  ) -> Date {
    let days =
      DateReading.local(oldEnd, in: zone).dayNumber
      - DateReading.local(oldStart, in: zone).dayNumber
    return DateText(timeZone: zone).startOfDay(start, adding: max(0, days) + 1)
      .addingTimeInterval(-1)
  }

  /// `HH:MM` (or `H:MM`), 00:00 to 23:59.
  static func timeOfDay(_ text: String) -> (hour: Int, minute: Int)? {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
      let hour = Int(parts[0]), let minute = Int(parts[1]), (0..<24).contains(hour),
      (0..<60).contains(minute)
    else { return nil }
    return (hour, minute)
  }

  // MARK: Repeat

  static let repeatHelp =
    "Please answer never, daily, weekly, monthly, yearly or every N days/weeks/months/years, "
    + "optionally followed by ', N times' or ', until 2025-12-31'; or give an RRULE such as "
    + "FREQ=WEEKLY;BYDAY=MO,FR."

  /// A repeat rule: `never`; `daily`, `weekly`, `monthly`, `yearly`, `every 2 weeks`, each
  /// optionally ending `, 10 times` or `, until 2025-12-31`; or an RRULE's text.
  static func recurrence(_ text: String, zone: TimeZone) throws(Problem) -> EKRecurrenceRule? {
    let lowered = text.lowercased()
    if ["never", "none", "no", "-"].contains(lowered) { return nil }
    if lowered.hasPrefix("freq=") || lowered.hasPrefix("rrule:") {
      let body = lowered.hasPrefix("rrule:") ? String(text.dropFirst(6)) : text
      do {
        return try rule(from: RecurrenceRule(parsing: body), zone: zone)
      } catch let problem as Problem {
        throw problem
      } catch {
        throw Problem("\(error)")
      }
    }
    let clauses = lowered.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    guard let head = clauses.first, clauses.count <= 2 else { throw Problem(repeatHelp) }
    var frequency: EKRecurrenceFrequency
    var interval = 1
    let words = head.split(separator: " ").map(String.init)
    switch words.count {
    case 1:
      guard let named = adverbs[words[0]] else { throw Problem(repeatHelp) }
      frequency = named
    case 2, 3:
      // "every week", "every 2 weeks"
      guard words[0] == "every",
        let named = units[words.last!.hasSuffix("s") ? String(words.last!.dropLast()) : words.last!]
      else {
        throw Problem(repeatHelp)
      }
      frequency = named
      if words.count == 3 {
        guard let number = Int(words[1]), number >= 1 else { throw Problem(repeatHelp) }
        interval = number
      }
    default: throw Problem(repeatHelp)
    }
    var end: EKRecurrenceEnd?
    if clauses.count == 2 {
      let clause = clauses[1]
      if clause.hasPrefix("until ") {
        let day = try EditorInput.day(String(clause.dropFirst(6)), zone: zone)
        // The whole last day is included: EventKit's end date is inclusive.
        end = EKRecurrenceEnd(
          end: DateText(timeZone: zone).startOfDay(day, adding: 1).addingTimeInterval(-1))
      } else if clause == "once" {
        end = EKRecurrenceEnd(occurrenceCount: 1)
      } else if let count = Int(clause.replacingOccurrences(of: " times", with: "")), count >= 1 {
        end = EKRecurrenceEnd(occurrenceCount: count)
      } else {
        throw Problem(repeatHelp)
      }
    }
    return EKRecurrenceRule(recurrenceWith: frequency, interval: interval, end: end)
  }

  private static let adverbs: [String: EKRecurrenceFrequency] = [
    "daily": .daily, "weekly": .weekly, "monthly": .monthly, "yearly": .yearly,
    "annually": .yearly,
  ]
  private static let units: [String: EKRecurrenceFrequency] = [
    "day": .daily, "week": .weekly, "month": .monthly, "year": .yearly,
  ]

  /// An RFC 5545 rule in EventKit's terms, which repeat daily at the finest.
  static func rule(from rule: RecurrenceRule, zone: TimeZone) throws(Problem) -> EKRecurrenceRule {
    let frequency: EKRecurrenceFrequency
    switch rule.frequency {
    case .daily: frequency = .daily
    case .weekly: frequency = .weekly
    case .monthly: frequency = .monthly
    case .yearly: frequency = .yearly
    default:
      throw Problem(
        "Events repeat daily, weekly, monthly or yearly, not \(rule.frequency.rawValue).")
    }
    guard rule.byHour.isEmpty, rule.byMinute.isEmpty, rule.bySecond.isEmpty else {
      throw Problem("BYHOUR, BYMINUTE and BYSECOND have no place in an event's repeat rule.")
    }
    var end: EKRecurrenceEnd?
    if let count = rule.count {
      end = EKRecurrenceEnd(occurrenceCount: count)
    } else if let until = rule.until {
      switch until {
      case .utc(let reading):
        end = EKRecurrenceEnd(end: Date(timeIntervalSince1970: TimeInterval(reading.localSeconds)))
      case .date(let day):
        // A DATE UNTIL includes its whole day (§3.3.10); EventKit's end date is inclusive.
        let nextDay = CivilDateTime(date: CivilDate(dayNumber: day.dayNumber + 1))
        end = EKRecurrenceEnd(end: DateReading.instant(local: nextDay, in: zone) - 1)
      case .floating(let reading), .zoned(let reading, _):
        end = EKRecurrenceEnd(end: DateReading.instant(local: reading, in: zone))
      }
    }
    // EventKit's rules have no week start of their own: weeks begin on Monday, as in
    // RFC 5545's default, and another WKST would change which days a rule gives.
    guard rule.weekStart == .monday else {
      throw Problem("Only weeks starting on Monday (WKST=MO) can be kept in an event's rule.")
    }
    let numbers = { (values: [Int]) in values.isEmpty ? nil : values.map { NSNumber(value: $0) } }
    return EKRecurrenceRule(
      recurrenceWith: frequency, interval: rule.interval,
      daysOfTheWeek: rule.byDay.isEmpty
        ? nil
        : rule.byDay.compactMap { day in
          EKWeekday(rawValue: day.weekday.rawValue).map {
            EKRecurrenceDayOfWeek(dayOfTheWeek: $0, weekNumber: day.ordinal ?? 0)
          }
        },
      daysOfTheMonth: numbers(rule.byMonthDay), monthsOfTheYear: numbers(rule.byMonth),
      weeksOfTheYear: numbers(rule.byWeekNo), daysOfTheYear: numbers(rule.byYearDay),
      setPositions: numbers(rule.bySetPos), end: end)
  }

  // MARK: Alarms

  static let alarmHelp =
    "Please answer none, 'at start', or times before the start separated by commas, such as "
    + "'15 minutes', '1 hour', '2 days' (add 'after' for after the start), or a date and time "
    + "such as 2025-05-03T09:00."

  /// Alarms: `none`; `at start`; offsets such as `15 minutes`, `1h`, `2 days before`,
  /// `10 minutes after`; or absolute times, separated by commas.
  static func alarms(_ text: String, zone: TimeZone) throws(Problem) -> [EKAlarm] {
    let lowered = text.lowercased()
    if ["none", "no", "never", "-"].contains(lowered) { return [] }
    var alarms: [EKAlarm] = []
    for part in lowered.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
      if part == "at start" || part == "0" || part == "at the start" {
        alarms.append(EKAlarm(relativeOffset: 0))
      } else if let offset = offset(part) {
        alarms.append(EKAlarm(relativeOffset: offset))
      } else if let date = DateReading.instant(
        part.hasPrefix("at ") ? String(part.dropFirst(3)) : part, in: zone)
      {
        alarms.append(EKAlarm(absoluteDate: date))
      } else {
        throw Problem(alarmHelp)
      }
    }
    return alarms
  }

  /// `15 minutes [before|after]`, `15m`, `1 h`, `2 days`: seconds from the start (negative is
  /// before it, the default).
  static func offset(_ text: String) -> TimeInterval? {
    var words = text.split(separator: " ").map(String.init)
    var sign = -1.0
    if words.last == "before" {
      words.removeLast()
    } else if words.last == "after" {
      words.removeLast()
      sign = 1
    }
    // The number is the leading ASCII digits and points ("1.5h"): no exponent, no sign.
    var joined = words.joined()
    let unitText = String(joined.drop { $0.isASCII && ($0.isNumber || $0 == ".") })
    joined.removeLast(unitText.count)
    // No more than about a century ahead.
    guard !joined.isEmpty, let number = Double(joined), number <= 100_000
    else { return nil }
    let unit: Double
    switch unitText {
    case "m", "min", "mins", "minute", "minutes": unit = 60
    case "h", "hr", "hrs", "hour", "hours": unit = 3600
    case "d", "day", "days": unit = 86_400
    case "w", "week", "weeks": unit = 604_800
    default: return nil
    }
    return sign * number * unit
  }
}
