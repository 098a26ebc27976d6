import ArgumentParser
import Foundation
import ICalendar

/// A date on the command line: ISO 8601 with `Z` or an offset (an instant), local without
/// either, or a plain date (midnight), local ones read in the current time zone (`TZ`).
struct DateArgument: ExpressibleByArgument {
  let date: Date
  /// Whether it was a plain date.
  let isDay: Bool

  init?(argument: String) {
    guard let value = try? ISO8601Text.parse(argument) else { return nil }
    isDay = value.isDate
    date = DateArgument.date(of: value)
  }

  static var defaultCompletionKind: CompletionKind { .default }

  /// The instant of a value: UTC as it is, local and plain dates on the current clock.
  static func date(of value: DateTimeValue) -> Date {
    if case .utc(let reading) = value {
      return Date(timeIntervalSince1970: TimeInterval(reading.localSeconds))
    }
    let reading = value.local.localSeconds
    let zone = (try? ZoneRules.named(TimeZone.current.identifier)) ?? .utc
    return Date(timeIntervalSince1970: TimeInterval(zone.instant(forLocal: reading).seconds))
  }
}
