import ICalendar

/// The clock an imported event's times are read on, from the kind of its DTSTART: a whole
/// day, a floating reading, or a reading in a zone (UTC included). Every other time of the
/// event (DTEND, EXDATE, RDATE, RECURRENCE-ID) is brought onto it, as §3.8.5.1 asks of
/// EXDATE and §3.8.4.4 of RECURRENCE-ID ("the same value type as DTSTART").
enum ItemClock {
  case allDay
  case floating
  case zoned(String, ZoneRules)

  init(_ start: DateTimeValue) throws(TimeZoneError) {
    switch start {
    case .date: self = .allDay
    case .floating: self = .floating
    case .utc: self = .zoned("UTC", .utc)
    case .zoned(_, let tzid): self = .zoned(tzid, try ZoneRules.named(tzid))
    }
  }

  /// The store's `timeZone` column: nil for floating and all-day items.
  var timeZone: String? {
    if case .zoned(let identifier, _) = self { return identifier }
    return nil
  }

  /// A value's wall-clock reading on this clock. An instant (UTC, or another zone's reading)
  /// is converted; a floating or DATE value is taken as it reads.
  func reading(of value: DateTimeValue) throws(TimeZoneError) -> Int {
    switch (self, value) {
    case (.allDay, _):
      return value.local.dayNumber * 86_400
    case (.zoned(let identifier, let rules), .zoned(let local, let tzid)) where tzid != identifier:
      return rules.local(
        forUTC: try ZoneRules.named(tzid).instant(forLocal: local.localSeconds).seconds)
    case (.zoned(_, let rules), .utc(let instant)):
      return rules.local(forUTC: instant.localSeconds)
    default:
      return value.local.localSeconds
    }
  }

  /// The store's key of a reading: the instant for a zoned item, the reading itself for a
  /// floating or all-day one (see ``CalendarSchema``).
  func key(_ reading: Int) -> Int {
    if case .zoned(_, let rules) = self { return rules.instant(forLocal: reading).seconds }
    return reading
  }

  /// The reading a duration after `reading`: days on the wall clock (they are nominal,
  /// §3.3.6), then exact seconds.
  func reading(_ reading: Int, plus duration: DurationValue) -> Int {
    let moved = reading + duration.nominalDays * 86_400
    guard case .zoned(_, let rules) = self else { return moved + duration.exactSeconds }
    return rules.local(forUTC: rules.instant(forLocal: moved).seconds + duration.exactSeconds)
  }

  /// A reading as the series writes DTSTART, for RECURRENCE-ID, EXDATE and RDATE lines.
  func value(_ reading: Int) -> DateTimeValue {
    let local = CivilDateTime(localSeconds: reading)
    switch self {
    case .allDay: return .date(local.date)
    case .floating: return .floating(local)
    case .zoned(let identifier, _): return .zoned(local, tzid: identifier)
    }
  }
}
