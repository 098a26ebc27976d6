import Foundation
import OpenEventKit

// MARK: pattern remove-span

/// What EventKit's spans do to the dress fittings, one repeating event. The commands keep the
/// tables before and after, and record what became of the item.
enum FittingSpans {
  /// Moves a fitting, keeping its length. `.thisEvent` detaches the occurrence from the
  /// series: an event of its own, which the series skips. `.futureEvents` splits the series
  /// in two: it ends before this occurrence, and a new series starts at the new time and
  /// repeats from there. (In OpenEventKit the detached occurrence and the new series get
  /// identifiers of their own; Apple does not document it, so an app looks them up again.)
  static func move(_ fitting: EKEvent, to start: Date, span: EKSpan, in store: EKEventStore)
    throws
  {
    let length = fitting.endDate.timeIntervalSince(fitting.startDate)
    fitting.startDate = start
    fitting.endDate = start.addingTimeInterval(length)
    try store.save(fitting, span: span)
  }

  /// Cancels a fitting. `.thisEvent` removes this occurrence alone, and the series skips it;
  /// `.futureEvents` removes it and every later one, ending the series before it, or the
  /// whole series from its first occurrence. (Stored as RFC 5545's EXDATE and UNTIL.)
  static func cancel(_ fitting: EKEvent, span: EKSpan, in store: EKEventStore) throws {
    try store.remove(fitting, span: span)
  }
}
