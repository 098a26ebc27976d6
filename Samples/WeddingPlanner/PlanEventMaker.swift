import Foundation
import ICalendar
import OpenEventKit
import REPLKit

/// The events the plan puts on the calendar, built the way an app builds one before it saves
/// it or hands it to the editor: a title from the item, a URL back to it, its place, and
/// alarms so that nothing is forgotten.
enum PlanEventMaker {
  /// How long an appointment, the ceremony or a fitting is: an hour.
  static let length: TimeInterval = 3600

  /// An event for `item` in `calendar`: title, URL, location, and alarms a day and an hour
  /// before (the all-day wedding day: the day before at 09:00).
  static func event(for item: PlanItem, in calendar: EKCalendar, store: EKEventStore) -> EKEvent {
    let event = EKEvent(eventStore: store)
    event.calendar = calendar
    event.title = item.title
    event.url = item.url
    event.location = item.place
    return event
  }

  /// The alarms of a timed event: a day before and an hour before.
  static func timedAlarms() -> [EKAlarm] {
    [EKAlarm(relativeOffset: -86_400), EKAlarm(relativeOffset: -3_600)]
  }

  /// An appointment starting at `start`, an hour long, on the couple's clock.
  static func appointment(
    _ item: PlanItem, start: Date, zone: TimeZone, in calendar: EKCalendar, store: EKEventStore
  ) -> EKEvent {
    let event = event(for: item, in: calendar, store: store)
    event.timeZone = zone
    event.startDate = start
    event.endDate = start.addingTimeInterval(length)
    event.alarms = timedAlarms()
    return event
  }

  /// The wedding day: an all-day event, the same date wherever one looks at it.
  static func weddingDay(
    _ item: PlanItem, on day: CivilDate, zone: TimeZone, in calendar: EKCalendar,
    store: EKEventStore
  ) -> EKEvent {
    let event = event(for: item, in: calendar, store: store)
    setDay(event, day, zone: zone)
    // An all-day event's offset counts from its midnight: 15 hours before is 09:00 the day
    // before.
    event.alarms = [EKAlarm(relativeOffset: -15 * 3_600)]
    return event
  }

  /// Puts an all-day event on `day`.
  static func setDay(_ event: EKEvent, _ day: CivilDate, zone: TimeZone) {
    let midnight = DateReading.instant(local: CivilDateTime(date: day), in: zone)
    event.isAllDay = true
    event.startDate = midnight
    event.endDate = midnight
  }

  /// The ceremony's start: `time` of day on the wedding day, on the venue's clock.
  static func ceremonyStart(_ wedding: Wedding, time: Int) throws -> Date {
    guard let day = wedding.civilDay else { throw WeddingError("The wedding day is not a date.") }
    return DateReading.instant(local: CivilDateTime(date: day, secondOfDay: time), in: wedding.zone)
  }

  /// The dress fittings: one event, weekly from `start` until two weeks before the day.
  static func fittings(
    _ item: PlanItem, start: Date, until: Date, zone: TimeZone, in calendar: EKCalendar,
    store: EKEventStore
  ) -> EKEvent {
    let event = appointment(item, start: start, zone: zone, in: calendar, store: store)
    event.addRecurrenceRule(
      EKRecurrenceRule(recurrenceWith: .weekly, interval: 1, end: EKRecurrenceEnd(end: until)))
    return event
  }
}

extension Wedding {
  /// The day as a date.
  var civilDay: CivilDate? { DateReading.day(day, in: zone) }

  /// The last moment of the day two weeks before the wedding, on `clock`: when the fittings
  /// end.
  func fittingsEnd(on clock: TimeZone) -> Date? {
    guard let day = civilDay else { return nil }
    let last = CivilDate(dayNumber: day.dayNumber - 14)
    return DateReading.instant(local: CivilDateTime(date: last, secondOfDay: 86_399), in: clock)
  }
}
