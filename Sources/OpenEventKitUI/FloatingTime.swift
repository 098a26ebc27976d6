import Foundation
import OpenEventKit

/// Floating times (all-day events, and events without a zone) are wall-clock readings, not
/// instants: EventKit hands them out as instants on the process's clock (`TimeZone.current`).
/// A view on another clock shows the same readings, so they are moved onto it first.
enum FloatingTime {
  /// Whether an event's dates are floating.
  static func isFloating(_ event: EKEvent) -> Bool { event.isAllDay || event.timeZone == nil }

  /// The instant with the same wall-clock reading on `viewer` as `date` has on the process's
  /// clock.
  static func onViewerClock(_ date: Date, viewer: TimeZone) -> Date {
    let process = TimeZone.current
    guard process.identifier != viewer.identifier else { return date }
    let reading = date.addingTimeInterval(TimeInterval(process.secondsFromGMT(for: date)))
    // The viewer's offset at that reading: try the offset at the reading taken as UTC, then
    // settle on the offset at the instant it gives.
    var instant = reading.addingTimeInterval(-TimeInterval(viewer.secondsFromGMT(for: reading)))
    instant = reading.addingTimeInterval(-TimeInterval(viewer.secondsFromGMT(for: instant)))
    return instant
  }

  /// An event's start and end as instants on `viewer`'s clock.
  static func dates(of event: EKEvent, viewer: TimeZone) -> (start: Date, end: Date)? {
    guard let start = event.startDate, let end = event.endDate else { return nil }
    guard isFloating(event) else { return (start, end) }
    return (onViewerClock(start, viewer: viewer), onViewerClock(end, viewer: viewer))
  }
}
