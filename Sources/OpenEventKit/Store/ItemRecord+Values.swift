import Foundation
import ICalendar

extension ItemRecord {
  /// The row for an item's values. `previous`, the row being replaced, carries what the API
  /// does not edit: RDATEs, EXDATEs, the iCalendar SEQUENCE and properties kept for export.
  init(kind: EKEntityType, identity: ItemIdentity, values: ItemValues, previous: ItemRecord?) {
    id = identity.id
    calendarId = values.calendarId ?? ""
    self.kind = kind
    uid = identity.uid == identity.id ? nil : identity.uid
    title = values.title
    location = values.location
    notes = values.notes
    url = values.url?.absoluteString
    createdAt = identity.createdAt.timeIntervalSince1970
    modifiedAt = identity.modifiedAt.timeIntervalSince1970
    availability = values.availability.rawValue
    status = values.status.rawValue
    structuredLocation = JSONColumn.text(values.structuredLocation)
    // Whole seconds, as every date the store keeps (a fraction would not survive the JSON's
    // seconds since 1970 exactly).
    alarms = JSONColumn.text(
      list: values.alarms.map { alarm in
        var alarm = alarm
        alarm.absoluteDate = alarm.absoluteDate?.wholeSeconds
        return alarm
      })
    participants = JSONColumn.text(list: values.participants)
    startComponents = JSONColumn.text(values.startComponents)
    dueComponents = JSONColumn.text(values.dueComponents)
    isCompleted = values.isCompleted
    completedAt = values.completionDate?.timeIntervalSince1970
    priority = values.priority
    recurrenceDates = previous?.recurrenceDates
    exceptionDates = previous?.exceptionDates
    sequence = (previous?.sequence ?? -1) + 1
    extra = previous?.extra
    seriesId = previous?.seriesId
    recurrenceId = previous?.recurrenceId
    detachedDates = previous?.detachedDates
    isAllDay = false
    timeZone = nil
    dueKey = nil

    switch kind {
    case .event:
      isAllDay = values.isAllDay
      timeZone = values.isAllDay ? nil : values.timeZone
      let clock = WallClock(timeZone: timeZone)
      if let start = values.startDate, let end = values.endDate {
        if isAllDay {
          (startReading, endReading) = clock.allDayReadings(start: start, end: end)
        } else {
          (startReading, endReading) = (clock.reading(start), clock.reading(end))
        }
      } else {
        startReading = values.startDate.map(clock.reading)
        endReading = values.endDate.map(clock.reading)
      }
    case .reminder:
      // A reminder repeats from its due date, its DTSTART in iCalendar terms (RFC 5545
      // §3.8.2.4 allows DTSTART on a VTODO; EventKit uses the due date).
      let due = values.dueComponents.flatMap(ReminderDue.init)
      timeZone = due?.timeZone
      isAllDay = due?.isDateOnly ?? false
      startReading = due?.reading
      endReading = due?.reading
      dueKey = due?.key
    }
    if kind == .event, !isAllDay, timeZone != nil {
      // A zoned event's keys are its instants, exact even where a reading is ambiguous (a DST
      // overlap).
      startKey = values.startDate.map(WallClock.seconds)
      endKey = values.endDate.map(WallClock.seconds)
    } else if isFloating {
      (startKey, endKey) = (startReading, endReading)
    } else {
      let clock = WallClock(timeZone: timeZone)
      startKey = startReading.map(clock.instant)
      endKey = endReading.map(clock.instant)
    }

    recurrenceRules = nil
    seriesEndKey = nil
    if !values.rules.isEmpty, let startReading {
      let start = dtstart(reading: startReading)
      recurrenceRules = values.rules.map { untilAware($0, start: start).text }
        .joined(separator: "\n")
      seriesEndKey = lastPossibleEnd()
    }
  }

  /// The values an API object shows for this row, read on the `current` clock where the item
  /// floats (and a floating or DATE UNTIL with it).
  func values(current: WallClock = .current) -> ItemValues {
    var fields = ItemFields(calendarId: calendarId)
    var startDate: Date?
    var endDate: Date?
    fields.title = title
    fields.location = location
    fields.notes = notes
    fields.url = url.flatMap(URL.init(string:))
    fields.availability = EKEventAvailability(rawValue: availability) ?? .notSupported
    fields.status = EKEventStatus(rawValue: status) ?? .none
    fields.structuredLocation = JSONColumn.value(LocationValues.self, from: structuredLocation)
    fields.alarms = JSONColumn.value([AlarmValues].self, from: alarms) ?? []
    fields.participants = JSONColumn.value([ParticipantValues].self, from: participants) ?? []
    fields.startComponents = JSONColumn.value(DateComponents.self, from: startComponents)
    fields.dueComponents = JSONColumn.value(DateComponents.self, from: dueComponents)
    fields.isCompleted = isCompleted
    fields.completionDate = completedAt.map { Date(timeIntervalSince1970: $0) }
    fields.priority = priority
    fields.rules = parsedRules().map { ruleValues($0, current: current) }
    if kind == .event {
      fields.isAllDay = isAllDay
      fields.timeZone = timeZone
      let clock = WallClock(timeZone: timeZone, otherwise: current)
      (startDate, endDate) = dates(startReading: startReading, endReading: endReading, on: clock)
      if !isAllDay, timeZone != nil, let startKey, let endKey {
        if isSeries {
          // Each occurrence lasts exactly what the keys say (EventQuery), from where its
          // start's reading puts it.
          endDate = startDate?.addingTimeInterval(TimeInterval(endKey - startKey))
        } else {
          // A zoned event's keys are the instants it was saved at: where its zone repeats an
          // hour (clocks going back), its reading alone would give the first of the two.
          func exact(_ key: Int, _ reading: Int?) -> Date? {
            guard clock.zone.local(forUTC: key) == reading else { return nil }
            return Date(timeIntervalSince1970: TimeInterval(key))
          }
          startDate = exact(startKey, startReading) ?? startDate
          endDate = exact(endKey, endReading) ?? endDate
        }
      }
    }
    return ItemValues(fields: fields, startDate: startDate, endDate: endDate)
  }

  /// For a detached occurrence, the start its instance had in the series (`occurrenceDate`).
  var originalStart: Date? {
    DateTimeLines.values(recurrenceId).first.map(WallClock.date(of:))
  }

  /// The dates EventKit shows for an occurrence that starts and ends at these readings.
  func dates(startReading: Int?, endReading: Int?) -> (Date?, Date?) {
    dates(startReading: startReading, endReading: endReading, on: WallClock(timeZone: timeZone))
  }

  /// The same on `clock`, the row's (the current one where the item floats).
  private func dates(startReading: Int?, endReading: Int?, on clock: WallClock) -> (Date?, Date?) {
    if isAllDay, let startReading, let endReading {
      let (start, end) = clock.allDayDates(start: startReading, end: endReading)
      return (start, end)
    }
    return (startReading.map(clock.date), endReading.map(clock.date))
  }

  // MARK: Recurrence

  /// DTSTART as iCalendar writes it for this row.
  func dtstart(reading: Int) -> DateTimeValue {
    let local = CivilDateTime(localSeconds: reading)
    if isAllDay { return .date(local.date) }
    if let timeZone { return .zoned(local, tzid: timeZone) }
    return .floating(local)
  }

  /// The row's rules, parsed once per text for the whole process.
  func parsedRules() -> [RecurrenceRule] {
    guard let recurrenceRules else { return [] }
    return RuleCache.shared.rules(recurrenceRules)
  }

  /// The row's recurrence set, with DTSTART at its start reading; without its EXDATEs and
  /// detached dates when `withExceptions` is false (what can only remove instances).
  func recurrenceSet(withExceptions: Bool = true) -> RecurrenceSet? {
    guard let startReading else { return nil }
    let start = dtstart(reading: startReading)
    return RecurrenceSet(
      start: start, rules: parsedRules(),
      dates: DateTimeLines.values(recurrenceDates).map { .dateTime($0) },
      exceptionDates: withExceptions
        ? DateTimeLines.values(exceptionDates) + DateTimeLines.values(detachedDates) : [])
  }

  /// A rule with its EventKit end written as COUNT, or as UNTIL of DTSTART's kind: a DATE for
  /// all-day items, floating for floating ones, UTC for zoned ones (RFC 5545 §3.3.10).
  private func untilAware(_ values: RuleValues, start: DateTimeValue) -> RecurrenceRule {
    var rule = values.rule
    switch values.end {
    case nil: rule.end = nil
    case .count(let count): rule.end = .count(count)
    case .date(let date):
      switch start {
      case .date:
        let day = WallClock.current.reading(date).floorDivided(by: 86_400)
        rule.end = .until(.date(CivilDate(dayNumber: day)))
      case .floating:
        rule.end = .until(.floating(CivilDateTime(localSeconds: WallClock.current.reading(date))))
      case .utc, .zoned:
        rule.end = .until(.utc(CivilDateTime(localSeconds: WallClock.seconds(date))))
      }
    }
    return rule
  }

  /// The end EventKit shows for a stored rule.
  private func ruleValues(_ rule: RecurrenceRule, current: WallClock) -> RuleValues {
    var bare = rule
    bare.end = nil
    switch rule.end {
    case nil: return RuleValues(rule: bare, end: nil)
    case .count(let count): return RuleValues(rule: bare, end: .count(count))
    case .until(let until):
      let date: Date
      switch until {
      case .utc(let reading): date = Date(timeIntervalSince1970: TimeInterval(reading.localSeconds))
      case .zoned(let reading, let tzid):
        date = WallClock(timeZone: tzid).date(reading.localSeconds)
      case .date, .floating: date = current.date(until.local.localSeconds)
      }
      return RuleValues(rule: bare, end: .date(date))
    }
  }

  /// The key of the latest moment any instance can end, nil when the series never ends.
  ///
  /// A rule with UNTIL ends there; a rule with COUNT is walked to its last instance (skipping
  /// ahead where it can). A walk longer than ``longestCountedWalk`` instances is not worth it:
  /// the series is then treated as open-ended, which costs queries a little, never correctness.
  func lastPossibleEnd() -> Int? {
    guard let startReading, let set = recurrenceSet() else { return nil }
    let duration = (endKey ?? startKey ?? 0) - (startKey ?? 0)
    var latest = startKey ?? 0
    for rule in set.rules {
      switch rule.end {
      case nil: return nil
      case .until(let until):
        let key: Int
        switch until {
        case .date(let day): key = (day.dayNumber + 1) * 86_400
        case .floating(let reading), .utc(let reading): key = reading.localSeconds
        case .zoned(let reading, let tzid):
          key = WallClock(timeZone: tzid).instant(reading.localSeconds)
        }
        // UNTIL in UTC on a floating series: widen, since the reading may be on any clock.
        latest = max(latest, isFloating ? key + WallClock.widestOffset : key)
      case .count(let count):
        guard count <= ItemRecord.longestCountedWalk else { return nil }
        let single = RecurrenceSet(start: dtstart(reading: startReading), rules: [rule])
        guard let occurrences = try? single.occurrences() else { return nil }
        var last: Int?
        for occurrence in occurrences { last = occurrence.secondsSinceEpoch }
        latest = max(latest, last ?? latest)
      }
    }
    for date in set.dates {
      guard let key = try? set.instant(of: date.start) else { return nil }
      latest = max(latest, key)
    }
    return latest + duration
  }

  static let longestCountedWalk = 100_000
}

/// Lines of iCalendar date-time values, as the `recurrenceDates` and `exceptionDates` columns
/// keep them: `TZID=Europe/Paris:20260301T090000`, `20260301T080000Z`, `20260301`.
enum DateTimeLines {
  static func values(_ text: String?) -> [DateTimeValue] {
    guard let text else { return [] }
    guard text.utf8.count < DateListCache.threshold else {
      return DateListCache.shared.values(text, parse: parse)
    }
    return parse(text)
  }

  private static func parse(_ text: String) -> [DateTimeValue] {
    text.split(separator: "\n").compactMap { line in
      if line.hasPrefix("TZID="), let colon = line.firstIndex(of: ":") {
        let tzid = line[line.index(line.startIndex, offsetBy: 5)..<colon]
        return try? DateTimeValue(parsing: line[line.index(after: colon)...], tzid: String(tzid))
      }
      return try? DateTimeValue(parsing: line)
    }
  }

  static func text(_ values: [DateTimeValue]) -> String? {
    values.isEmpty ? nil : values.map(\.description).joined(separator: "\n")
  }
}

/// A reminder's due date components as the store keys them.
struct ReminderDue {
  /// The reading of the due date (midnight for a date without a time).
  var reading: Int
  var timeZone: String?
  var isDateOnly: Bool

  /// Nil unless the components name a day of the years 1 to 9999 (and a time of day, 0:00 to
  /// 23:59:59, where they give one): no other due date has a place in the store's keys.
  init?(_ components: DateComponents) {
    guard let year = components.year, let month = components.month, let day = components.day,
      (1...9999).contains(year), let date = CivilDate(year: year, month: month, day: day),
      (0...23).contains(components.hour ?? 0), (0...59).contains(components.minute ?? 0),
      (0...59).contains(components.second ?? 0)
    else { return nil }
    isDateOnly = components.hour == nil
    let seconds =
      (components.hour ?? 0) * 3600 + (components.minute ?? 0) * 60
      + (components.second ?? 0)
    reading = date.dayNumber * 86_400 + seconds
    timeZone = isDateOnly ? nil : components.timeZone?.identifier
  }

  /// Due date components as a person reads them in an error: `2026-13-01 25:00`.
  static func text(_ components: DateComponents) -> String {
    let field = { (value: Int?) in value.map(String.init) ?? "?" }
    let date = [components.year, components.month, components.day].map(field).joined(
      separator: "-")
    guard let hour = components.hour else { return date }
    return "\(date) \(hour):\(field(components.minute ?? 0))"
  }

  /// An instant for a zoned due date; the reading for a floating one.
  var key: Int { timeZone.map { WallClock(timeZone: $0).instant(reading) } ?? reading }

  /// When the reminder is due, on the current clock where it floats.
  var date: Date { WallClock(timeZone: timeZone).date(reading) }
}
