import Foundation
import ICalendar
import Synchronization

/// A row held by reference, so that the occurrences of a series share one copy.
final class StoredRecord: @unchecked Sendable {
  let record: ItemRecord
  let identity: ItemIdentity
  // Read for every occurrence: kept apart so that reading them never copies the row.
  let kind: EKEntityType
  let isSeries: Bool
  let isAllDay: Bool
  let isDetached: Bool
  /// For a staged row: whether the item exists only because it was staged (never committed).
  let isStagedNew: Bool

  /// A series' expansion, made on first use and kept with the row; nil for any other row.
  var expansion: RowExpansion? {
    guard let series else { return nil }
    return series.expansion.withLock { cached in
      if let cached { return cached }
      let made = RowExpansion(series: record)
      cached = made
      return made
    }
  }

  /// The row's values on the `current` clock. A series keeps its values with the row while
  /// that clock's zone stays the current one: the series cache holds series rows across
  /// fetches, and each fetch moves these values to every occurrence.
  func values(current: WallClock) -> ItemValues {
    guard let series else { return record.values(current: current) }
    return series.values.withLock { cached in
      if let cached, cached.zone === current.zone { return cached.values }
      let made = record.values(current: current)
      cached = (current.zone, made)
      return made
    }
  }

  /// What a series row keeps once made; nil for any other row, which has nothing to keep.
  private let series: SeriesPreparation?

  private final class SeriesPreparation: Sendable {
    let expansion = Mutex<RowExpansion?>(nil)
    let values = Mutex<(zone: ZoneRules, values: ItemValues)?>(nil)
    let reach = Mutex<SeriesReach?>(nil)
  }

  /// Whether the row may have an instance starting on one of `days` (day numbers of wall-clock
  /// dates), known without preparing a series' expansion (``SeriesReach``); true for any row
  /// but a series.
  func mayStart(on days: ClosedRange<Int>) -> Bool {
    guard let series else { return true }
    let reach = series.reach.withLock { known in
      if let known { return known }
      // EXDATEs only remove days: a series with thousands reads none of them here.
      let made = SeriesReach(record.recurrenceSet(withExceptions: false))
      known = made
      return made
    }
    return reach.mayFall(on: days)
  }

  /// Takes the row over: a row just read is moved in, not copied (it has some twenty strings).
  init(_ record: consuming ItemRecord, isStagedNew: Bool = false) {
    self.isStagedNew = isStagedNew
    identity = record.identity
    kind = record.kind
    isSeries = record.isSeries
    isAllDay = record.isAllDay
    isDetached = record.seriesId != nil
    series = record.isSeries ? SeriesPreparation() : nil
    self.record = record
  }
}
