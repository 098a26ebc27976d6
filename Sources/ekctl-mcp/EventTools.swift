import Foundation
import MCP
import OpenEventKit

/// list_events, search_events, create_event, update_event and delete_event.
extension CalendarTools {
  enum SpanWord: String, CaseIterable {
    case this, future
    var span: EKSpan { self == .this ? .thisEvent : .futureEvents }
  }

  func listEvents(_ arguments: ToolArguments, matching query: String?) throws -> Value {
    let zone = try arguments.zone()
    let start = try arguments.requiredInstant("start", zone: zone)
    let end = try arguments.requiredInstant("end", zone: zone)
    let limit = try arguments.int("limit", in: 1...10000) ?? 500
    let names = try arguments.strings("calendars")
    guard start < end else {
      throw MCPError.invalidParams("\(arguments.tool): end must come after start")
    }
    let chosen = try calendars(names, for: .event)
    let predicate = store.predicateForEvents(withStart: start, end: end, calendars: chosen)
    var found: [Value] = []
    var truncated = false
    store.enumerateEvents(matching: predicate) { event, stop in
      if let query, !CalendarTools.event(event, contains: query) { return }
      guard found.count < limit else {
        truncated = true
        stop.pointee = true
        return
      }
      found.append(ItemText.event(event, zone: zone))
    }
    return ["events": .array(found), "truncated": .bool(truncated)]
  }

  static func event(_ event: EKEvent, contains query: String) -> Bool {
    [event.title, event.location, event.notes].contains {
      ($0 ?? "").range(of: query, options: [.caseInsensitive, .diacriticInsensitive]) != nil
    }
  }

  // MARK: Writing

  /// Start and end as a call gives them: instants, or with `allDay` dates (end exclusive),
  /// as the store keeps all-day events (floating days, on the server's clock).
  func times(_ arguments: ToolArguments, allDay: Bool, zone: TimeZone?) throws -> (Date?, Date?) {
    guard allDay else {
      return (try arguments.instant("start", zone: zone), try arguments.instant("end", zone: zone))
    }
    func day(_ key: String) throws -> Date? {
      guard let text = try arguments.string(key) else { return nil }
      guard case .day(let components) = Times.read(text),
        let date = Times.instant(components, in: .current)
      else {
        throw MCPError.invalidParams(
          "\(arguments.tool): with allDay, \"\(key)\" is a date, 2026-03-02 (not \"\(text)\")")
      }
      return date
    }
    let start = try day("start")
    // The store's all-day end is the last second of the last day.
    let end = try day("end").map { $0.addingTimeInterval(-1) }
    return (start, end)
  }

  func alarms(_ minutes: [Int]) -> [EKAlarm] {
    minutes.map { EKAlarm(relativeOffset: TimeInterval(-60 * $0)) }
  }

  func createEvent(_ arguments: ToolArguments) throws -> Value {
    let title = try arguments.required("title")
    let zone = try arguments.zone()
    let allDay = try arguments.bool("allDay") ?? false
    let (start, end) = try times(arguments, allDay: allDay, zone: zone)
    guard let start, let end else {
      throw MCPError.invalidParams("create_event: \"start\" and \"end\" are required")
    }
    let availability = try arguments.choice("availability", AvailabilityWord.self)
    let alarmMinutes = try arguments.ints("alarms", in: 0...40320)
    let rule = try arguments.object("recurrence").map {
      try RecurrenceReading.rule($0, tool: "create_event", zone: zone)
    }
    let calendarName = try arguments.string("calendar")
    let location = try arguments.string("location")
    let notes = try arguments.string("notes")
    let event = EKEvent(eventStore: store)
    event.title = title
    event.isAllDay = allDay
    if let zone, !allDay { event.timeZone = zone }
    event.startDate = start
    event.endDate = end
    event.location = location
    event.notes = notes
    if let availability { event.availability = ItemText.availability(named: availability.rawValue) }
    if let alarmMinutes { event.alarms = alarms(alarmMinutes) }
    if let rule { event.recurrenceRules = [rule] }
    if let calendarName {
      event.calendar = try calendars([calendarName], for: .event)?.first
    } else {
      guard let calendar = store.defaultCalendarForNewEvents else {
        throw ToolFailure(
          "invalid", "There is no calendar to add the event to; create_calendar makes one.")
      }
      event.calendar = calendar
    }
    try storing { try store.save(event, span: .thisEvent, commit: true) }
    lastChange = .removeEvent(event.calendarItemIdentifier, title: title)
    logWrite("create_event", ["\"\(title)\" (\(event.calendarItemIdentifier))"])
    return ["event": ItemText.event(event, zone: zone)]
  }

  /// The event and occurrence a call names, and the span it may be changed with: a repeating
  /// event without a span is refused (never guessed), and a `future` span needs `confirm`.
  func target(_ arguments: ToolArguments) throws -> (EKEvent, EKSpan, repeats: Bool) {
    let id = try arguments.required("eventId")
    let zone = try arguments.zone()
    let span = try arguments.choice("span", SpanWord.self)
    let confirm = try arguments.bool("confirm") ?? false
    let occurrenceText = try arguments.string("occurrenceDate")
    let occurrence = try occurrenceText.map { text -> Times.Reading in
      guard let reading = Times.read(text) else {
        throw MCPError.invalidParams(
          "\(arguments.tool): \"occurrenceDate\" is no RFC 3339 date (\"\(text)\")")
      }
      return reading
    }
    guard let item = store.calendarItem(withIdentifier: id) else {
      throw ToolFailure("notFound", "No event has the id \(id); list_events gives the ids.")
    }
    guard let event = item as? EKEvent else {
      throw ToolFailure("notFound", "\(id) is a reminder, not an event.")
    }
    let repeats = event.hasRecurrenceRules || event.isDetached
    guard repeats else { return (event, .thisEvent, false) }
    guard let span else {
      throw ToolFailure(
        "needsSpan",
        "\"\(event.title ?? "")\" repeats: say span \"this\" (the occurrence at occurrenceDate "
          + "only) or \"future\" (it and every later one); it is never guessed.")
    }
    if span == .future && !confirm {
      throw ToolFailure(
        "needsConfirmation",
        "span \"future\" changes every later occurrence of \"\(event.title ?? "")\": ask the "
          + "person, then call again with confirm: true.")
    }
    guard let occurrence else { return (event, span.span, true) }
    return (try find(occurrence, of: event, zone: zone), span.span, true)
  }

  /// The occurrence of `event`'s series at `reading` (its original start, as list_events
  /// gives occurrenceDate; a day for an all-day series).
  func find(_ reading: Times.Reading, of event: EKEvent, zone: TimeZone?) throws -> EKEvent {
    let uid: String = event.calendarItemExternalIdentifier
    let calendar = event.calendar.calendarIdentifier
    let wanted: Date
    var day: String?
    switch reading {
    case .instant(let date): wanted = date
    case .day(let components):
      wanted = Times.instant(components, in: .current) ?? Date()
      day = Times.dayText(wanted, in: .current)
    case .wallClock(let components):
      guard let date = Times.instant(components, in: zone ?? event.timeZone ?? .current) else {
        throw ToolFailure("notFound", "No such time.")
      }
      wanted = date
    }
    func isOfSeries(_ candidate: EKEvent) -> Bool {
      candidate.calendarItemExternalIdentifier == uid
        && candidate.calendar.calendarIdentifier == calendar
        && (candidate.hasRecurrenceRules || candidate.isDetached)
    }
    func isAt(_ date: Date) -> Bool {
      day.map { Times.dayText(date, in: .current) == $0 } ?? (date == wanted)
    }
    let predicate = store.predicateForEvents(
      withStart: wanted.addingTimeInterval(-2 * 86_400), end: wanted.addingTimeInterval(2 * 86_400),
      calendars: [event.calendar])
    let nearby = store.events(matching: predicate).filter(isOfSeries)
    let detached = store.calendarItems(withExternalIdentifier: uid).compactMap { $0 as? EKEvent }
      .filter { $0.isDetached && isOfSeries($0) }
    let candidates = nearby + detached
    guard
      let match = candidates.first(where: { isAt($0.occurrenceDate) })
        ?? candidates.first(where: { isAt($0.startDate) })
    else {
      throw ToolFailure(
        "notFound",
        "\"\(event.title ?? "")\" has no occurrence at that occurrenceDate; list_events gives them."
      )
    }
    return match
  }

  func updateEvent(_ arguments: ToolArguments) throws -> Value {
    let (event, span, repeats) = try target(arguments)
    let zone = try arguments.zone()
    let allDay = try arguments.bool("allDay")
    let (start, end) = try times(arguments, allDay: allDay ?? event.isAllDay, zone: zone)
    let title = try arguments.string("title")
    let location = try arguments.string("location")
    let notes = try arguments.string("notes")
    let availability = try arguments.choice("availability", AvailabilityWord.self)
    let alarmMinutes = try arguments.ints("alarms", in: 0...40320)
    let calendarName = try arguments.string("calendar")
    let before = EventFields(event)
    let occurrenceDate: Date = event.occurrenceDate
    if let allDay { event.isAllDay = allDay }
    if let zone, !(allDay ?? event.isAllDay) { event.timeZone = zone }
    let duration = event.endDate.timeIntervalSince(event.startDate)
    if let start {
      event.startDate = start
      // A new start alone moves the event, keeping its length.
      if end == nil { event.endDate = start.addingTimeInterval(duration) }
    }
    if let end { event.endDate = end }
    if let title { event.title = title }
    if let location { event.location = location.isEmpty ? nil : location }
    if let notes { event.notes = notes.isEmpty ? nil : notes }
    if let availability { event.availability = ItemText.availability(named: availability.rawValue) }
    if let alarmMinutes { event.alarms = alarms(alarmMinutes) }
    if let calendarName { event.calendar = try calendars([calendarName], for: .event)?.first }
    do {
      try storing { try store.save(event, span: span, commit: true) }
    } catch {
      store.reset()
      throw error
    }
    if !repeats {
      lastChange = .restoreEvent(before, id: event.calendarItemIdentifier, occurrence: nil)
    } else if span == .thisEvent {
      lastChange = .restoreEvent(
        before, id: event.calendarItemIdentifier, occurrence: occurrenceDate)
    } else {
      lastChange = .cannot(
        "update_event with span \"future\" of \"\(before.title)\" cannot be undone here: "
          + "the series was cut in two. Change it back with update_event.")
    }
    logWrite(
      "update_event",
      [
        "\"\(event.title ?? "")\" (\(event.calendarItemIdentifier)) at \(Times.text(occurrenceDate, in: .gmt))"
      ],
      span: repeats ? span : nil)
    return ["event": ItemText.event(event, zone: zone)]
  }

  func deleteEvent(_ arguments: ToolArguments) throws -> Value {
    let (event, span, repeats) = try target(arguments)
    let before = EventFields(event)
    let when = Times.text(event.occurrenceDate, in: .gmt)
    let id = event.calendarItemIdentifier
    try storing { try store.remove(event, span: span, commit: true) }
    lastChange =
      repeats
      ? .cannot(
        "delete_event of a repeating event (\"\(before.title)\") cannot be undone here; "
          + "create_event can add it again.")
      : .recreateEvent(before)
    logWrite("delete_event", ["\"\(before.title)\" (\(id)) at \(when)"], span: repeats ? span : nil)
    return [
      "deleted": .string(id), "title": .string(before.title),
      "span": .string(repeats ? (span == .futureEvents ? "future" : "this") : "this"),
    ]
  }
}

enum AvailabilityWord: String, CaseIterable {
  case busy, free, tentative, unavailable
}
