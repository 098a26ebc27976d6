import Foundation
import MCP
import OpenEventKit

/// Events, reminders and calendars as the tools answer them: JSON objects with RFC 3339
/// times (offsets on the event's own zone, or the call's `timeZone`), dates for all-day
/// events with the end exclusive.
enum ItemText {
  static func calendar(_ calendar: EKCalendar) -> Value {
    let kind = calendar.allowedEntityTypes.contains(.event) ? "events" : "reminders"
    return [
      "id": .string(calendar.calendarIdentifier), "title": .string(calendar.title),
      "kind": .string(kind), "account": .string(calendar.source?.title ?? ""),
      "writable": .bool(calendar.allowsContentModifications),
      "uri": .string(CalendarResources.uri(calendar)),
    ]
  }

  /// The clock an event's times are written on: the call's zone, else the event's own, else
  /// (a floating event) the server's.
  static func zone(of event: EKEvent, asked: TimeZone?) -> TimeZone {
    asked ?? event.timeZone ?? .current
  }

  static func event(_ event: EKEvent, zone asked: TimeZone?) -> Value {
    let zone = zone(of: event, asked: asked)
    var object: [String: Value] = [
      "eventId": .string(event.calendarItemIdentifier),
      "title": .string(event.title ?? ""),
      "calendar": .string(event.calendar?.title ?? ""),
      "calendarId": .string(event.calendar?.calendarIdentifier ?? ""),
      "allDay": .bool(event.isAllDay),
      "repeats": .bool(event.hasRecurrenceRules || event.isDetached),
      "detached": .bool(event.isDetached),
      "availability": .string(availability(event.availability)),
    ]
    if event.isAllDay {
      // All-day days are the store's floating days, read on the server's clock.
      object["start"] = .string(Times.dayText(event.startDate, in: .current))
      object["end"] = .string(Times.dayText(event.endDate.addingTimeInterval(1), in: .current))
      object["occurrenceDate"] = .string(Times.dayText(event.occurrenceDate, in: .current))
    } else {
      object["start"] = .string(Times.text(event.startDate, in: zone))
      object["end"] = .string(Times.text(event.endDate, in: zone))
      object["occurrenceDate"] = .string(Times.text(event.occurrenceDate, in: zone))
    }
    if let name = event.timeZone?.identifier { object["timeZone"] = .string(name) }
    if event.timeZone == nil && !event.isAllDay { object["floating"] = true }
    if let location = event.location, !location.isEmpty { object["location"] = .string(location) }
    if let notes = event.notes, !notes.isEmpty { object["notes"] = .string(notes) }
    if let alarms = event.alarms, !alarms.isEmpty {
      object["alarms"] = .array(alarms.map { .int(Int(-$0.relativeOffset / 60)) })
    }
    if event.status == .canceled { object["cancelled"] = true }
    return .object(object)
  }

  static func reminder(_ reminder: EKReminder, zone: TimeZone) -> Value {
    var object: [String: Value] = [
      "reminderId": .string(reminder.calendarItemIdentifier),
      "title": .string(reminder.title ?? ""),
      "list": .string(reminder.calendar?.title ?? ""),
      "listId": .string(reminder.calendar?.calendarIdentifier ?? ""),
      "completed": .bool(reminder.isCompleted), "priority": .int(reminder.priority),
      "repeats": .bool(reminder.hasRecurrenceRules),
    ]
    if let due = reminder.dueDateComponents { object["due"] = .string(dueText(due, zone: zone)) }
    if let done = reminder.completionDate {
      object["completedAt"] = .string(Times.text(done, in: zone))
    }
    if let notes = reminder.notes, !notes.isEmpty { object["notes"] = .string(notes) }
    if let alarms = reminder.alarms, !alarms.isEmpty {
      object["alarms"] = .array(alarms.map { .int(Int(-$0.relativeOffset / 60)) })
    }
    return .object(object)
  }

  /// A due date: a day when it has no time, else an instant on its zone (or `zone`).
  static func dueText(_ due: DateComponents, zone: TimeZone) -> String {
    guard due.hour != nil else {
      return String(format: "%04d-%02d-%02d", due.year ?? 0, due.month ?? 0, due.day ?? 0)
    }
    let clock = due.timeZone ?? zone
    guard let date = Times.instant(due, in: clock) else { return "" }
    return Times.text(date, in: due.timeZone ?? zone)
  }

  static func availability(_ availability: EKEventAvailability) -> String {
    switch availability {
    case .free: "free"
    case .tentative: "tentative"
    case .unavailable: "unavailable"
    default: "busy"
    }
  }

  static func availability(named name: String) -> EKEventAvailability {
    switch name {
    case "free": .free
    case "tentative": .tentative
    case "unavailable": .unavailable
    default: .busy
    }
  }
}
