import Foundation
import ICalendar

/// The checks a save makes before anything is staged or written, with Apple's error codes and
/// a message naming the field. A refused save changes nothing.
enum ItemValidation {
  /// Checks an item against its calendar.
  static func check(
    _ values: ItemValues, kind: EKEntityType, calendars: (String) -> CalendarRecord?
  ) throws(EKError) {
    let noun = kind == .event ? "event" : "reminder"
    guard let calendarId = values.calendarId else {
      throw EKError(.noCalendar, "The \(noun) has no calendar; set its calendar before saving.")
    }
    guard let calendar = calendars(calendarId) else {
      throw EKError(.noCalendar, "The \(noun)'s calendar \(calendarId) does not exist.")
    }
    switch kind {
    case .event where !calendar.entityMask.contains(.event):
      throw EKError(
        .calendarDoesNotAllowEvents, "The calendar \"\(calendar.title)\" holds no events.")
    case .reminder where !calendar.entityMask.contains(.reminder):
      throw EKError(
        .calendarDoesNotAllowReminders, "The calendar \"\(calendar.title)\" holds no reminders.")
    default: break
    }
    guard calendar.allowsContentModifications else {
      throw EKError(.calendarReadOnly, "The calendar \"\(calendar.title)\" is read-only.")
    }
  }

  static func checkEvent(_ values: ItemValues) throws(EKError) {
    guard let start = values.startDate else {
      throw EKError(.noStartDate, "The event has no start date.")
    }
    guard let end = values.endDate else {
      throw EKError(.noEndDate, "The event has no end date.")
    }
    guard end >= start else {
      throw EKError(.datesInverted, "The event's end date \(end) is before its start \(start).")
    }
    let latest = Date(timeIntervalSince1970: TimeInterval(WallClock.maximumSeconds))
    let earliest = Date(timeIntervalSince1970: TimeInterval(WallClock.minimumSeconds))
    guard start <= latest, end <= latest, start >= earliest else {
      throw EKError(
        .startDateTooFarInFuture, "The event's dates must lie between the years 1 and 9999.")
    }
    if let zone = values.timeZone, !values.isAllDay, (try? ZoneRules.named(zone)) == nil {
      throw EKError(.internalFailure, "The event's time zone \(zone) is not in the tz database.")
    }
    try checkAlarms(values.alarms)
  }

  static func checkReminder(_ values: ItemValues) throws(EKError) {
    guard (0...9).contains(values.priority) else {
      throw EKError(
        .priorityIsInvalid, "The reminder's priority \(values.priority) is not between 0 and 9.")
    }
    if !values.rules.isEmpty && values.dueComponents.flatMap(ReminderDue.init) == nil {
      throw EKError(
        .recurringReminderRequiresDueDate,
        "A repeating reminder needs a due date with a year, month and day.")
    }
    if values.alarms.contains(where: { $0.emailAddress != nil || $0.url != nil }) {
      throw EKError(
        .reminderAlarmContainsEmailOrUrl, "A reminder's alarm cannot send email or open a URL.")
    }
    try checkAlarms(values.alarms)
  }

  private static func checkAlarms(_ alarms: [AlarmValues]) throws(EKError) {
    if alarms.contains(where: { $0.url != nil }) {
      throw EKError(.procedureAlarmsNotMutable, "Alarms that open a URL are not supported.")
    }
    if alarms.contains(where: { $0.proximity != .none && $0.location == nil }) {
      throw EKError(
        .alarmProximityNotSupported,
        "An alarm with a proximity needs a structured location to watch.")
    }
  }

  /// Checks a repeating item's rules and how its duration and alarms fit between instances.
  static func checkRecurrence(_ record: ItemRecord, values: ItemValues) throws(EKError) {
    guard !values.rules.isEmpty else { return }
    for rule in values.rules {
      var full = rule.rule
      if case .count(let count) = rule.end { full.end = .count(count) }
      do {
        try full.validate()
      } catch {
        throw EKError(.internalFailure, "Recurrence rule \(full.text): \(error.message)")
      }
    }
    guard let gap = shortestGap(record) else { return }
    let duration = (record.endKey ?? 0) - (record.startKey ?? 0)
    if duration > gap {
      throw EKError(
        .durationGreaterThanRecurrence,
        "The event lasts \(duration) s, longer than the \(gap) s between its occurrences.")
    }
    if let alarm = values.alarms.first(where: {
      $0.absoluteDate == nil && abs($0.relativeOffset) > Double(gap)
    }) {
      throw EKError(
        .alarmGreaterThanRecurrence,
        "An alarm \(Int(alarm.relativeOffset)) s from the start reaches past the \(gap) s "
          + "between occurrences.")
    }
  }

  /// The shortest time between the starts of the first instances of a series, nil when it
  /// has fewer than two.
  static func shortestGap(_ record: ItemRecord) -> Int? {
    guard let set = record.recurrenceSet(), let occurrences = try? set.occurrences() else {
      return nil
    }
    var previous: Int?
    var shortest: Int?
    for occurrence in occurrences.prefix(64) {
      if let previous {
        shortest = min(shortest ?? .max, occurrence.secondsSinceEpoch - previous)
      }
      previous = occurrence.secondsSinceEpoch
    }
    return shortest
  }

  /// Checks a calendar before it is saved.
  static func checkCalendar(
    _ record: CalendarRecord, saved: CalendarRecord?, source: SourceRecord?
  ) throws(EKError) {
    guard let source else {
      throw EKError(
        .calendarHasNoSource, "The calendar \"\(record.title)\" has no source; set its source.")
    }
    if let saved {
      guard saved.sourceId == record.sourceId else {
        throw EKError(
          .calendarSourceCannotBeModified,
          "The calendar \"\(record.title)\" cannot move to another source.")
      }
      guard !saved.isImmutable || saved == record else {
        throw EKError(.calendarIsImmutable, "The calendar \"\(saved.title)\" cannot be changed.")
      }
    } else if !source.allowsCalendarAddDelete {
      throw EKError(
        .sourceDoesNotAllowCalendarAddDelete,
        "The source \"\(source.title)\" does not allow adding calendars.")
    }
    guard !record.title.isEmpty else {
      throw EKError(.internalFailure, "The calendar needs a title.")
    }
  }
}
