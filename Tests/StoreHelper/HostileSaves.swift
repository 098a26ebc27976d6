// `oek-store-helper hostile FOLDER CASE`: one of the saves and queries that trapped the
// library (SavePropertyTests found them), made in a process of its own so that a trap fails
// only the test that runs it (Swift Testing cannot catch a trap in its own process). Prints
// "saved", "refused CODE" (the EKError's code) or "error TYPE", or for a query its count, and
// exits 0; a trap ends the process with a signal instead. `export` writes every calendar.
import Foundation
import OpenEventKit

func runHostile(_ store: EKEventStore, _ arguments: [String]) {
  guard arguments.count == 3 else { fail("hostile FOLDER CASE") }
  let start = ISO8601DateFormatter().date(from: "2026-03-02T09:00:00Z")!

  func outcome(_ save: () throws -> Void) -> String {
    do {
      try save()
      return "saved"
    } catch let error as EKError {
      return "refused \(error.code.rawValue)"
    } catch {
      return "error \(type(of: error))"
    }
  }

  /// A daily event with one alarm `offset` seconds from its start.
  func dailyEvent(alarm offset: TimeInterval) -> String {
    outcome {
      let event = EKEvent(eventStore: store)
      event.calendar = store.defaultCalendarForNewEvents
      event.title = "Daily"
      event.startDate = start
      event.endDate = start.addingTimeInterval(1800)
      event.recurrenceRules = [EKRecurrenceRule(recurrenceWith: .daily, interval: 1, end: nil)]
      event.alarms = [EKAlarm(relativeOffset: offset)]
      try store.save(event, span: .futureEvents)
    }
  }

  /// A reminder due at `components`.
  func reminder(due components: DateComponents) -> String {
    outcome {
      let reminder = EKReminder(eventStore: store)
      reminder.calendar = store.defaultCalendarForNewReminders()
      reminder.title = "Due"
      reminder.dueDateComponents = components
      try store.save(reminder, commit: true)
    }
  }

  switch arguments[2] {
  case "huge-alarm": say(dailyEvent(alarm: -1e300))
  case "infinite-alarm": say(dailyEvent(alarm: -.infinity))
  case "huge-due-year": say(reminder(due: DateComponents(year: Int.max / 2, month: 1, day: 1)))
  case "huge-due-hour":
    say(reminder(due: DateComponents(year: 2026, month: 1, day: 1, hour: Int.max / 2)))
  case "until-past-years":
    // Ends on 9999-12-31 at 10:00 UTC: on a clock of UTC+14 (TZ=Pacific/Kiritimati), in 10000.
    let until = EKRecurrenceEnd(end: Date(timeIntervalSince1970: 253_402_250_400))
    let daily = EKRecurrenceRule(recurrenceWith: .daily, interval: 1, end: until)
    say(
      outcome {
        let reminder = EKReminder(eventStore: store)
        reminder.calendar = store.defaultCalendarForNewReminders()
        reminder.title = "Daily"
        reminder.dueDateComponents = DateComponents(year: 2026, month: 3, day: 2)
        reminder.recurrenceRules = [daily]
        try store.save(reminder, commit: true)
      })
    say(
      outcome {
        let event = EKEvent(eventStore: store)
        event.calendar = store.defaultCalendarForNewEvents
        event.title = "Daily"
        event.isAllDay = true
        event.startDate = start
        event.endDate = start
        event.recurrenceRules = [daily]
        try store.save(event, span: .futureEvents)
      })
  case "due-query":
    // Reminders due in this century, whatever their rows hold.
    let predicate = store.predicateForIncompleteReminders(
      withDueDateStarting: ISO8601DateFormatter().date(from: "2000-01-01T00:00:00Z"),
      ending: ISO8601DateFormatter().date(from: "2100-01-01T00:00:00Z"), calendars: nil)
    say("reminders \(reminderCount(store, predicate))")
  case "export":
    // Every calendar as one file, whatever its rows hold.
    do {
      say("exported \(try store.exportICalendar().count) bytes")
    } catch {
      say("error \(error)")
    }
  default: fail("unknown hostile case \(arguments[2])")
  }
}
