import Foundation
import GRDB
import ICalendar

/// One window of an event fetch: the occurrences that overlap `[start, end)`, optionally only
/// those starting at or after `startAtLeast` (how `enumerateEvents` reports an event that
/// spans two of its chunks once).
///
/// Candidates come from two index range scans — single events by start, series by first start
/// and last possible end — widened where floating and all-day items make keys readings rather
/// than instants. Each candidate is then checked exactly, and each series expanded over the
/// window only.
struct EventQuery: Sendable {
  /// Instants, in seconds since 1970.
  let start: Int
  let end: Int
  let startAtLeast: Int?
  /// The calendars to search; nil for all.
  let calendarIds: [String]?

  /// The occurrence's times: its start as a reading (the instance's identity in its series)
  /// and its start and end as instants.
  struct Times {
    let startReading: Int
    let start: Int
    let end: Int
  }

  /// Whether an occurrence with these instants belongs to the window.
  func accepts(start occurrenceStart: Int, end occurrenceEnd: Int) -> Bool {
    occurrenceStart < end && (occurrenceEnd > start || occurrenceStart >= start)
      && startAtLeast.map { occurrenceStart >= $0 } ?? true
  }

  /// The rows that may have an occurrence in the window, each read straight into the object
  /// that holds it (a row is wide: copying it costs more than reading it).
  func candidates(_ db: Database, cache: SeriesCache? = nil) throws -> [StoredRecord] {
    let widest = WallClock.widestOffset
    let longest = try ItemRows.longestSingleEvent(db)
    let lowestStart = startAtLeast ?? (start - longest)
    var calendarFilter = ""
    var calendarArguments = StatementArguments()
    if let calendarIds {
      guard !calendarIds.isEmpty else { return [] }
      calendarFilter =
        " AND calendarId IN ("
        + Array(repeating: "?", count: calendarIds.count)
        .joined(separator: ",") + ")"
      calendarArguments = StatementArguments(calendarIds)
    }
    var rows: [StoredRecord] = []
    // Cached statements: compiling one (and GRDB's authorizer going over it) costs as much
    // as reading a hundred rows.
    try ItemRecord.forEach(
      db,
      db.cachedStatement(
        sql: """
          SELECT \(ItemRecord.selection) FROM item INDEXED BY item_single_start
          WHERE kind = 0 AND recurrenceRules IS NULL AND startKey >= ? AND startKey < ?
            AND endKey > ?\(calendarFilter)
          """),
      arguments: [lowestStart - widest, end + widest, (startAtLeast ?? start) - widest]
        + calendarArguments
    ) { rows.append(StoredRecord($0)) }
    if let cached = try cache?.seriesRows(db) {
      let latestStart = end + widest
      let earliestEnd = (startAtLeast ?? start) - widest
      let calendars = calendarIds.map(Set.init)
      for row in cached {
        // The row's fields read in place: binding `row.record` would copy its strings.
        guard let startKey = row.record.startKey, startKey < latestStart,
          row.record.seriesEndKey.map({ $0 > earliestEnd }) ?? true,
          calendars?.contains(row.record.calendarId) ?? true
        else { continue }
        rows.append(row)
      }
      return rows
    }
    try ItemRecord.forEach(
      db,
      db.cachedStatement(
        sql: """
          SELECT \(ItemRecord.selection) FROM item INDEXED BY item_series_start
          WHERE kind = 0 AND recurrenceRules IS NOT NULL AND startKey < ?
            AND (seriesEndKey IS NULL OR seriesEndKey > ?)\(calendarFilter)
          """),
      arguments: [end + widest, (startAtLeast ?? start) - widest] + calendarArguments
    ) { rows.append(StoredRecord($0)) }
    return rows
  }

  /// The row's occurrences in the window, with its expansion kept on the row: the series
  /// cache holds series rows across fetches, so each is prepared once, not once a month shown.
  func lazyOccurrences(of row: StoredRecord, clock current: WallClock) -> OccurrenceTimes {
    if row.isSeries {
      guard let days = possibleStartDays(of: row.record), row.mayStart(on: days) else {
        return OccurrenceTimes()
      }
    }
    return lazyOccurrences(of: row.record, clock: current, expansion: row.expansion)
  }

  /// The wall-clock dates, as day numbers, an instance of the record must start on to be in
  /// the window: from the record's length before the window's start to its end, two days
  /// wider each side than any zone's offset moves a date. Nil when no date can be (a window
  /// whose end comes before its start by more than the record lasts).
  func possibleStartDays(of record: ItemRecord) -> ClosedRange<Int>? {
    let length = max(
      (record.endKey ?? 0) - (record.startKey ?? 0),
      (record.endReading ?? 0) - (record.startReading ?? 0), 0)
    let earliest = min(start, startAtLeast ?? start) - length
    let first = earliest.floorDivided(by: 86_400) - 2
    let last = end.floorDivided(by: 86_400) + 2
    return first <= last ? first...last : nil
  }

  /// The record's occurrences in the window, in start order, found one at a time as they are
  /// read: a dense series (one a minute, say) over a long window never sits in memory whole.
  func lazyOccurrences(
    of record: ItemRecord, clock current: WallClock, expansion: RowExpansion? = nil
  ) -> OccurrenceTimes {
    guard let startReading = record.startReading, let endReading = record.endReading else {
      return OccurrenceTimes()
    }
    let clock: WallClock
    if record.isFloating {
      clock = current
    } else if let expansion {
      clock = expansion.clock ?? current
    } else {
      clock = WallClock(timeZone: record.timeZone)
    }
    let isFloating = record.isFloating
    let times = InstanceTimes(
      clock: clock, isFloating: isFloating, readingDuration: endReading - startReading,
      duration: (record.endKey ?? 0) - (record.startKey ?? 0))
    guard record.isSeries else {
      let single = times(reading: startReading, instant: record.startKey)
      return accepts(start: single.start, end: single.end)
        ? OccurrenceTimes(single) : OccurrenceTimes()
    }
    guard let set = (expansion ?? RowExpansion(series: record)).occurrences else {
      return OccurrenceTimes()
    }
    let lowest = startAtLeast ?? (start - times.duration)
    let window: Occurrences
    if isFloating {
      // Search on the wall clock with a day to spare each side; the exact check follows.
      window = set.window(
        from: clock.reading(Date(timeIntervalSince1970: TimeInterval(lowest))) - 86_400,
        to: clock.reading(Date(timeIntervalSince1970: TimeInterval(end))) + 86_400)
    } else {
      window = set.window(from: lowest, to: end)
    }
    return OccurrenceTimes(window.makeIterator(), times: times, query: self)
  }
}

/// An instance's times from its reading (and its instant, for a zoned item): a zoned item
/// lasts exactly as long in every instance; a floating or all-day one lasts as long on the
/// wall clock.
struct InstanceTimes {
  let clock: WallClock
  let isFloating: Bool
  /// End less start as readings, and as instants.
  let readingDuration: Int
  let duration: Int

  func callAsFunction(reading: Int, instant: Int?) -> EventQuery.Times {
    if isFloating {
      return EventQuery.Times(
        startReading: reading, start: clock.instant(reading),
        end: clock.instant(reading + readingDuration))
    }
    let start = instant ?? clock.instant(reading)
    return EventQuery.Times(startReading: reading, start: start, end: start + duration)
  }
}

/// What expanding a series needs whatever the window: the series' own clock and its
/// instances with the rules validated, the zones loaded and the RDATEs and EXDATEs read.
///
/// A class: every fetch takes a cached series' expansion, and a reference is one count to
/// take where a copy of the value would be one for each of its rules, dates and tables.
final class RowExpansion: Sendable {
  /// The clock of the series' zone; nil for a floating series, or a zone that cannot be
  /// loaded (the current clock is used then, as `WallClock(timeZone:)` does).
  let clock: WallClock?
  /// Nil when the series cannot be expanded (a rule that fails validation, an unknown zone):
  /// it then shows no occurrences.
  let occurrences: Occurrences?

  init(series record: ItemRecord) {
    clock = record.timeZone.flatMap { try? ZoneRules.named($0) }.map(WallClock.init(zone:))
    occurrences = try? record.recurrenceSet()?.occurrences()
  }
}

/// The occurrences of one record in a window, in start order: its one instance, or its
/// series' instances read lazily, those outside the window skipped.
struct OccurrenceTimes: Sequence, IteratorProtocol {
  private var single: EventQuery.Times?
  private var instances: Occurrences.Iterator?
  private var times: InstanceTimes?
  private var query: EventQuery?

  init() {}

  init(_ single: EventQuery.Times) { self.single = single }

  init(_ instances: Occurrences.Iterator, times: InstanceTimes, query: EventQuery) {
    self.instances = instances
    self.times = times
    self.query = query
  }

  mutating func next() -> EventQuery.Times? {
    if let single {
      self.single = nil
      return single
    }
    guard let times, let query else { return nil }
    while let occurrence = instances?.next() {
      let instance = times(
        reading: occurrence.local.localSeconds,
        instant: times.isFloating ? nil : occurrence.secondsSinceEpoch)
      if query.accepts(start: instance.start, end: instance.end) { return instance }
    }
    return nil
  }
}
