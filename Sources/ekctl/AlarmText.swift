import EkctlKit
import Foundation
import OpenEventKit

/// How `ekctl alarms` writes a firing: a line for a person, or a JSON object.
enum AlarmText {
  static func textLine(_ firing: AlarmFiring) -> String {
    var line = OccurrenceText.local(firing.fireDate) + "  " + firing.title
    if !firing.calendarTitle.isEmpty { line += "  [\(firing.calendarTitle)]" }
    return line + "  " + words(firing) + "  " + firing.id
  }

  /// An alarm's firings past a limit, in one line: "… 604700 more firings of Tick  [Home]  At
  /// the start, every second, from 2026-01-05T00:01:40 to 2026-01-11T23:59:59".
  static func textLine(_ summary: AlarmFiringTally.Summary) -> String {
    let firing = summary.last
    var line = "… " + counted(summary.count, "more firing") + " of " + firing.title
    if !firing.calendarTitle.isEmpty { line += "  [\(firing.calendarTitle)]" }
    line += "  " + trigger(firing)
    if let interval = summary.interval { line += ", " + AlarmWords.every(interval) }
    return line + ", from " + OccurrenceText.local(summary.first) + " to "
      + OccurrenceText.local(firing.fireDate)
  }

  /// The alarm in words, and the item's time it is about: "15 minutes before (starts
  /// 2025-03-01T10:00:00)", "30 minutes before (due …)", "at its own time (starts …)".
  static func words(_ firing: AlarmFiring) -> String {
    var text = trigger(firing)
    guard let start = firing.startDate else { return text }
    let moment = firing.isAllDay ? OccurrenceText.day(start) : OccurrenceText.local(start)
    text += firing.entityType == .reminder ? " (due \(moment))" : " (starts \(moment))"
    return text
  }

  /// The alarm in words: "15 minutes before", "at its own time".
  private static func trigger(_ firing: AlarmFiring) -> String {
    switch firing.trigger {
    case .absolute: "at its own time"
    case .relative(let offset):
      AlarmWords.describe(
        EKAlarm(relativeOffset: offset), start: firing.startDate, isAllDay: firing.isAllDay,
        timeZone: .current)
    }
  }

  /// An alarm's firings past a limit as JSON: how many ("count"), the first and last
  /// ("first", "last", UTC), the time between two when always the same ("interval", seconds;
  /// null otherwise), and the alarm and its item as a firing's JSON has them.
  static func jsonLine(_ summary: AlarmFiringTally.Summary, delivery: String) -> String {
    let firing = summary.last
    var line = JSONWriter()
    line.beginObject()
    line.member("delivery", delivery)
    line.member("count", summary.count)
    line.member("first", OccurrenceText.utc(summary.first))
    line.member("last", OccurrenceText.utc(firing.fireDate))
    if let interval = summary.interval {
      line.member("interval", Int(interval.rounded()))
    } else {
      line.member("interval", nil as String?)
    }
    addAlarmAndItem(of: firing, to: &line)
    line.endObject()
    return line.text
  }

  /// The alarm's trigger and the item it belongs to, as every JSON line of a firing says
  /// them (one firing, or the summary of an alarm's many).
  private static func addAlarmAndItem(of firing: AlarmFiring, to line: inout JSONWriter) {
    switch firing.trigger {
    case .relative(let offset):
      line.member("trigger", "relative")
      line.member("offset", Int(offset.rounded()))
    case .absolute:
      line.member("trigger", "absolute")
    }
    line.member("entityType", firing.entityType == .event ? "event" : "reminder")
    line.member("title", firing.title)
    line.member("calendar", firing.calendarTitle)
    line.member("calendarIdentifier", firing.calendarIdentifier)
    line.member("calendarItemIdentifier", firing.calendarItemIdentifier)
  }

  /// The firing as JSON; with `delivery` ("alarm", "snoozed", "missed") as the agent
  /// delivers it.
  static func jsonLine(_ firing: AlarmFiring, delivery: String? = nil) -> String {
    var line = JSONWriter()
    line.beginObject()
    if let delivery { line.member("delivery", delivery) }
    line.member("id", firing.id)
    line.member("fireDate", OccurrenceText.utc(firing.fireDate))
    addAlarmAndItem(of: firing, to: &line)
    line.member("occurrenceDate", firing.occurrenceDate.map(OccurrenceText.utc))
    line.member("start", firing.startDate.map(OccurrenceText.utc))
    line.member("end", firing.endDate.map(OccurrenceText.utc))
    line.member("allDay", firing.isAllDay)
    line.member("location", firing.location)
    line.endObject()
    return line.text
  }

  /// The location alarms of an item, in words.
  static func textLine(locationAlarmOf item: EKCalendarItem) -> String {
    var line = item.title ?? ""
    if let title = item.calendar?.title { line += "  [\(title)]" }
    let places = locationAlarms(of: item).map {
      AlarmWords.describe($0, start: nil, isAllDay: false, timeZone: .current)
    }
    return line + "  " + places.joined(separator: "; ") + "  " + item.calendarItemIdentifier
  }

  static func jsonLine(locationAlarmOf item: EKCalendarItem) -> String {
    var line = JSONWriter()
    line.beginObject()
    line.member("fireDate", nil)
    line.member("trigger", "location")
    line.member("entityType", item is EKEvent ? "event" : "reminder")
    line.member("title", item.title)
    line.member("calendar", item.calendar?.title)
    line.member("calendarItemIdentifier", item.calendarItemIdentifier)
    let alarms = locationAlarms(of: item)
    line.member("proximity", alarms.first?.proximity == .leave ? "leave" : "enter")
    line.member("place", alarms.first?.structuredLocation?.title)
    line.endObject()
    return line.text
  }

  private static func locationAlarms(of item: EKCalendarItem) -> [EKAlarm] {
    (item.alarms ?? []).filter { $0.proximity != .none }
  }
}
