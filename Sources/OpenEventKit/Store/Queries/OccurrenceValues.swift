import Foundation
import ICalendar

// The values of one occurrence of a series: the series' values moved to the occurrence's
// times. What a fetch shows for each occurrence, and what a span edit leaves its object
// standing for.

extension ItemRecord {
  /// A series' values for the instance that starts at `originalStart`; nil when the series
  /// has no such instance any more.
  func occurrenceValues(originalStart: Date) -> ItemValues? {
    let instant = WallClock.seconds(originalStart)
    let query = EventQuery(
      start: instant, end: instant + 1, startAtLeast: instant, calendarIds: nil)
    var found = query.lazyOccurrences(of: self, clock: .current)
    guard let times = found.next() else { return nil }
    return values().moved(to: times, isAllDay: isAllDay)
  }

  /// The series' values at its first occurrence (``firstOccurrenceKey``): DTSTART unless an
  /// exception date removed it. A detached first instance counts, so that the object standing
  /// for it is the series' own (what `event(withIdentifier:)` returns), not the detached row.
  func firstOccurrenceValues() -> ItemValues? {
    guard var set = recurrenceSet() else { return nil }
    set.exceptionDates = DateTimeLines.values(exceptionDates)
    guard let occurrences = try? set.occurrences(),
      let first = occurrences.first(where: { _ in true })
    else { return nil }
    let reading = first.local.localSeconds
    let clock = isFloating ? WallClock.current : WallClock(timeZone: timeZone)
    let start = isFloating ? clock.instant(reading) : first.secondsSinceEpoch
    let length =
      isFloating
      ? clock.instant(reading + (endReading ?? 0) - (startReading ?? 0)) - start
      : (endKey ?? 0) - (startKey ?? 0)
    return values().moved(
      to: EventQuery.Times(startReading: reading, start: start, end: start + length),
      isAllDay: isAllDay)
  }
}

extension ItemValues {
  /// A series' values moved to one occurrence's times. An all-day occurrence ends, as
  /// EventKit shows it, one second before the midnight that ends it.
  func moved(to times: EventQuery.Times, isAllDay: Bool) -> ItemValues {
    var values = self
    values.startDate = Date(timeIntervalSince1970: TimeInterval(times.start))
    values.endDate = Date(timeIntervalSince1970: TimeInterval(times.end - (isAllDay ? 1 : 0)))
    return values
  }
}
