import Foundation
import ICalendar

/// Converts between instants and wall-clock readings (seconds since 1970-01-01T00:00 on the
/// wall clock, `CivilDateTime.localSeconds`) for the three kinds of item time EventKit has:
/// zoned, floating, and all-day.
///
/// A floating or all-day item names no instant until someone looks at it; EventKit reads it on
/// the clock of the current time zone, so an all-day event starts at the viewer's midnight
/// wherever the viewer is.
struct WallClock: Sendable {
  let zone: ZoneRules

  /// The clock of an item: its own zone when it has one, the current zone otherwise.
  init(timeZone identifier: String?) {
    self.init(timeZone: identifier, otherwise: .current)
  }

  /// The clock of an item, `current` when it has no zone (or one that cannot be loaded).
  init(timeZone identifier: String?, otherwise current: @autoclosure () -> WallClock) {
    zone = identifier.flatMap { try? ZoneRules.named($0) } ?? current().zone
  }

  init(zone: ZoneRules) { self.zone = zone }

  /// The current time zone's clock (`TimeZone.current`, which follows `TZ`).
  static var current: WallClock {
    WallClock(zone: (try? ZoneRules.named(TimeZone.current.identifier)) ?? .utc)
  }

  /// The reading of an instant, in whole seconds (fractions are dropped, as Apple's store does).
  func reading(_ date: Date) -> Int {
    zone.local(forUTC: WallClock.seconds(date))
  }

  /// The instant of a reading. A reading in a DST gap moves forward; an ambiguous one takes
  /// the earlier offset (RFC 5545 §3.3.5).
  func date(_ reading: Int) -> Date {
    Date(timeIntervalSince1970: TimeInterval(zone.instant(forLocal: reading).seconds))
  }

  func instant(_ reading: Int) -> Int { zone.instant(forLocal: reading).seconds }

  /// Whole seconds since 1970, clamped to years 0001…9999 so that no date traps.
  static func seconds(_ date: Date) -> Int {
    let value = date.timeIntervalSince1970.rounded(.down)
    guard value.isFinite else { return value < 0 ? minimumSeconds : maximumSeconds }
    return Int(Swift.min(Swift.max(value, Double(minimumSeconds)), Double(maximumSeconds)))
  }

  static let minimumSeconds = CivilDate(year: 1, month: 1, day: 1)!.dayNumber * 86_400
  static let maximumSeconds = CivilDate(year: 9999, month: 12, day: 31)!.dayNumber * 86_400 + 86_399

  /// The readings (and instants) of the years 1 to 9999: what the store keeps, and what an
  /// iCalendar date's four digits can say of the Gregorian calendar.
  static let keptSeconds = minimumSeconds...maximumSeconds

  /// `seconds` held within ``keptSeconds``.
  static func kept(_ seconds: Int) -> Int {
    Swift.min(Swift.max(seconds, minimumSeconds), maximumSeconds)
  }

  /// How far a reading can be from its instant in any zone: the largest UTC offset (+14:00)
  /// and more, so that a window widened by it finds every floating or all-day candidate.
  static let widestOffset = 26 * 3600

  /// The instant of an iCalendar value: UTC as it is, zoned in its zone, floating and DATE
  /// values on the current clock.
  static func date(of value: DateTimeValue) -> Date {
    switch value {
    case .utc(let reading): return Date(timeIntervalSince1970: TimeInterval(reading.localSeconds))
    case .zoned(let reading, let tzid): return WallClock(timeZone: tzid).date(reading.localSeconds)
    case .date, .floating: return WallClock.current.date(value.local.localSeconds)
    }
  }

  // MARK: All-day events

  /// The days an all-day event covers, the end exclusive, from the dates a caller set. An end
  /// at exactly midnight after the start ends the day before (a caller who sets the next
  /// midnight means the day before it); any other end counts its own day.
  func allDayReadings(start: Date, end: Date) -> (start: Int, end: Int) {
    let firstDay = reading(start).floorDivided(by: 86_400)
    let endReading = reading(end)
    var lastDay = endReading.floorDivided(by: 86_400)
    if endReading == lastDay * 86_400 && lastDay > firstDay { lastDay -= 1 }
    return (firstDay * 86_400, (Swift.max(lastDay, firstDay) + 1) * 86_400)
  }

  /// The dates EventKit shows for an all-day event: the first midnight, and one second before
  /// the midnight that ends it.
  func allDayDates(start: Int, end: Int) -> (start: Date, end: Date) {
    (date(start), date(end).addingTimeInterval(-1))
  }
}
