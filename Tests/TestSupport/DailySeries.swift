import Foundation

/// An iCalendar file of one long daily series, 09:00 to 10:00 UTC from 1 January 2026 (UID
/// ``uid``), with as many detached and removed instances as a test needs. Day 0 is the first.
public enum DailySeries {
  public static let uid = "daily@example.com"

  /// The series, `days` times: the instances of the `detached` days moved to 10:00 by
  /// overrides titled "Moved N", those of the `excluded` days removed by EXDATEs, and overrides
  /// for the `overriddenExcluded` days too (which their EXDATEs win over).
  public static func ics(
    days: Int, detached: [Int], excluded: [Int] = [], overriddenExcluded: [Int] = []
  ) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withYear, .withMonth, .withDay, .withTime, .withTimeZone]
    func stamp(_ day: Int, hour: Int = 9) -> String {  // 20260101T090000Z
      formatter.string(from: instance(day).addingTimeInterval(TimeInterval((hour - 9) * 3600)))
    }
    var lines = [
      "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//OpenEventKit//Tests//EN", "BEGIN:VEVENT",
      "UID:\(uid)", "DTSTAMP:20250101T000000Z", "DTSTART:\(stamp(0))",
      "DTEND:\(stamp(0, hour: 10))", "RRULE:FREQ=DAILY;COUNT=\(days)", "SUMMARY:Daily",
    ]
    lines += excluded.map { "EXDATE:\(stamp($0))" }
    lines.append("END:VEVENT")
    for day in detached + overriddenExcluded {
      lines += [
        "BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20250101T000000Z", "RECURRENCE-ID:\(stamp(day))",
        "DTSTART:\(stamp(day, hour: 10))", "DTEND:\(stamp(day, hour: 11))",
        "SUMMARY:Moved \(day)", "END:VEVENT",
      ]
    }
    lines.append("END:VCALENDAR")
    return lines.joined(separator: "\r\n") + "\r\n"
  }

  /// The start of day `day`'s instance (09:00 UTC).
  public static func instance(_ day: Int) -> Date {
    Date(timeIntervalSince1970: 1_767_258_000 + TimeInterval(day * 86_400))
  }

  /// The day of an instance that starts at `date`.
  public static func day(of date: Date) -> Int {
    Int(date.timeIntervalSince(instance(0)).rounded(.down)) / 86_400
  }
}
