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
    guard within(start), within(end) else {
      throw EKError(
        .startDateTooFarInFuture, "The event's dates must lie between the years 1 and 9999.")
    }
    if let zone = values.timeZone, !values.isAllDay, (try? ZoneRules.named(zone)) == nil {
      throw EKError(.internalFailure, "The event's time zone \(zone) is not in the tz database.")
    }
    // On its own clock too (its zone, or the current one): the store keeps the readings, and
    // no iCalendar date has a year 0 or 10000. An all-day event's days; the end is exclusive.
    let clock = WallClock(timeZone: values.isAllDay ? nil : values.timeZone)
    var (first, last) = (clock.reading(start), clock.reading(end))
    if values.isAllDay {
      let days = clock.allDayReadings(start: start, end: end)
      (first, last) = (days.start, days.end - 86_400)
    }
    guard first >= WallClock.minimumSeconds, last <= WallClock.maximumSeconds else {
      throw EKError(
        .startDateTooFarInFuture,
        "The event's dates must lie between the years 1 and 9999 on its own clock too.")
    }
    try checkAlarms(values.alarms)
    try checkKeepable(values, noun: "event")
  }

  static func checkReminder(_ values: ItemValues) throws(EKError) {
    guard (0...9).contains(values.priority) else {
      throw EKError(
        .priorityIsInvalid, "The reminder's priority \(values.priority) is not between 0 and 9.")
    }
    for (name, components) in [("due", values.dueComponents), ("start", values.startComponents)] {
      guard let components, components.year != nil, components.month != nil,
        components.day != nil
      else { continue }
      guard let moment = ReminderDue(components) else {
        throw EKError(
          .internalFailure,
          "The reminder's \(name) date \(ReminderDue.text(components)) is not a date and time of "
            + "the years 1 to 9999.")
      }
      if let zone = moment.timeZone, (try? ZoneRules.named(zone)) == nil {
        throw EKError(
          .internalFailure, "The reminder's \(name) time zone \(zone) is not in the tz database.")
      }
    }
    if !values.rules.isEmpty && values.dueComponents.flatMap(ReminderDue.init) == nil {
      throw EKError(
        .recurringReminderRequiresDueDate,
        "A repeating reminder needs a due date with a year, month and day.")
    }
    if let completion = values.completionDate, !completion.timeIntervalSince1970.isFinite {
      throw EKError(.internalFailure, "The reminder's completion date is not a date.")
    }
    if values.alarms.contains(where: { $0.emailAddress != nil || $0.url != nil }) {
      throw EKError(
        .reminderAlarmContainsEmailOrUrl, "A reminder's alarm cannot send email or open a URL.")
    }
    try checkAlarms(values.alarms)
    try checkKeepable(values, noun: "reminder")
  }

  /// Refuses what the store could not keep as it was given, so that what a save accepts reads
  /// back equal: a NUL character in a text (SQLite binds and reads a text as a C string, so it
  /// would be cut there, and no .ics file may hold one), and a number that is not one (NaN or
  /// infinite), which the JSON of alarms and places cannot hold.
  static func checkKeepable(_ values: ItemValues, noun: String) throws(EKError) {
    let texts: [(String, String?)] =
      [
        ("title", values.title), ("location", values.location), ("notes", values.notes),
        ("URL", values.url?.absoluteString),
        ("structured location's title", values.structuredLocation?.title),
      ]
      + values.alarms.flatMap { alarm in
        [
          ("alarm's email address", alarm.emailAddress), ("alarm's sound", alarm.soundName),
          ("alarm's location title", alarm.location?.title),
        ]
      }
    for case (let field, let text?) in texts where text.utf8.contains(0) {
      throw EKError(
        .internalFailure,
        "The \(noun)'s \(field) holds a NUL character (U+0000), which no "
          + "calendar can keep.")
    }
    /// Coordinates on the globe (iCalendar's GEO holds no other) and a radius that is a number.
    func finite(_ place: LocationValues?) -> Bool {
      guard let place else { return true }
      return (-90...90).contains(place.latitude ?? 0) && (-180...180).contains(place.longitude ?? 0)
        && place.radius.isFinite
    }
    guard finite(values.structuredLocation) else {
      throw EKError(
        .internalFailure,
        "The \(noun)'s structured location has a radius that is not a number, or coordinates "
          + "off the globe (latitude -90 to 90, longitude -180 to 180).")
    }
    for alarm in values.alarms {
      guard abs(alarm.relativeOffset) <= longestOffset,
        alarm.absoluteDate.map({ $0.timeIntervalSince1970.isFinite }) ?? true,
        finite(alarm.location)
      else {
        throw EKError(
          .internalFailure,
          "An alarm of the \(noun) has an offset, date, coordinate or radius "
            + "that is not a number, coordinates off the globe, or an offset longer than the "
            + "years 1 to 9999.")
      }
    }
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
      if case .date(let until) = rule.end, !fits(until, floating: record.isFloating) {
        throw EKError(
          .internalFailure,
          "Recurrence rule \(full.text): its end date must lie between the years 1 and 9999.")
      }
    }
    if record.kind == .event, let set = record.recurrenceSet(),
      (try? set.occurrences())?.first(where: { _ in true }) == nil
    {
      // An UNTIL before the start leaves no instance: no query would find the event.
      throw EKError(
        .datesInverted, "The event's recurrence ends before its start: it would never occur.")
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
        "An alarm \(alarm.relativeOffset.rounded(.towardZero)) s from the start reaches past "
          + "the \(gap) s between occurrences.")
    }
  }

  /// Whether a recurrence's end date lies in the years 1 to 9999, as an instant and on the
  /// clock UNTIL is written on: the current one for a floating or all-day item (9999-12-31
  /// 10:00 UTC is already the year 10000 in Kiribati).
  private static func fits(_ until: Date, floating: Bool) -> Bool {
    guard within(until) else { return false }
    guard floating else { return true }
    let reading = WallClock.current.reading(until)
    return WallClock.keptSeconds.contains(reading)
  }

  /// The longest offset an alarm may have: from the first instant the store keeps to the last.
  static let longestOffset = Double(WallClock.maximumSeconds - WallClock.minimumSeconds)

  /// Whether a date lies in the years 1 to 9999, the dates the store keeps (false for NaN).
  static func within(_ date: Date) -> Bool {
    (Double(WallClock.minimumSeconds)...Double(WallClock.maximumSeconds)).contains(
      date.timeIntervalSince1970)
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
    guard !record.title.utf8.contains(0) else {
      throw EKError(
        .internalFailure,
        "The calendar's title holds a NUL character (U+0000), which no calendar can keep.")
    }
  }
}
