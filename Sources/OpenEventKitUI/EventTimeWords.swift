import Foundation
import OpenEventKit

/// When an event happens, in words: "Mon 3 Mar 2025 09:00–10:00", "Mon 3 Mar – Wed 5 Mar
/// 2025, all day", and a second line on the event's own clock when it keeps another zone.
enum EventTimeWords {
  static func lines(for event: EKEvent, viewer: TimeZone) -> [String] {
    guard let (start, end) = FloatingTime.dates(of: event, viewer: viewer) else { return [] }
    if event.isAllDay {
      // All-day events are dates, the same in every zone.
      return [allDay(start: start, end: end, dates: DateText(timeZone: viewer))]
    }
    var lines = [span(start: start, end: end, dates: DateText(timeZone: viewer))]
    if let zone = event.timeZone {
      if zone.secondsFromGMT(for: start) != viewer.secondsFromGMT(for: start)
        || zone.secondsFromGMT(for: end) != viewer.secondsFromGMT(for: end)
      {
        lines.append(
          "\(span(start: start, end: end, dates: DateText(timeZone: zone))) \(zone.identifier)")
      }
    } else {
      lines.append("floating: the same clock time in every zone")
    }
    return lines
  }

  /// "Mon 3 Mar 2025 09:00–10:00", or both days when it ends on another.
  static func span(start: Date, end: Date, dates: DateText) -> String {
    let sameDay =
      dates.startOfDay(start) == dates.startOfDay(end)
      || end == dates.startOfDay(end) && dates.startOfDay(start, adding: 1) == end
    if sameDay && end >= start {
      let endTime = end == dates.startOfDay(end) && end != start ? "24:00" : dates.time(end)
      return "\(dates.day(start)) \(dates.time(start))–\(endTime)"
    }
    return "\(dates.dayAndTime(start)) – \(dates.dayAndTime(end))"
  }

  /// "Mon 3 Mar 2025, all day", or "Mon 3 Mar – Wed 5 Mar 2025, all day" (EventKit's end is the
  /// last second of the last day).
  static func allDay(start: Date, end: Date, dates: DateText) -> String {
    let first = dates.parts(start)
    let last = dates.parts(end)
    if first.year == last.year && first.month == last.month && first.day == last.day {
      return "\(dates.day(start)), all day"
    }
    return "\(dates.day(start, year: first.year != last.year)) – \(dates.day(end)), all day"
  }
}
