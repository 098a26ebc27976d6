import ICalendar

/// The part of a change of one occurrence that falls on its series' row: the instance's date
/// added to or taken from the row's date lists, or the series cut before it, and the row
/// touched (a new modification date, the next SEQUENCE, RFC 5545 §3.8.7.4).
///
/// A `.thisEvent` save or removal, and a `.futureEvents` one from a later occurrence (a split,
/// or the series cut short), stages the series' row as the store sees it then, with the
/// touch applied, for its own fetches; the write applies the touch again to the row as the
/// write transaction finds it. Another app's change to the series committed in between (a
/// vote written to its notes, a new title) is then kept, where writing the staged row would
/// put the old values back and lose it.
///
/// ```swift
/// var touch = SeriesTouch()
/// touch.detached = [original]  // the instance now has a row of its own
/// let staged = touch.applied(to: series)
/// ```
struct SeriesTouch: Sendable {
  /// Instances that now have a detached row of their own.
  var detached: [DateTimeValue] = []
  /// Instances whose detached row goes.
  var undetached: [DateTimeValue] = []
  /// Instances removed (EXDATE).
  var excluded: [DateTimeValue] = []
  /// The instance the series now ends before: "this and future" from it made a new series of
  /// the rest, or removed it.
  var cutBefore: Int?

  /// `row` with the touch applied.
  func applied(to row: ItemRecord) -> ItemRecord {
    var row = row.touched()
    // Nothing left before the cut on the row as it is now (another app changed the rules):
    // the row stays whole rather than go.
    if let key = cutBefore, let cut = row.truncated(before: key) { row = cut }
    for value in detached {
      row.detachedDates = ItemRecord.adding(value, to: row.detachedDates)
    }
    for value in undetached {
      row.detachedDates = ItemRecord.removing(value, from: row.detachedDates)
    }
    if !excluded.isEmpty {
      for value in excluded {
        row.exceptionDates = ItemRecord.adding(value, to: row.exceptionDates)
      }
      row.seriesEndKey = row.lastPossibleEnd()
    }
    return row
  }
}
