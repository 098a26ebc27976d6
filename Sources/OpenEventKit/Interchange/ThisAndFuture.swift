import Foundation
import ICalendar

// Overrides with `RECURRENCE-ID;RANGE=THISANDFUTURE` (RFC 5545 §3.2.13, §3.8.4.4) change their
// instance and every later one. EventKit has no override of a range; an import stores one as a
// `.futureEvents` save stores it: the series is cut before the instance, and a new series,
// with the override's values, carries on from there (<doc:ICalendarFiles>, "Import into the
// store", has the decisions).

extension ImportWriter {
  /// How many instances after a split are compared with the ones they stand for, before the
  /// split is taken to give every later instance moved by the override's shift.
  static let checkedInstances = 1_000

  /// Applies the THISANDFUTURE overrides in `overrides` to their series in `series` (whose
  /// identifiers are already given): each series is cut, the new series appended to
  /// `series`, the consumed overrides removed, and the other overrides of a cut series moved
  /// into the part that holds their instance. An override that cannot be a split (its series
  /// is not in the file, or the rules started again from the moved instance would not give
  /// every later instance moved by as much) replaces its own instance only, and keeps its
  /// RECURRENCE-ID line with the parameter for export.
  static func splitSeries(_ series: inout [ImportedItem], overrides: inout [ImportedItem]) {
    let ranged = Set(overrides.lazy.filter { $0.range != nil }.map(\.uid))
    guard !ranged.isEmpty else { return }
    var masters: [String: Int] = [:]
    for index in series.indices { masters[series[index].uid] = index }
    var byUID: [String: [Int]] = [:]
    for index in overrides.indices where ranged.contains(overrides[index].uid) {
      byUID[overrides[index].uid, default: []].append(index)
    }
    var removed: Set<Int> = []
    var keepsRange: [Int] = []
    // In file order of the series, so that the new series come in a stable order.
    let order = byUID.keys.sorted { (masters[$0] ?? Int.max, $0) < (masters[$1] ?? Int.max, $1) }
    for uid in order {
      let indices = byUID[uid] ?? []
      guard let masterIndex = masters[uid],
        var splitter = SeriesSplitter(master: series[masterIndex].record, uid: uid)
      else {
        keepsRange += indices.filter { overrides[$0].range != nil }
        continue
      }
      let ranges = indices.filter { overrides[$0].range != nil }
        .compactMap { index in splitter.reading(of: overrides[index]).map { (index, $0) } }
        .sorted { $0.1 < $1.1 }
      for (index, reading) in ranges {
        switch splitter.split(at: reading, by: overrides[index]) {
        case .split, .dropped: removed.insert(index)
        case .instanceOnly: keepsRange.append(index)
        }
      }
      keepsRange += indices.filter {
        overrides[$0].range != nil && splitter.reading(of: overrides[$0]) == nil
      }
      for index in indices where !removed.contains(index) {
        if !splitter.rehome(&overrides[index]) { removed.insert(index) }
      }
      series[masterIndex].record = splitter.parts[0].record
      for part in splitter.parts.dropFirst() {
        series.append(
          ImportedItem(record: part.record, uid: part.uid, recurrenceId: nil, line: part.line))
      }
    }
    for index in keepsRange where !removed.contains(index) {
      guard let line = overrides[index].range else { continue }
      var kept = KeptContent.from(column: overrides[index].record.extra)
      kept.properties.insert(line, at: 0)
      overrides[index].record.extra = kept.columnText
    }
    if !removed.isEmpty {
      overrides = overrides.indices.filter { !removed.contains($0) }.map { overrides[$0] }
    }
  }

  /// A rule for a series whose instances moved from `old` to `new` (readings): BYDAY without
  /// ordinals turns with a move to another weekday (and WKST with it, where it decides which
  /// weeks a WEEKLY rule's INTERVAL keeps), and a single BYHOUR, BYMINUTE or BYSECOND follows
  /// the new time. Other BY-parts stay: the splitter checks whether the result still gives the
  /// moved instances.
  static func movedRule(_ rule: RecurrenceRule, from old: Int, to new: Int) -> RecurrenceRule {
    var rule = rule
    let before = CivilDateTime(localSeconds: old)
    let after = CivilDateTime(localSeconds: new)
    let days = after.dayNumber - before.dayNumber
    func turned(_ day: Weekday) -> Weekday {
      Weekday(rawValue: (day.index + days).floorModulo(7) + 1) ?? day
    }
    if days.floorModulo(7) != 0, !rule.byDay.isEmpty, rule.byDay.allSatisfy({ $0.ordinal == nil }) {
      rule.byDay = rule.byDay.map { RecurrenceRule.WeekdayNum(turned($0.weekday)) }
      if rule.frequency == .weekly, rule.interval > 1 { rule.weekStart = turned(rule.weekStart) }
    }
    if rule.byHour.count == 1 { rule.byHour = [after.hour] }
    if rule.byMinute.count == 1 { rule.byMinute = [after.minute] }
    if rule.bySecond.count == 1 { rule.bySecond = [after.second] }
    return rule
  }
}

/// One series of an import cut into parts by its THISANDFUTURE overrides, in the order of
/// their instances.
private struct SeriesSplitter {
  /// A part of the series: the original (perhaps cut), or a series a split made.
  struct Part {
    var record: ItemRecord
    var uid: String
    /// The reading, on the original series' clock, of the first instance it holds.
    var from: Int
    /// How far its instances moved from the original's, in seconds of that wall clock.
    var offset: Int
    var line: Int
  }

  enum Outcome {
    /// A new part begins at the override's instance (or the whole series took its values).
    case split
    /// An older override of an instance the newer series no longer has: gone with it.
    case dropped
    /// The override replaces its own instance only.
    case instanceOnly
  }

  let master: ItemRecord
  let clock: ItemClock
  private let instances: ItemRecord.Instances
  private(set) var parts: [Part]

  init?(master: ItemRecord, uid: String) {
    guard master.isSeries, let start = master.startReading,
      let clock = try? ItemClock(master.dtstart(reading: start))
    else { return nil }
    self.master = master
    self.clock = clock
    instances = master.instances()
    parts = [Part(record: master, uid: uid, from: Int.min, offset: 0, line: 0)]
  }

  /// The reading of an override's RECURRENCE-ID on the series' clock.
  func reading(of item: ImportedItem) -> Int? {
    guard let value = item.recurrenceId else { return nil }
    return try? clock.reading(of: value)
  }

  /// Applies a THISANDFUTURE override of the instance at `reading` (overrides come in the
  /// order of their instances, so it falls in the last part).
  mutating func split(at reading: Int, by item: ImportedItem) -> Outcome {
    let override = item.record
    if override.sequence < master.sequence, !instances.contains(clock.key(reading)) {
      return .dropped
    }
    guard override.isAllDay == master.isAllDay, let overrideStart = override.startReading,
      let overrideEnd = override.endReading,
      let start = try? clock.reading(of: override.dtstart(reading: overrideStart)),
      let end = try? clock.reading(of: override.dtstart(reading: overrideEnd))
    else { return .instanceOnly }
    var part = parts[parts.count - 1]
    let key = clock.key(reading + part.offset)
    // The move from the part's instances to the new part's: RFC 5545 moves every later
    // instance by the override's own move from its RECURRENCE-ID (§3.8.4.4).
    let move = (start - reading) - part.offset
    guard
      let next = continuation(
        of: part.record, at: key, movedBy: move, values: override, start: start, end: end),
      Self.continues(part.record, at: key, movedBy: move, clock: clock, as: next)
    else { return .instanceOnly }
    if let cut = part.record.truncated(before: key) {
      parts[parts.count - 1].record = cut
      parts.append(
        Part(
          record: next, uid: derivedUID(reading), from: reading, offset: start - reading,
          line: item.line))
    } else {
      // No occurrence before it: the whole part takes the override's values and move.
      var whole = next
      whole.id = part.record.id
      whole.uid = part.record.uid
      part.record = whole
      part.from = reading
      part.offset = start - reading
      parts[parts.count - 1] = part
    }
    return .split
  }

  /// The UID of the series a split at `reading` makes: the series' UID and the instance's
  /// RECURRENCE-ID (in UTC for a zoned series), so that importing the file again finds the
  /// same series: `team-sync@example.org_R20250407T070000Z`.
  private func derivedUID(_ reading: Int) -> String {
    let instance: DateTimeValue =
      if case .zoned = clock { .utc(CivilDateTime(localSeconds: clock.key(reading))) } else {
        clock.value(reading)
      }
    return parts[0].uid + "_R" + instance.text
  }

  /// The series that carries on from the instance at `key` of `record` with an override's
  /// values, starting at `start`: the same rules (a COUNT keeps what remained, an UNTIL moves
  /// with the instances), and the RDATEs and EXDATEs from the instance on, moved.
  private func continuation(
    of record: ItemRecord, at key: Int, movedBy move: Int, values: ItemRecord, start: Int,
    end: Int
  ) -> ItemRecord? {
    guard let recordStart = record.startReading else { return nil }
    let dtstart = record.dtstart(reading: recordStart)
    let instanceReading = clock.reading(ofKey: key)
    var next = values
    next.seriesId = nil
    next.recurrenceId = nil
    next.detachedDates = nil
    next.isAllDay = record.isAllDay
    next.timeZone = record.timeZone
    next.startReading = start
    next.endReading = end
    next.startKey = clock.key(start)
    next.endKey = clock.key(end)
    var rules: [String] = []
    for rule in record.parsedRules() {
      var moved = ImportWriter.movedRule(rule, from: instanceReading, to: start)
      switch rule.end {
      case .count(let count):
        let remaining = count - record.instancesBefore(key, rule: rule)
        guard remaining > 0 else { continue }
        moved.end = .count(remaining)
      case .until(let until):
        moved.end = .until(movedUntil(until, by: move, start: dtstart))
      case nil:
        break
      }
      rules.append(moved.text)
    }
    // A date moved past the years 1 to 9999 names no instance the engine gives (and no
    // text can say it): it goes, and `continues` finds whether the split still holds.
    let dates = record.keeping(record.recurrenceDates) { $0 >= key }.map { shifted($0, by: move) }
      .filter(Self.isWithinYears)
    let exceptions = record.keeping(record.exceptionDates) { $0 >= key }.map {
      shifted($0, by: move)
    }.filter(Self.isWithinYears)
    next.recurrenceDates = DateTimeLines.text(dates)
    next.exceptionDates = DateTimeLines.text(exceptions)
    next.recurrenceRules =
      rules.isEmpty ? (dates.isEmpty ? nil : "") : rules.joined(separator: "\n")
    next.seriesEndKey = next.isSeries ? next.lastPossibleEnd() : nil
    // The override's own RRULE, RDATE and EXDATE lines were kept as written; on a series they
    // would be rules again, so they go: the original's rules carry on.
    var kept = KeptContent.from(column: values.extra)
    kept.properties.removeAll { line in
      ["RRULE", "RDATE", "EXDATE", "RECURRENCE-ID"].contains {
        line.uppercased().hasPrefix($0 + ":") || line.uppercased().hasPrefix($0 + ";")
      }
    }
    next.extra = kept.columnText
    return next
  }

  /// Whether `next` gives the instances of `record` from `key` on, each moved by `move`: its
  /// start, then the later instances of its rules (RDATEs are moved one by one and always
  /// agree). Compared over the first ``ImportWriter/checkedInstances``.
  static func continues(
    _ record: ItemRecord, at key: Int, movedBy move: Int, clock: ItemClock, as next: ItemRecord
  ) -> Bool {
    guard let recordStart = record.startReading, let nextStart = next.startReading else {
      return false
    }
    let rules = RecurrenceSet(
      start: record.dtstart(reading: recordStart), rules: record.parsedRules())
    let carried = RecurrenceSet(start: next.dtstart(reading: nextStart), rules: next.parsedRules())
    guard let later = try? rules.occurrences(from: key + 1, to: nil),
      let actual = try? carried.occurrences()
    else { return false }
    var expected = later.makeIterator()
    var found = actual.makeIterator()
    var want: Int? = key
    for _ in 0..<ImportWriter.checkedInstances {
      let got = found.next()?.secondsSinceEpoch
      guard want.map({ clock.key(clock.reading(ofKey: $0) + move) }) == got else { return false }
      if got == nil { return true }
      want = expected.next()?.secondsSinceEpoch
    }
    return true
  }

  /// An UNTIL moved with the instances, so that it keeps the same ones: read as the
  /// recurrence engine reads it against `start`, moved, and written in the form §3.3.10 asks
  /// for DTSTART's kind.
  private func movedUntil(_ until: DateTimeValue, by move: Int, start: DateTimeValue)
    -> DateTimeValue
  {
    let reading: Int
    switch until {
    case .date(let day): reading = day.dayNumber * 86_400 + (start.isDate ? 0 : 86_399)
    case .utc(let value):
      if case .zoned = clock {
        reading = (try? clock.reading(of: until)) ?? value.localSeconds
      } else {
        reading = value.localSeconds
      }
    case .floating(let value), .zoned(let value, _): reading = value.localSeconds
    }
    // Before year 1 or after 9999 an UNTIL keeps the same instances as at those ends, where
    // its text can say it (a move of centuries took one to year -2010: found by fuzz-import).
    let moved = reading + move
    switch clock {
    case .allDay: return .date(CivilDate(dayNumber: WallClock.kept(moved).floorDivided(by: 86_400)))
    case .floating: return .floating(CivilDateTime(localSeconds: WallClock.kept(moved)))
    case .zoned: return .utc(CivilDateTime(localSeconds: WallClock.kept(clock.key(moved))))
    }
  }

  /// Whether a date's text names a day of the years 1 to 9999.
  private static func isWithinYears(_ value: DateTimeValue) -> Bool {
    WallClock.keptSeconds.contains(value.local.localSeconds)
  }

  /// A date of the series (RDATE, EXDATE, RECURRENCE-ID) moved by `move`, in DTSTART's form.
  func shifted(_ value: DateTimeValue, by move: Int) -> DateTimeValue {
    guard move != 0, let reading = try? clock.reading(of: value) else { return value }
    return clock.value(reading + move)
  }

  /// Moves an override of the series (not a THISANDFUTURE one that made a part) into the part
  /// that holds its instance: its UID and RECURRENCE-ID become that part's. An instance before
  /// the first part was removed from the series (the first part begins at its first
  /// occurrence): false, the override goes with it.
  func rehome(_ item: inout ImportedItem) -> Bool {
    guard let reading = reading(of: item) else { return true }
    guard let part = parts.last(where: { $0.from <= reading }) else { return false }
    guard part.offset != 0 || part.uid != parts[0].uid else { return true }
    let original = clock.value(reading)
    item.formerKey = master.id + "\n" + original.description
    item.uid = part.uid
    item.recurrenceId = clock.value(reading + part.offset)
    // A RECURRENCE-ID kept as written (a RANGE other than THISANDFUTURE) names the instance
    // under the original series: in the part, the one just computed is written instead.
    var kept = KeptContent.from(column: item.record.extra)
    if let line = kept.recurrenceIdLine {
      kept.properties.removeAll { $0 == line }
      item.record.extra = kept.columnText
    }
    if item.isPeriod, let start = item.record.startReading, let end = item.record.endReading {
      // An RDATE's PERIOD is an instance of the part: its values and move, its own length.
      var occurrence = part.record
      (occurrence.recurrenceRules, occurrence.recurrenceDates) = (nil, nil)
      (occurrence.exceptionDates, occurrence.seriesEndKey) = (nil, nil)
      occurrence.extra = nil
      occurrence.startReading = reading + part.offset
      occurrence.endReading = reading + part.offset + (end - start)
      occurrence.startKey = occurrence.startReading.map(clock.key)
      occurrence.endKey = occurrence.endReading.map(clock.key)
      item.record = occurrence
    }
    return true
  }
}

extension ItemClock {
  /// The reading of a key: the wall clock at an instant for a zoned item, the key itself for
  /// a floating or all-day one.
  func reading(ofKey key: Int) -> Int {
    if case .zoned(_, let rules) = self { return rules.local(forUTC: key) }
    return key
  }
}
