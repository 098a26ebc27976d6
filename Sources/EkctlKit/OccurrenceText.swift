import Foundation
import ICalendar
import OpenEventKit

/// How `ekctl` writes an event's times: instants in UTC with `Z` (`2025-03-01T09:00:00Z`),
/// all-day events as dates with the end exclusive, as iCalendar writes them, and floating
/// events as local times without `Z`, read on the current clock.
package enum OccurrenceText {
  package static var clock: ZoneRules {
    (try? ZoneRules.named(TimeZone.current.identifier)) ?? .utc
  }

  package static func seconds(_ date: Date) -> Int {
    Int(date.timeIntervalSince1970.rounded(.down))
  }

  package static func utc(_ date: Date) -> String {
    ISO8601Text.string(DateTimeValue.utc(CivilDateTime(localSeconds: seconds(date))))
  }

  package static func local(_ date: Date) -> String {
    ISO8601Text.string(CivilDateTime(localSeconds: clock.local(forUTC: seconds(date))))
  }

  package static func day(_ date: Date, plus days: Int = 0) -> String {
    let reading = clock.local(forUTC: seconds(date))
    return ISO8601Text.string(CivilDate(dayNumber: reading.floorDivided(by: 86_400) + days))
  }

  package static func isFloating(_ event: EKEvent) -> Bool {
    !event.isAllDay && event.timeZone == nil
  }

  package static func start(_ event: EKEvent) -> String { time(event.startDate, of: event) }

  /// The end: for an all-day event the day after its last (EventKit's end is 23:59:59 of it).
  package static func end(_ event: EKEvent) -> String {
    if event.isAllDay { return day(event.endDate, plus: 1) }
    return time(event.endDate, of: event)
  }

  package static func time(_ date: Date, of event: EKEvent) -> String {
    if event.isAllDay { return day(date) }
    return isFloating(event) ? local(date) : utc(date)
  }
}
