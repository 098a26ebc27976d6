import Foundation
import ICalendar

/// Dates as people type them in a session: the ISO 8601 forms of ICalendar's `ISO8601Text`,
/// read on a given clock when they carry neither `Z` nor an offset.
public enum DateReading {
  /// The instant a text names: UTC and offset times as written; a local time on `zone`'s wall
  /// clock (a time skipped by a DST change moves forward, as RFC 5545 §3.3.5 does); a plain
  /// date at its midnight there. Nil when the text is not a date.
  public static func instant(_ text: String, in zone: TimeZone) -> Date? {
    guard let value = try? ISO8601Text.parse(text) else { return nil }
    switch value {
    case .utc(let reading):
      return Date(timeIntervalSince1970: TimeInterval(reading.localSeconds))
    case .zoned(let reading, _), .floating(let reading):
      return instant(local: reading, in: zone)
    case .date(let date):
      return instant(local: CivilDateTime(date: date), in: zone)
    }
  }

  /// A day as typed (`2025-03-01`, or a date-time whose day is taken on `zone`'s clock).
  public static func day(_ text: String, in zone: TimeZone) -> CivilDate? {
    guard let value = try? ISO8601Text.parse(text) else { return nil }
    if case .date(let date) = value { return date }
    guard let instant = instant(text, in: zone) else { return nil }
    return local(instant, in: zone).date
  }

  /// The wall-clock reading of an instant on `zone`'s clock, to the second.
  public static func local(_ instant: Date, in zone: TimeZone) -> CivilDateTime {
    let seconds = Int(instant.timeIntervalSince1970.rounded(.down))
    return CivilDateTime(localSeconds: seconds + zone.secondsFromGMT(for: instant))
  }

  /// The instant of a wall-clock reading on `zone`'s clock; a reading a DST change skips
  /// moves forward by the gap (RFC 5545 §3.3.5).
  public static func instant(local reading: CivilDateTime, in zone: TimeZone) -> Date {
    if let rules = try? ZoneRules.named(zone.identifier) {
      return Date(
        timeIntervalSince1970: TimeInterval(rules.instant(forLocal: reading.localSeconds).seconds))
    }
    let guess = Date(timeIntervalSince1970: TimeInterval(reading.localSeconds))
    return guess.addingTimeInterval(-TimeInterval(zone.secondsFromGMT(for: guess)))
  }
}
