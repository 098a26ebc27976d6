import Foundation
import ICalendar

extension ItemRecord {
  /// The instant of one of the series' dates (an EXDATE, say): a floating or all-day date is
  /// read on the current clock, as the series' occurrences are.
  func instant(of value: DateTimeValue) -> Date? {
    let key: Int?
    switch value {
    case .utc, .zoned: key = instanceKey(value)
    case .date, .floating: key = WallClock(timeZone: timeZone).instant(value.local.localSeconds)
    }
    return key.map { Date(timeIntervalSince1970: TimeInterval($0)) }
  }

  /// The start of the series' last instance that is still its own (neither removed nor
  /// detached); nil when it has none or never ends. Searched back from the latest moment an
  /// instance can end (``lastPossibleEnd()``), in windows four times wider each time, with
  /// the store's expansion, so that a long series is not walked from its start.
  func lastInstanceStart() -> Date? {
    guard let bound = lastPossibleEnd(), let first = startKey else { return nil }
    var span = 8 * 86_400
    while true {
      let from = bound - span
      let query = EventQuery(start: from, end: bound + 1, startAtLeast: from, calendarIds: nil)
      var last: Int?
      for times in query.lazyOccurrences(of: self, clock: .current) { last = times.start }
      if let last { return Date(timeIntervalSince1970: TimeInterval(last)) }
      // The window reached back past the start (widened, for a floating one) without one.
      if from < first - WallClock.widestOffset { return nil }
      span *= 4
    }
  }
}
