import Foundation
import ICalendar

// The row-level edits behind span saves and removals of repeating events, as iCalendar would
// write them: an instance removed is an EXDATE; an instance detached is a row with
// RECURRENCE-ID; a series cut before an instance has its COUNT or UNTIL rewritten to end
// just before it (RFC 5545 §3.8.5.3, §3.8.4.4).

extension ItemRecord {
  /// An instant written as this series writes DTSTART: the form of RECURRENCE-ID, EXDATE and
  /// RDATE values (§3.8.4.4: "the same value type as DTSTART").
  func recurrenceValue(of date: Date) -> DateTimeValue {
    let clock = WallClock(timeZone: timeZone)
    let reading = clock.reading(date)
    if isAllDay { return .date(CivilDate(dayNumber: reading.floorDivided(by: 86_400))) }
    if let timeZone { return .zoned(CivilDateTime(localSeconds: reading), tzid: timeZone) }
    return .floating(CivilDateTime(localSeconds: reading))
  }

  /// Where a value falls in this series' expansion, for ordering: an instant for a zoned
  /// series, the wall-clock reading for a floating or all-day one.
  ///
  /// Only DTSTART decides it, so the date lists are not read: a loop over thousands of dates
  /// of a series costs one conversion each.
  func instanceKey(_ value: DateTimeValue) -> Int? {
    guard let startReading else { return nil }
    return try? RecurrenceSet(start: dtstart(reading: startReading)).instant(of: value)
  }

  /// Whether the series, as this row has it, still has the instance `value`, detached or
  /// not: not removed (EXDATE) nor cut off since an object of it was read.
  func generates(_ value: DateTimeValue) -> Bool {
    guard let key = instanceKey(value), var set = recurrenceSet(withExceptions: false) else {
      return false
    }
    set.exceptionDates = DateTimeLines.values(exceptionDates)
    return (try? set.occurrences(from: key, to: key + 1))?.contains { $0.secondsSinceEpoch == key }
      ?? false
  }

  /// The first instance that is an occurrence: removed instances (EXDATE) do not count,
  /// detached ones do.
  var firstOccurrenceKey: Int? {
    guard var set = recurrenceSet() else { return nil }
    set.exceptionDates = DateTimeLines.values(exceptionDates)
    return (try? set.occurrences())?.first(where: { _ in true })?.secondsSinceEpoch
  }

  /// Whether the instance `key`, read from an older version of this series, is none of the
  /// series' any more while the series goes on after it: another store moved or changed the
  /// whole series since, and a removal or cut at `key` would fall between two occurrences.
  /// (An instance removed or cut off since is not "moved away": acting on it again changes
  /// nothing. A move by whole periods leaves `key` an instance: it cannot be told.)
  func movedAway(from key: Int) -> Bool {
    guard !hasInstance(at: key), var set = recurrenceSet() else { return false }
    set.exceptionDates = DateTimeLines.values(exceptionDates)
    return (try? set.occurrences(from: key + 1, to: nil))?.first(where: { _ in true }) != nil
  }

  /// Whether the rules and RDATEs (before any EXDATE) produce an instance at `key`.
  func hasInstance(at key: Int) -> Bool {
    instances().contains(key)
  }

  /// The instances the rules and RDATEs produce (before any EXDATE), for asking about many
  /// keys: the RDATEs are read once, not once per key.
  func instances() -> Instances {
    guard let startReading else { return Instances(rules: nil, dates: []) }
    let start = dtstart(reading: startReading)
    let rules = RecurrenceSet(start: start, rules: parsedRules())
    var dates: Set<Int> = []
    for value in DateTimeLines.values(recurrenceDates) {
      if let key = try? rules.instant(of: value) { dates.insert(key) }
    }
    return Instances(rules: rules, dates: dates)
  }

  /// The keys of a series' instances, as ``instances()`` reads them.
  struct Instances {
    /// DTSTART and the rules, without date lists (with no rule, DTSTART alone).
    let rules: RecurrenceSet?
    /// The RDATEs' keys.
    let dates: Set<Int>

    func contains(_ key: Int) -> Bool {
      if dates.contains(key) { return true }
      guard let occurrences = try? rules?.occurrences(from: key, to: key + 1) else {
        return false
      }
      return occurrences.contains { $0.secondsSinceEpoch == key }
    }
  }

  /// The series cut to the instances before `key`, or nil when none would be left. Each rule
  /// ends just before the cut: a COUNT becomes the number of its instances before it, an
  /// UNTIL (or no end) becomes the last moment before it. RDATEs, EXDATEs and detached dates
  /// from the cut on go with the part cut off.
  func truncated(before key: Int) -> ItemRecord? {
    guard let startReading, let set = recurrenceSet() else { return nil }
    let start = dtstart(reading: startReading)
    var rules: [RecurrenceRule] = []
    for var rule in set.rules {
      switch rule.end {
      case .count:
        let count = instancesBefore(key, rule: rule)
        guard count > 0 else { continue }
        rule.end = .count(count)
      case .until, nil:
        guard let until = untilValue(before: key, start: start) else { continue }
        if let current = rule.until, let currentKey = try? set.instant(of: current),
          currentKey < key
        {
          break  // already ends before the cut
        }
        rule.end = .until(until)
      }
      rules.append(rule)
    }
    var cut = self
    cut.recurrenceRules = rules.isEmpty ? nil : rules.map(\.text).joined(separator: "\n")
    cut.recurrenceDates = DateTimeLines.text(keeping(recurrenceDates) { $0 < key })
    cut.exceptionDates = DateTimeLines.text(keeping(exceptionDates) { $0 < key })
    cut.detachedDates = DateTimeLines.text(keeping(detachedDates) { $0 < key })
    guard cut.recurrenceRules != nil || cut.recurrenceDates != nil else { return nil }
    if cut.recurrenceRules == nil {
      // Only RDATEs remain: keep a rule that yields DTSTART alone, so the row stays a series.
      cut.recurrenceRules = "FREQ=DAILY;COUNT=1"
    }
    cut.seriesEndKey = cut.lastPossibleEnd()
    return cut.firstOccurrenceKey == nil ? nil : cut
  }

  /// How many instances a rule (with its COUNT) yields before `key`.
  func instancesBefore(_ key: Int, rule: RecurrenceRule) -> Int {
    guard let startReading else { return 0 }
    let single = RecurrenceSet(start: dtstart(reading: startReading), rules: [rule])
    guard let occurrences = try? single.occurrences() else { return 0 }
    var count = 0
    for occurrence in occurrences {
      guard occurrence.secondsSinceEpoch < key else { break }
      count += 1
    }
    return count
  }

  /// UNTIL for "just before the instance at `key`", in the form DTSTART requires: the day
  /// before for a DATE start, one second before otherwise (UTC for a zoned start).
  private func untilValue(before key: Int, start: DateTimeValue) -> DateTimeValue? {
    switch start {
    case .date:
      return .date(CivilDate(dayNumber: key.floorDivided(by: 86_400) - 1))
    case .floating:
      return .floating(CivilDateTime(localSeconds: key - 1))
    case .utc, .zoned:
      return .utc(CivilDateTime(localSeconds: key - 1))
    }
  }

  /// The values of a date-list column whose keys pass `isKept`.
  func keeping(_ lines: String?, _ isKept: (Int) -> Bool) -> [DateTimeValue] {
    guard let startReading else { return [] }
    let start = RecurrenceSet(start: dtstart(reading: startReading))
    return DateTimeLines.values(lines).filter { value in
      (try? start.instant(of: value)).map(isKept) ?? false
    }
  }

  /// The row as rewritten now: a new modification date and the next iCalendar SEQUENCE
  /// (RFC 5545 §3.8.7.4), as any change to a series or its occurrences makes.
  func touched() -> ItemRecord {
    var row = self
    row.modifiedAt = Date().wholeSeconds.timeIntervalSince1970
    row.sequence += 1
    return row
  }

  /// A date-list column with `value` added once.
  static func adding(_ value: DateTimeValue, to lines: String?) -> String? {
    var values = DateTimeLines.values(lines)
    if !values.contains(value) { values.append(value) }
    return DateTimeLines.text(values)
  }

  /// A date-list column without `value`.
  static func removing(_ value: DateTimeValue, from lines: String?) -> String? {
    DateTimeLines.text(DateTimeLines.values(lines).filter { $0 != value })
  }
}

/// Moves dates of one series onto another whose start moved: each value keeps its place
/// relative to the series start (an instance at 11:00 whose series now starts three hours
/// later is the instance at 14:00), written in the new series' form.
struct SeriesShift {
  let from: ItemRecord
  let to: ItemRecord
  /// The move of the start, in seconds of wall clock (or of time, between different zones).
  let delta: Int

  init(from: ItemRecord, to: ItemRecord, originalStart: Date, newStart: Date) {
    self.from = from
    self.to = to
    if from.timeZone == to.timeZone && from.isAllDay == to.isAllDay {
      let clock = WallClock(timeZone: from.timeZone)
      delta = clock.reading(newStart) - clock.reading(originalStart)
    } else {
      delta = WallClock.seconds(newStart) - WallClock.seconds(originalStart)
    }
  }

  func shifted(_ value: DateTimeValue) -> DateTimeValue {
    if from.timeZone == to.timeZone && from.isAllDay == to.isAllDay {
      switch value {
      case .date(let day):
        return .date(CivilDate(dayNumber: day.dayNumber + delta.floorDivided(by: 86_400)))
      case .floating(let reading): return .floating(reading.adding(seconds: delta))
      case .zoned(let reading, let tzid): return .zoned(reading.adding(seconds: delta), tzid: tzid)
      case .utc(let reading): return .utc(reading.adding(seconds: delta))
      }
    }
    let moved = WallClock.date(of: value).addingTimeInterval(TimeInterval(delta))
    return to.recurrenceValue(of: moved)
  }
}
