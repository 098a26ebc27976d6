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
    let singles = try ItemRecord.fetchCursor(
      db,
      sql: """
        SELECT \(ItemRecord.selection) FROM item INDEXED BY item_single_start
        WHERE kind = 0 AND recurrenceRules IS NULL AND startKey >= ? AND startKey < ?
          AND endKey > ?\(calendarFilter)
        """,
      arguments: [lowestStart - widest, end + widest, (startAtLeast ?? start) - widest]
        + calendarArguments)
    while let record = try singles.next() { rows.append(StoredRecord(record)) }
    if let cached = try cache?.seriesRows(db) {
      let latestStart = end + widest
      let earliestEnd = (startAtLeast ?? start) - widest
      let calendars = calendarIds.map(Set.init)
      for row in cached {
        let record = row.record
        guard let startKey = record.startKey, startKey < latestStart,
          record.seriesEndKey.map({ $0 > earliestEnd }) ?? true,
          calendars?.contains(record.calendarId) ?? true
        else { continue }
        rows.append(row)
      }
      return rows
    }
    let series = try ItemRecord.fetchCursor(
      db,
      sql: """
        SELECT \(ItemRecord.selection) FROM item INDEXED BY item_series_start
        WHERE kind = 0 AND recurrenceRules IS NOT NULL AND startKey < ?
          AND (seriesEndKey IS NULL OR seriesEndKey > ?)\(calendarFilter)
        """,
      arguments: [end + widest, (startAtLeast ?? start) - widest] + calendarArguments)
    while let record = try series.next() { rows.append(StoredRecord(record)) }
    return rows
  }

  /// The record's occurrences in the window, in start order, found one at a time as they are
  /// read: a dense series (one a minute, say) over a long window never sits in memory whole.
  func lazyOccurrences(of record: ItemRecord, clock current: WallClock) -> OccurrenceTimes {
    guard let startReading = record.startReading, let endReading = record.endReading else {
      return OccurrenceTimes()
    }
    let clock = record.isFloating ? current : WallClock(timeZone: record.timeZone)
    let readingDuration = endReading - startReading
    let isFloating = record.isFloating
    let duration = (record.endKey ?? 0) - (record.startKey ?? 0)
    // A zoned item lasts exactly as long in every instance; a floating or all-day one lasts as
    // long on the wall clock.
    let times = { @Sendable (reading: Int, instant: Int?) -> Times in
      if isFloating {
        return Times(
          startReading: reading, start: clock.instant(reading),
          end: clock.instant(reading + readingDuration))
      }
      let start = instant ?? clock.instant(reading)
      return Times(startReading: reading, start: start, end: start + duration)
    }
    guard record.isSeries else {
      let single = times(startReading, record.startKey)
      return accepts(start: single.start, end: single.end)
        ? OccurrenceTimes(single) : OccurrenceTimes()
    }
    guard let set = record.recurrenceSet() else { return OccurrenceTimes() }
    let lowest = startAtLeast ?? (start - duration)
    let window: Occurrences?
    if isFloating {
      // Search on the wall clock with a day to spare each side; the exact check follows.
      window = try? set.occurrences(
        from: clock.reading(Date(timeIntervalSince1970: TimeInterval(lowest))) - 86_400,
        to: clock.reading(Date(timeIntervalSince1970: TimeInterval(end))) + 86_400)
    } else {
      window = try? set.occurrences(from: lowest, to: end)
    }
    guard let window else { return OccurrenceTimes() }
    let query = self
    return OccurrenceTimes(window.makeIterator()) { occurrence in
      let instance = times(
        occurrence.local.localSeconds, isFloating ? nil : occurrence.secondsSinceEpoch)
      return query.accepts(start: instance.start, end: instance.end) ? instance : nil
    }
  }
}

/// The occurrences of one record in a window, in start order: its one instance, or its
/// series' instances read lazily, those outside the window skipped.
struct OccurrenceTimes: Sequence, IteratorProtocol {
  private var single: EventQuery.Times?
  private var instances: Occurrences.Iterator?
  private var accept: ((Occurrence) -> EventQuery.Times?)?

  init() {}

  init(_ single: EventQuery.Times) { self.single = single }

  init(
    _ instances: Occurrences.Iterator, accept: @escaping (Occurrence) -> EventQuery.Times?
  ) {
    self.instances = instances
    self.accept = accept
  }

  mutating func next() -> EventQuery.Times? {
    if let single {
      self.single = nil
      return single
    }
    guard let accept else { return nil }
    while let occurrence = instances?.next() {
      if let times = accept(occurrence) { return times }
    }
    return nil
  }
}
