import Foundation
import ICalendar

/// A repeating event's series as a whole: the instances removed from it, its detached
/// occurrences and the last occurrence it has.
///
/// An OpenEventKit addition: Apple's EventKit keeps these inside the series (its exception
/// dates are not API), and an app finds them by fetching occurrences. `ekctl show` and
/// OpenEventKitUI's event view tell a series with it, and ``RecurrenceWords`` names the last
/// occurrence from it: a series ended with `remove(_:span: .futureEvents)` keeps an UNTIL
/// just before the removed occurrence, which is later than the last one left, and an
/// exception date can remove the last instance a rule produces. See <doc:RecurringEvents>.
///
/// ```swift
/// if let series = store.seriesOutline(of: event) {
///   for date in series.removedOccurrenceDates { print("removed", date) }
///   for moved in series.detachedOccurrences { print(moved.occurrenceDate!, "→", moved.startDate!) }
///   print("last", series.lastOccurrenceDate.map { "\($0)" } ?? "never: it repeats forever")
/// }
/// ```
public struct SeriesOutline: Sendable {
  /// The starts of the instances removed from the series (its exception dates, EXDATE),
  /// earliest first.
  public let removedOccurrenceDates: [Date]
  /// The series' detached occurrences, by the start of the instance each replaces
  /// (`occurrenceDate`), earliest first.
  public let detachedOccurrences: [EKEvent]
  /// The start of the last occurrence the series has, detached ones included; nil for a
  /// series without end (or one too long to walk to its end, over 100,000 instances).
  public let lastOccurrenceDate: Date?
}

extension EKEventStore {
  /// The series an event belongs to, as saved: its removed instances, its detached
  /// occurrences and its last occurrence. Nil for an event that is not part of a saved series
  /// (a new or single event), or without read access.
  ///
  /// Any occurrence of the series, or one of its detached occurrences, gives the same outline.
  ///
  /// - Parameter event: An occurrence of a repeating event, or one of its detached occurrences.
  /// - Returns: The outline, or nil.
  public func seriesOutline(of event: EKEvent) -> SeriesOutline? {
    guard canRead(.event), let row = event.record else { return nil }
    guard let series = latestRecord(row.seriesId ?? row.id), series.isSeries else { return nil }
    let removed = DateTimeLines.values(series.exceptionDates).compactMap(series.instant(of:))
    let detached = detachedRecords(of: series.id).compactMap { makeFirstItem($0) as? EKEvent }
      .sorted { $0.occurrenceDate < $1.occurrenceDate }
    var last: Date?
    if series.lastPossibleEnd() != nil {
      let starts = [series.lastInstanceStart()] + detached.map { $0.startDate }
      last = starts.compactMap { $0 }.max()
    }
    return SeriesOutline(
      removedOccurrenceDates: removed.sorted(), detachedOccurrences: detached,
      lastOccurrenceDate: last)
  }
}
