import Foundation
import OpenEventKit

// MARK: pattern remove-span

/// What EventKit's spans do to the dress fittings, one repeating event. The commands keep the
/// tables before and after, and record what became of the item.
enum FittingSpans {
  /// Moves a fitting, keeping its length. `.thisEvent` detaches the occurrence from the
  /// series: an event of its own, with an identifier of its own, which the series skips.
  /// `.futureEvents` splits the series in two: it ends before this occurrence, and a new
  /// series, with a new identifier, starts at the new time and repeats from there.
  static func move(_ fitting: EKEvent, to start: Date, span: EKSpan, in store: EKEventStore)
    throws
  {
    let length = fitting.endDate.timeIntervalSince(fitting.startDate)
    fitting.startDate = start
    fitting.endDate = start.addingTimeInterval(length)
    try store.save(fitting, span: span)
  }

  /// Cancels a fitting. `.thisEvent` adds an exception date to the series (EXDATE, RFC 5545);
  /// `.futureEvents` ends the series before this occurrence (UNTIL), or removes it all from
  /// its first one.
  static func cancel(_ fitting: EKEvent, span: EKSpan, in store: EKEventStore) throws {
    try store.remove(fitting, span: span)
  }
}
