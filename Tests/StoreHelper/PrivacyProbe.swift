// `oek-store-helper privacy-probe FOLDER event=ID series=ID reminder=ID completed=ID
// calendar=ID work=ID old=ID list=ID`: every call of the store, each made once as this app
// (org.openeventkit.store-helper) with whatever access the person gave it, against a store
// another program populated; one "call=result" line each, in a fixed order (reads first,
// then writes, each write committed on its own). PrivacyProcessTests holds the table of what
// each line must say under each status.
//
// Results: counts; "found" or "nil" for lookups; a title or "nil"; "ok", or "error N" with the
// EKError's code; "unreachable" when the app cannot get hold of the object to change (it
// cannot read it), which is itself what the status allows.
import Foundation
import OpenEventKit

func runPrivacyProbe(_ store: EKEventStore, _ arguments: [String]) {
  var ids: [String: String] = [:]
  for argument in arguments.dropFirst(2) {
    let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
    guard parts.count == 2 else { fail("privacy-probe FOLDER key=ID…") }
    ids[parts[0]] = parts[1]
  }
  func id(_ key: String) -> String {
    guard let value = ids[key] else { fail("privacy-probe: no \(key)=ID") }
    return value
  }
  let formatter = ISO8601DateFormatter()
  let yearStart = formatter.date(from: "2026-01-01T00:00:00Z")!
  let yearEnd = formatter.date(from: "2027-01-01T00:00:00Z")!

  func line(_ call: String, _ result: String) { say("\(call)=\(result)") }
  func found(_ object: AnyObject?) -> String { object == nil ? "nil" : "found" }
  func status(_ status: EKAuthorizationStatus) -> String {
    switch status {
    case .notDetermined: "notDetermined"
    case .restricted: "restricted"
    case .denied: "denied"
    case .fullAccess: "fullAccess"
    case .writeOnly: "writeOnly"
    @unknown default: "unknown"
    }
  }
  func reminders(_ predicate: NSPredicate) -> String { "\(reminderCount(store, predicate))" }
  /// Exports `calendars`: the number of components of `kind` written, or the refusal.
  func export(_ calendars: [EKCalendar], _ kind: String) -> String {
    do {
      let text = String(decoding: try store.exportICalendar(calendars: calendars), as: UTF8.self)
      return "\(text.components(separatedBy: "BEGIN:\(kind)\r\n").count - 1)"
    } catch let error as EKError {
      return "error \(error.code.rawValue)"
    } catch {
      return "error \(type(of: error))"
    }
  }
  func importing(_ component: String) -> String {
    let file = [
      "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//OpenEventKit//Tests//EN",
      "BEGIN:\(component)", "UID:imported-\(component)@example.org",
      "DTSTAMP:20260101T000000Z", "DTSTART:20260601T090000Z", "SUMMARY:Imported",
      "END:\(component)", "END:VCALENDAR", "",
    ].joined(separator: "\r\n")
    return outcome { _ = try store.importICalendar(Data(file.utf8), calendarTitle: "Imported") }
  }
  func newEvent(_ title: String, in calendar: EKCalendar?) -> EKEvent {
    let event = EKEvent(eventStore: store)
    event.calendar = calendar
    event.title = title
    event.startDate = formatter.date(from: "2026-06-01T09:00:00Z")
    event.endDate = event.startDate.addingTimeInterval(1800)
    return event
  }
  func newReminder(_ title: String) -> EKReminder {
    let reminder = EKReminder(eventStore: store)
    reminder.calendar = store.defaultCalendarForNewReminders()
    reminder.title = title
    return reminder
  }

  // Who the app is and what it may see.
  line("authorization-events", status(EKEventStore.authorizationStatus(for: .event)))
  line("authorization-reminders", status(EKEventStore.authorizationStatus(for: .reminder)))
  line("store-identifier", store.eventStoreIdentifier.isEmpty ? "empty" : "set")
  line("sources", "\(store.sources.count)")
  line("event-calendars", "\(store.calendars(for: .event).count)")
  line("reminder-calendars", "\(store.calendars(for: .reminder).count)")
  line(
    "source-event-calendars",
    "\(store.sources.map { $0.calendars(for: .event).count }.reduce(0, +))")
  line(
    "source-reminder-calendars",
    "\(store.sources.map { $0.calendars(for: .reminder).count }.reduce(0, +))")
  line("default-event-calendar", store.defaultCalendarForNewEvents?.title ?? "nil")
  line("default-reminder-list", store.defaultCalendarForNewReminders()?.title ?? "nil")
  line("calendar-lookup-default", found(store.calendar(withIdentifier: id("calendar"))))
  line("calendar-lookup-work", found(store.calendar(withIdentifier: id("work"))))
  line("calendar-lookup-list", found(store.calendar(withIdentifier: id("list"))))

  // Reading items.
  let window = store.predicateForEvents(withStart: yearStart, end: yearEnd, calendars: nil)
  line("events", "\(store.events(matching: window).count)")
  var enumerated = 0
  store.enumerateEvents(matching: window) { _, _ in enumerated += 1 }
  line("enumerated", "\(enumerated)")
  line("event-lookup", found(store.event(withIdentifier: id("event"))))
  line("event-item-lookup", found(store.calendarItem(withIdentifier: id("event"))))
  line("external-lookup", "\(store.calendarItems(withExternalIdentifier: id("event")).count)")
  line("reminder-lookup", found(store.calendarItem(withIdentifier: id("reminder"))))
  line("reminders-all", reminders(store.predicateForReminders(in: nil)))
  line(
    "reminders-incomplete",
    reminders(
      store.predicateForIncompleteReminders(
        withDueDateStarting: nil, ending: nil, calendars: nil)))
  line(
    "reminders-completed",
    reminders(
      store.predicateForCompletedReminders(
        withCompletionDateStarting: nil, ending: nil, calendars: nil)))
  let stamps = store.calendarItemStamps()
  line("stamps-event", stamps[id("event")] == nil ? "nil" : "found")
  line("stamps-reminder", stamps[id("reminder")] == nil ? "nil" : "found")
  line("export-events", export(store.calendars(for: .event), "VEVENT"))
  line("export-reminders", export(store.calendars(for: .reminder), "VTODO"))

  // Writing events, then calendars.
  line(
    "save-new-event",
    outcome {
      try store.save(newEvent("Added", in: store.defaultCalendarForNewEvents), span: .thisEvent)
    })
  line(
    "save-new-event-work",
    outcome {
      try store.save(
        newEvent("Added", in: store.calendar(withIdentifier: id("work"))), span: .thisEvent)
    })
  line(
    "staged-event",
    outcome {
      try store.save(
        newEvent("Staged", in: store.defaultCalendarForNewEvents), span: .thisEvent, commit: false)
      try store.commit()
    })
  if let event = store.event(withIdentifier: id("event")) {
    line(
      "change-event",
      outcome {
        event.title = "Changed by the app"
        try store.save(event, span: .thisEvent)
      })
    line("remove-event", outcome { try store.remove(event, span: .thisEvent) })
  } else {
    line("change-event", "unreachable")
    line("remove-event", "unreachable")
  }
  let occurrences = store.events(matching: window).filter {
    $0.eventIdentifier == id("series")
  }
  if occurrences.count >= 5 {
    line(
      "change-occurrence",
      outcome {
        occurrences[1].title = "Moved by the app"
        occurrences[1].startDate = occurrences[1].startDate.addingTimeInterval(1800)
        occurrences[1].endDate = occurrences[1].endDate.addingTimeInterval(1800)
        try store.save(occurrences[1], span: .thisEvent)
      })
    line("remove-occurrences", outcome { try store.remove(occurrences[4], span: .futureEvents) })
  } else {
    line("change-occurrence", "unreachable")
    line("remove-occurrences", "unreachable")
  }
  line(
    "new-calendar",
    outcome {
      let calendar = EKCalendar(for: .event, eventStore: store)
      calendar.title = "Made by the app"
      calendar.source = store.sources.first { $0.sourceType == .local }
      try store.saveCalendar(calendar, commit: true)
    })
  if let work = store.calendar(withIdentifier: id("work")) {
    line(
      "change-calendar",
      outcome {
        work.title = "Renamed by the app"
        try store.saveCalendar(work, commit: true)
      })
  } else {
    line("change-calendar", "unreachable")
  }
  if let old = store.calendar(withIdentifier: id("old")) {
    line("remove-calendar", outcome { try store.removeCalendar(old, commit: true) })
  } else {
    line("remove-calendar", "unreachable")
  }
  line("import-events", importing("VEVENT"))

  // Writing reminders.
  line("save-new-reminder", outcome { try store.save(newReminder("Added"), commit: true) })
  line(
    "staged-reminder",
    outcome {
      try store.save(newReminder("Staged"), commit: false)
      try store.commit()
    })
  if let reminder = store.calendarItem(withIdentifier: id("reminder")) as? EKReminder {
    line(
      "change-reminder",
      outcome {
        reminder.title = "Changed by the app"
        try store.save(reminder, commit: true)
      })
  } else {
    line("change-reminder", "unreachable")
  }
  if let completed = store.calendarItem(withIdentifier: id("completed")) as? EKReminder {
    line("remove-reminder", outcome { try store.remove(completed, commit: true) })
  } else {
    line("remove-reminder", "unreachable")
  }
  line(
    "new-list",
    outcome {
      let list = EKCalendar(for: .reminder, eventStore: store)
      list.title = "Made by the app"
      list.source = store.sources.first { $0.sourceType == .local }
      try store.saveCalendar(list, commit: true)
    })
  line("import-reminders", importing("VTODO"))
}
