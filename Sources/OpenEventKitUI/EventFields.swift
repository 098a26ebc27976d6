import Foundation
import OpenEventKit
import REPLKit

/// The event editor's fields: how each is shown, asked and applied to the event.
struct EventFields {
  enum Field: CaseIterable {
    case title, location, allDay, starts, ends, repeats, alarms, calendar, url, notes
  }

  let event: EKEvent
  let store: EKEventStore
  let console: Console

  var all: [Field] { Field.allCases }

  /// The clock answers are read on: the event's zone, or for floating and all-day events the
  /// process's clock, on which EventKit gives their wall-clock readings as instants.
  private var zone: TimeZone {
    FloatingTime.isFloating(event) ? .current : event.timeZone ?? .current
  }
  private var dates: DateText { DateText(timeZone: zone) }

  /// Asks each field in turn; false when the person cancels or the input ends.
  func ask(_ fields: [Field]) -> Bool {
    for field in fields {
      guard ask(field) else { return false }
    }
    return true
  }

  private func ask(_ field: Field) -> Bool {
    while true {
      let current = shown(field)
      // The value on one line: a title's line feed or ESC is shown, not acted on. An empty
      // answer keeps the value itself, never this shown form.
      guard let answer = console.ask("\(label(field)) [\(InertText.of(current))]: ") else {
        return false
      }
      if answer.lowercased() == "cancel" { return false }
      if answer.isEmpty { return true }
      do {
        try apply(answer == "-" ? nil : answer, to: field)
        return true
      } catch {
        console.print(error.description)
      }
    }
  }

  private func label(_ field: Field) -> String {
    switch field {
    case .title: "Title"
    case .location: "Location"
    case .allDay: "All day"
    case .starts: "Starts"
    case .ends: "Ends"
    case .repeats: "Repeat"
    case .alarms: "Alarms"
    case .calendar: "Calendar"
    case .url: "URL"
    case .notes: "Notes"
    }
  }

  /// The current value as the prompt shows it.
  private func shown(_ field: Field) -> String {
    switch field {
    case .title: return event.title ?? ""
    case .location: return event.location ?? ""
    case .allDay: return event.isAllDay ? "yes" : "no"
    case .starts:
      guard let start = event.startDate else { return "" }
      return event.isAllDay ? ISODay.string(start, dates) : ISODay.dateTime(start, dates)
    case .ends:
      guard let end = event.endDate else { return "" }
      return event.isAllDay ? ISODay.string(end, dates) : ISODay.dateTime(end, dates)
    case .repeats:
      return RecurrenceWords.describe(rulesOf: event, timeZone: zone).first ?? "never"
    case .alarms:
      let alarms = event.alarms ?? []
      guard !alarms.isEmpty else { return "none" }
      return alarms.map {
        AlarmWords.describe($0, start: event.startDate, isAllDay: event.isAllDay, timeZone: zone)
      }.joined(separator: ", ")
    case .calendar: return event.calendar?.title ?? ""
    case .url: return event.url?.absoluteString ?? ""
    case .notes: return (event.notes ?? "").replacingOccurrences(of: "\n", with: "\\n")
    }
  }

  /// Applies an answer (nil clears the field).
  private func apply(_ answer: String?, to field: Field) throws(EditorInput.Problem) {
    switch field {
    case .title: event.title = answer ?? ""
    case .location: event.location = answer
    case .allDay:
      guard let answer else { throw EditorInput.Problem("Please answer yes or no.") }
      event.isAllDay = try EditorInput.yesOrNo(answer)
    case .starts:
      guard let answer else { throw EditorInput.Problem("An event needs a start.") }
      let start =
        event.isAllDay
        ? try EditorInput.day(answer, zone: zone)
        : try EditorInput.dateTime(answer, current: event.startDate, zone: zone)
      // Moving the start keeps the duration, as Calendar does: for an all-day event its
      // number of days, which a DST change between the old and new days must not shift.
      if event.isAllDay, let oldStart = event.startDate, let oldEnd = event.endDate {
        event.startDate = start
        event.endDate = EditorInput.allDayEnd(
          keepingDaysFrom: oldStart, to: oldEnd, movedTo: start, zone: zone)
      } else {
        let duration = event.endDate.map { $0.timeIntervalSince(event.startDate) } ?? 3600
        event.startDate = start
        event.endDate = start.addingTimeInterval(max(0, duration))
      }
    case .ends:
      guard let answer else { throw EditorInput.Problem("An event needs an end.") }
      if event.isAllDay {
        // The last day, inclusive: EventKit's all-day end is that day's last second.
        let day = try EditorInput.day(answer, zone: zone)
        event.endDate = dates.startOfDay(day, adding: 1).addingTimeInterval(-1)
      } else {
        // A time alone keeps the end's day (a multi-day event stays so).
        event.endDate = try EditorInput.dateTime(
          answer, current: event.endDate ?? event.startDate, zone: zone)
      }
    case .repeats:
      let rule = try answer.flatMap { (text) throws(EditorInput.Problem) in
        try EditorInput.recurrence(text, zone: zone)
      }
      event.recurrenceRules = rule.map { [$0] }
    case .alarms:
      event.alarms = try answer.map { (text) throws(EditorInput.Problem) in
        try EditorInput.alarms(text, zone: zone)
      }
    case .calendar:
      guard let answer else { throw EditorInput.Problem("An event needs a calendar.") }
      event.calendar = try calendar(named: answer)
    case .url:
      guard let answer else {
        event.url = nil
        return
      }
      guard let url = URL(string: answer), url.scheme != nil else {
        throw EditorInput.Problem("Please give a whole URL, such as https://example.com.")
      }
      event.url = url
    case .notes: event.notes = answer?.replacingOccurrences(of: "\\n", with: "\n")
    }
  }

  /// The calendar a title names, or the one picked from the chooser when the answer is `?`.
  private func calendar(named answer: String) throws(EditorInput.Problem) -> EKCalendar {
    let chooser = EKCalendarChooser(
      selectionStyle: .single, displayStyle: .writableCalendarsOnly, entityType: .event,
      eventStore: store)
    if answer == "?" {
      if let current = event.calendar { chooser.selectedCalendars = [current] }
      guard chooser.run(on: console), let chosen = chooser.selectedCalendars.first else {
        throw EditorInput.Problem("The calendar is unchanged.")
      }
      return chosen
    }
    switch chooser.choice(answer, among: chooser.offeredCalendars) {
    case .success(let chosen): return chosen[0]
    case .failure(let problem):
      throw EditorInput.Problem(problem.description + " Type ? to choose from a list.")
    }
  }

  /// The field a store error is about, to ask again.
  static func field(at error: any Error) -> Field? {
    guard let error = error as? EKError else { return nil }
    switch error.code {
    case .noStartDate, .startDateTooFarInFuture, .startDateCollidesWithOtherOccurrence:
      return .starts
    case .noEndDate, .datesInverted, .durationGreaterThanRecurrence: return .ends
    case .alarmGreaterThanRecurrence, .alarmProximityNotSupported: return .alarms
    case .invalidSpan: return .repeats
    case .noCalendar, .calendarReadOnly, .calendarDoesNotAllowEvents, .calendarIsImmutable:
      return .calendar
    default: return nil
    }
  }
}

/// Dates as the editor shows them for retyping: ISO 8601 on the event's clock.
enum ISODay {
  static func string(_ date: Date, _ dates: DateText) -> String {
    let parts = dates.parts(date)
    return String(format: "%04d-%02d-%02d", parts.year, parts.month, parts.day)
  }

  static func dateTime(_ date: Date, _ dates: DateText) -> String {
    "\(string(date, dates))T\(dates.time(date))"
  }
}

/// Store errors in plain words for the person at the editor.
enum EditorMessages {
  static func plain(_ error: any Error) -> String {
    guard let error = error as? EKError else { return "\(error.localizedDescription)" }
    switch error.code {
    case .datesInverted: return "the event ends before it starts."
    case .noStartDate: return "the event has no start."
    case .noEndDate: return "the event has no end."
    case .noCalendar: return "the event has no calendar."
    case .calendarReadOnly, .calendarIsImmutable:
      return "that calendar is read-only; choose another."
    case .durationGreaterThanRecurrence:
      return "the event lasts longer than the time between its repeats."
    case .alarmGreaterThanRecurrence:
      return "an alarm is further from the event than the time between its repeats."
    case .startDateCollidesWithOtherOccurrence:
      return "another occurrence of this event is already on that day."
    case .invalidSpan:
      return "a change to how the event repeats can only be saved for future events."
    case .eventStoreNotAuthorized:
      return "this app may not change your calendar. " + CalendarAccess.howToChange(.event)
    default: return error.localizedDescription
    }
  }
}
