import ICalendar

/// Expands a recurrence set given as RFC 5545 texts, as `ekctl rrule` does, and returns the
/// instances' wall-clock starts as `YYYYMMDDTHHMMSS` (or `YYYYMMDD` for a DATE start).
func expand(
  _ rules: [String], dtstart: String, tzid: String? = nil, limit: Int? = nil,
  from: String? = nil, to: String? = nil, rdates: [String] = [], exdates: [String] = []
) throws -> [String] {
  let start = try DateTimeValue(parsing: dtstart, tzid: tzid)
  let set = RecurrenceSet(
    start: start, rules: try rules.map { try RecurrenceRule(parsing: $0) },
    dates: try rdates.map { try RecurrenceDate(parsing: $0, tzid: tzid) },
    exceptionDates: try exdates.map { try DateTimeValue(parsing: $0, tzid: tzid) })
  let occurrences = try set.occurrences(
    fromLocal: try from.map { try DateTimeValue(parsing: $0).local },
    toLocal: try to.map { try DateTimeValue(parsing: $0).local })
  var result: [String] = []
  for occurrence in occurrences {
    if let limit, result.count >= limit { break }
    result.append(
      start.isDate ? occurrence.local.date.description : occurrence.local.description)
    precondition(result.count < 100_000, "runaway expansion in a test")
  }
  return result
}

/// Wall-clock readings to the instants they resolve to in a zone, as `YYYYMMDDTHHMMSSZ`.
func utcTexts(_ occurrences: some Sequence<Occurrence>) -> [String] {
  occurrences.map {
    ICalendarFormat.dateTime(CivilDateTime(localSeconds: $0.secondsSinceEpoch), utc: true)
  }
}
