import Foundation
import MCP
import OpenEventKit

/// The agent's last change and how to take it back through the store's own API: an item it
/// made is removed, fields it changed are set back, an item it removed is made again (with a
/// new id, which the answer gives). A change the public API cannot take back whole (a series
/// cut in two by a `future` span, occurrences removed from a series) says so rather than
/// half-undo it.
enum UndoStep: Sendable {
  case removeEvent(String, title: String)
  case removeReminder(String, title: String)
  case removeCalendar(String, title: String)
  /// Fields of an event (of one occurrence, when `occurrence` is set) set back.
  case restoreEvent(EventFields, id: String, occurrence: Date?)
  case recreateEvent(EventFields)
  case restoreReminder(ReminderFields, id: String)
  case recreateReminders([ReminderFields])
  case cannot(String)
}

/// What update_event can change, and delete_event loses, of an event.
struct EventFields: Sendable {
  let title: String
  let location: String?
  let notes: String?
  let start: Date
  let end: Date
  let allDay: Bool
  let timeZone: TimeZone?
  let availability: EKEventAvailability
  let calendarId: String
  let alarmOffsets: [TimeInterval]

  init(_ event: EKEvent) {
    title = event.title ?? ""
    location = event.location
    notes = event.notes
    start = event.startDate
    end = event.endDate
    allDay = event.isAllDay
    timeZone = event.timeZone
    availability = event.availability
    calendarId = event.calendar.calendarIdentifier
    alarmOffsets = (event.alarms ?? []).map(\.relativeOffset)
  }

  func apply(to event: EKEvent, in store: EKEventStore) {
    event.title = title
    event.location = location
    event.notes = notes
    event.isAllDay = allDay
    event.timeZone = timeZone
    event.startDate = start
    event.endDate = end
    event.availability = availability
    if let calendar = store.calendar(withIdentifier: calendarId) { event.calendar = calendar }
    event.alarms = alarmOffsets.map { EKAlarm(relativeOffset: $0) }
  }
}

/// What the reminder tools change or lose of a reminder.
struct ReminderFields: Sendable {
  let title: String
  let notes: String?
  let due: DateComponents?
  let priority: Int
  let completed: Bool
  let calendarId: String
  let alarmOffsets: [TimeInterval]
  let rules: [RuleCopy]

  /// A recurrence rule's parts, to make it again.
  struct RuleCopy: Sendable {
    let frequency: EKRecurrenceFrequency
    let interval: Int
    let days: [EKWeekday]
    let count: Int?
    let until: Date?
  }

  init(_ reminder: EKReminder) {
    title = reminder.title ?? ""
    notes = reminder.notes
    due = reminder.dueDateComponents
    priority = reminder.priority
    completed = reminder.isCompleted
    calendarId = reminder.calendar.calendarIdentifier
    alarmOffsets = (reminder.alarms ?? []).map(\.relativeOffset)
    rules = (reminder.recurrenceRules ?? []).map { rule in
      RuleCopy(
        frequency: rule.frequency, interval: rule.interval,
        days: (rule.daysOfTheWeek ?? []).map(\.dayOfTheWeek),
        count: rule.recurrenceEnd.flatMap { $0.endDate == nil ? $0.occurrenceCount : nil },
        until: rule.recurrenceEnd?.endDate)
    }
  }

  func apply(to reminder: EKReminder, in store: EKEventStore) {
    reminder.title = title
    reminder.notes = notes
    reminder.dueDateComponents = due
    reminder.priority = priority
    reminder.isCompleted = completed
    if let calendar = store.calendar(withIdentifier: calendarId) { reminder.calendar = calendar }
    reminder.alarms = alarmOffsets.map { EKAlarm(relativeOffset: $0) }
    reminder.recurrenceRules = rules.map { copy in
      EKRecurrenceRule(
        recurrenceWith: copy.frequency, interval: copy.interval,
        daysOfTheWeek: copy.days.isEmpty ? nil : copy.days.map { EKRecurrenceDayOfWeek($0) },
        daysOfTheMonth: nil, monthsOfTheYear: nil, weeksOfTheYear: nil, daysOfTheYear: nil,
        setPositions: nil,
        end: copy.count.map { EKRecurrenceEnd(occurrenceCount: $0) }
          ?? copy.until.map { EKRecurrenceEnd(end: $0) })
    }
  }
}

extension CalendarTools {
  /// `undo`: takes back the last change, once.
  func undo() throws -> Value {
    guard let step = lastChange else {
      throw ToolFailure(
        "nothingToUndo", "This server has made no change to undo (or it was undone).")
    }
    let said: String
    switch step {
    case .cannot(let reason):
      throw ToolFailure("cannotUndo", reason)
    case .removeEvent(let id, let title):
      try check(.event, .full)
      guard let event = store.calendarItem(withIdentifier: id) as? EKEvent else {
        throw ToolFailure("notFound", "\"\(title)\" is gone already.")
      }
      try storing { try store.remove(event, span: .futureEvents, commit: true) }
      said = "Removed the event \"\(title)\" it had added."
    case .removeReminder(let id, let title):
      try check(.reminder, .full)
      guard let reminder = store.calendarItem(withIdentifier: id) as? EKReminder else {
        throw ToolFailure("notFound", "\"\(title)\" is gone already.")
      }
      try storing { try store.remove(reminder, commit: true) }
      said = "Removed the reminder \"\(title)\" it had added."
    case .removeCalendar(let id, let title):
      guard let calendar = store.calendar(withIdentifier: id) else {
        throw ToolFailure("notFound", "The calendar \"\(title)\" is gone already.")
      }
      let entity: EKEntityType = calendar.allowedEntityTypes.contains(.event) ? .event : .reminder
      try check(entity, .full)
      // Items added to it since (by the person, another app) are not the agent's to remove.
      guard store.calendarItemCount(in: calendar) == 0 else {
        throw ToolFailure(
          "cannotUndo", "The calendar \"\(title)\" has items now; it is left as it is.")
      }
      try storing { try store.removeCalendar(calendar, commit: true) }
      said = "Removed the calendar \"\(title)\" it had made."
    case .restoreEvent(let fields, let id, let occurrence):
      try check(.event, .full)
      guard var event = store.calendarItem(withIdentifier: id) as? EKEvent else {
        throw ToolFailure("notFound", "\"\(fields.title)\" is gone.")
      }
      if let occurrence {
        event = try find(.instant(occurrence), of: event, zone: nil)
      }
      fields.apply(to: event, in: store)
      try storing { try store.save(event, span: .thisEvent, commit: true) }
      said = "Set \"\(fields.title)\" back as it was."
    case .recreateEvent(let fields):
      try check(.event, .full)
      let event = EKEvent(eventStore: store)
      fields.apply(to: event, in: store)
      try storing { try store.save(event, span: .thisEvent, commit: true) }
      said = "Added \"\(fields.title)\" again, as eventId \(event.calendarItemIdentifier)."
    case .restoreReminder(let fields, let id):
      try check(.reminder, .full)
      guard let reminder = store.calendarItem(withIdentifier: id) as? EKReminder else {
        throw ToolFailure("notFound", "\"\(fields.title)\" is gone.")
      }
      fields.apply(to: reminder, in: store)
      try storing { try store.save(reminder, commit: true) }
      said = "Set the reminder \"\(fields.title)\" back as it was."
    case .recreateReminders(let all):
      try check(.reminder, .full)
      var ids: [String] = []
      do {
        for fields in all {
          let reminder = EKReminder(eventStore: store)
          fields.apply(to: reminder, in: store)
          try storing { try store.save(reminder, commit: false) }
          ids.append(reminder.calendarItemIdentifier)
        }
        try storing { try store.commit() }
      } catch {
        store.reset()
        throw error
      }
      said = "Added \(all.count) reminder(s) again, as reminderIds \(ids.joined(separator: ", "))."
    }
    lastChange = nil
    logWrite("undo", [said])
    return ["undone": .string(said)]
  }
}
