import Foundation
import ICalendar

/// Dates as the tools read and write them: RFC 3339 instants with an offset (`Z` or
/// `+02:00`); a wall-clock time (`2026-03-02T09:00:00`) only beside an IANA zone that names
/// whose clock it is; plain dates (`2026-03-02`) for all-day events and due days.
///
/// An agent that guesses an offset is wrong for half the year somewhere: a time without one
/// and without a zone is refused, never read on the server's clock.
enum Times {
  /// A date or date-time as written.
  enum Reading: Sendable {
    case instant(Date)
    /// Year, month, day, hour, minute, second, without an offset.
    case wallClock(DateComponents)
    case day(DateComponents)
  }

  // Regex is a value never changed after it is made; Swift 6 does not yet call it Sendable.
  nonisolated(unsafe) private static let pattern =
    #/^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|z|[+-]\d{2}:\d{2})?)?$/#

  /// Reads `text`; nil when it is no RFC 3339 date or date-time (or a wall-clock one).
  static func read(_ text: String) -> Reading? {
    guard let match = text.wholeMatch(of: pattern) else { return nil }
    guard let year = Int(match.1), let month = Int(match.2), let day = Int(match.3),
      (1...12).contains(month), (1...31).contains(day), (1...9999).contains(year)
    else { return nil }
    var components = DateComponents(year: year, month: month, day: day)
    guard let hourText = match.4, let minuteText = match.5 else {
      return isReal(components) ? .day(components) : nil
    }
    guard let hour = Int(hourText), let minute = Int(minuteText), hour < 24, minute < 60
    else { return nil }
    let second = match.6.flatMap { Int($0) } ?? 0
    guard second < 61 else { return nil }
    components.hour = hour
    components.minute = minute
    components.second = min(second, 59)
    guard isReal(components) else { return nil }
    guard let offsetText = match.8 else { return .wallClock(components) }
    var offset = 0
    if offsetText != "Z" && offsetText != "z" {
      let sign = offsetText.hasPrefix("-") ? -1 : 1
      let parts = offsetText.dropFirst().split(separator: ":").compactMap { Int($0) }
      guard parts.count == 2, parts[0] < 24, parts[1] < 60 else { return nil }
      offset = sign * (parts[0] * 3600 + parts[1] * 60)
    }
    guard let zone = TimeZone(secondsFromGMT: offset),
      let date = gregorian(zone).date(from: components)
    else { return nil }
    let fraction = match.7.flatMap { Double("0" + $0) } ?? 0
    return .instant(date.addingTimeInterval(fraction))
  }

  /// Whether the components name a day that exists (no 31 February).
  private static func isReal(_ components: DateComponents) -> Bool {
    let calendar = gregorian(.gmt)
    guard let date = calendar.date(from: components) else { return false }
    let back = calendar.dateComponents([.year, .month, .day], from: date)
    return back.year == components.year && back.month == components.month
      && back.day == components.day
  }

  static func gregorian(_ zone: TimeZone) -> Calendar {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    return calendar
  }

  /// The zone an IANA name names; nil for an unknown name or an abbreviation (`CET`, `EST`
  /// are not places, and Foundation reads some of them as fixed offsets).
  static func zone(named name: String) -> TimeZone? {
    guard name.contains("/") || name == "UTC" || name == "Etc/UTC" else { return nil }
    return TimeZone(identifier: name)
  }

  /// The instant `components` reads on `zone`'s clock. A time the clock skips (a spring
  /// gap) is read as Foundation reads it, later by the gap.
  static func instant(_ components: DateComponents, in zone: TimeZone) -> Date? {
    gregorian(zone).date(from: components)
  }

  /// `date` in RFC 3339 with `zone`'s offset at that instant (`Z` for UTC), to the second.
  ///
  /// Written from the store's own zone rules (ICalendar's `ZoneRules`, the tz database the
  /// recurrence engine reads) and civil arithmetic: `ISO8601DateFormatter` goes through ICU
  /// and took a sixth of a month's `list_events` answer, three times per event
  /// (docs/PERFORMANCE.md, `ekbench mcp`). A zone with no tz database file (one made from an
  /// offset) gives its offset through Foundation.
  static func text(_ date: Date, in zone: TimeZone) -> String {
    let instant = Int(date.timeIntervalSince1970.rounded(.down))
    let offset =
      (try? ZoneRules.named(zone.identifier))?.offset(atUTC: instant)
      ?? zone.secondsFromGMT(for: date)
    // RFC 3339 offsets are hours and minutes: the seconds of an old local mean time are left
    // out of both the offset and the time written, so that the text names the same instant.
    let shown = offset / 60
    var text = ISO8601Text.string(CivilDateTime(localSeconds: instant + shown * 60))
    guard shown != 0 else { return text + "Z" }
    text += shown < 0 ? "-" : "+"
    let minutes = abs(shown)
    text += minutes / 60 < 10 ? "0\(minutes / 60):" : "\(minutes / 60):"
    text += minutes % 60 < 10 ? "0\(minutes % 60)" : "\(minutes % 60)"
    return text
  }

  /// `date`'s day on `zone`'s clock, `2026-03-02`.
  static func dayText(_ date: Date, in zone: TimeZone) -> String {
    let parts = gregorian(zone).dateComponents([.year, .month, .day], from: date)
    return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
  }
}
