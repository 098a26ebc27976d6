import Foundation
import MCP
import OpenEventKit

/// list_reminders, create_reminder, complete_reminder and delete_reminder.
extension CalendarTools {
  func fetch(_ predicate: NSPredicate) -> [EKReminder] {
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var found: [EKReminder] = []
    store.fetchReminders(matching: predicate) { reminders in
      found = reminders ?? []
      done.signal()
    }
    done.wait()
    return found
  }

  func listReminders(_ arguments: ToolArguments) throws -> Value {
    enum Status: String, CaseIterable { case incomplete, completed, all }
    let zone = try arguments.zone()
    let status = try arguments.choice("status", Status.self) ?? .incomplete
    let dueBefore = try arguments.instant("dueBefore", zone: zone)
    let limit = try arguments.int("limit", in: 1...10000) ?? 500
    let lists = try calendars(arguments.strings("lists"), for: .reminder)
    if dueBefore != nil && status != .incomplete {
      throw MCPError.invalidParams("list_reminders: dueBefore lists incomplete reminders only")
    }
    let predicate =
      switch status {
      case .incomplete:
        store.predicateForIncompleteReminders(
          withDueDateStarting: nil, ending: dueBefore, calendars: lists)
      case .completed:
        store.predicateForCompletedReminders(
          withCompletionDateStarting: nil, ending: nil, calendars: lists)
      case .all: store.predicateForReminders(in: lists)
      }
    let found = fetch(predicate)
    let shown = found.prefix(limit).map { ItemText.reminder($0, zone: zone ?? .current) }
    return ["reminders": .array(Array(shown)), "truncated": .bool(found.count > limit)]
  }

  /// A due date as the store keeps it: a day, or a time with its zone.
  func due(_ arguments: ToolArguments, zone: TimeZone?) throws -> DateComponents? {
    guard let text = try arguments.string("due") else { return nil }
    switch Times.read(text) {
    case .day(let components): return components
    case .wallClock(var components):
      guard let zone else {
        throw MCPError.invalidParams(
          "\(arguments.tool): \"due\" is \"\(text)\", a time without an offset; give an offset "
            + "or name the clock in \"timeZone\"")
      }
      components.timeZone = zone
      return components
    case .instant(let date):
      let clock = zone ?? .gmt
      var components = Times.gregorian(clock).dateComponents(
        [.year, .month, .day, .hour, .minute, .second], from: date)
      components.timeZone = clock
      return components
    case nil:
      throw MCPError.invalidParams("\(arguments.tool): \"due\" is no RFC 3339 date (\"\(text)\")")
    }
  }

  func createReminder(_ arguments: ToolArguments) throws -> Value {
    let title = try arguments.required("title")
    let zone = try arguments.zone()
    let dueComponents = try due(arguments, zone: zone)
    let priority = try arguments.int("priority", in: 0...9)
    let notes = try arguments.string("notes")
    let alarmMinutes = try arguments.ints("alarms", in: 0...40320)
    let rule = try arguments.object("recurrence").map {
      try RecurrenceReading.rule($0, tool: "create_reminder", zone: zone)
    }
    let listName = try arguments.string("list")
    let reminder = EKReminder(eventStore: store)
    reminder.title = title
    reminder.dueDateComponents = dueComponents
    if let priority { reminder.priority = priority }
    reminder.notes = notes
    if let alarmMinutes { reminder.alarms = alarms(alarmMinutes) }
    if let rule { reminder.recurrenceRules = [rule] }
    if let listName {
      reminder.calendar = try calendars([listName], for: .reminder)?.first
    } else {
      guard let list = store.defaultCalendarForNewReminders() else {
        throw ToolFailure("invalid", "There is no reminder list; create_calendar makes one.")
      }
      reminder.calendar = list
    }
    try storing { try store.save(reminder, commit: true) }
    lastChange = .removeReminder(reminder.calendarItemIdentifier, title: title)
    logWrite("create_reminder", ["\"\(title)\" (\(reminder.calendarItemIdentifier))"])
    return ["reminder": ItemText.reminder(reminder, zone: zone ?? .current)]
  }

  func reminder(_ id: String) throws -> EKReminder {
    guard let item = store.calendarItem(withIdentifier: id) else {
      throw ToolFailure("notFound", "No reminder has the id \(id); list_reminders gives the ids.")
    }
    guard let reminder = item as? EKReminder else {
      throw ToolFailure("notFound", "\(id) is an event, not a reminder.")
    }
    return reminder
  }

  func completeReminder(_ arguments: ToolArguments) throws -> Value {
    let id = try arguments.required("reminderId")
    let completed = try arguments.bool("completed") ?? true
    let reminder = try reminder(id)
    let before = ReminderFields(reminder)
    reminder.isCompleted = completed
    try storing { try store.save(reminder, commit: true) }
    lastChange = .restoreReminder(before, id: id)
    logWrite(
      "complete_reminder",
      ["\"\(before.title)\" (\(id)) \(completed ? "completed" : "not completed")"])
    return ["reminder": ItemText.reminder(reminder, zone: .current)]
  }

  func deleteReminders(_ arguments: ToolArguments) throws -> Value {
    guard let ids = try arguments.strings("reminderIds") else {
      throw MCPError.invalidParams("delete_reminder: \"reminderIds\" is required")
    }
    guard !ids.isEmpty else {
      throw MCPError.invalidParams("delete_reminder: \"reminderIds\" names no reminder")
    }
    let confirm = try arguments.bool("confirm") ?? false
    let unique = ids.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
    // Every one found before any is removed: a wrong id removes nothing.
    let reminders = try unique.map(reminder)
    if reminders.count > 1 && !confirm {
      throw ToolFailure(
        "needsConfirmation",
        "That removes \(reminders.count) reminders: ask the person, then call again with "
          + "confirm: true.")
    }
    let fields = reminders.map(ReminderFields.init)
    do {
      for reminder in reminders { try storing { try store.remove(reminder, commit: false) } }
      try storing { try store.commit() }
    } catch {
      store.reset()
      throw error
    }
    lastChange = .recreateReminders(fields)
    logWrite("delete_reminder", zip(fields, unique).map { "\"\($0.title)\" (\($1))" })
    return ["deleted": .array(unique.map { .string($0) })]
  }
}
