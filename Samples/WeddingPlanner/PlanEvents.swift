import Foundation
import OpenEventKit

/// The plan's events in the store. Each carries a URL back to its plan item
/// (`wedding-planner://item/ID`), which a detached occurrence or a split series keeps, so the
/// app finds every occurrence of an item by it, whatever its identifier has become.
struct PlanEvents {
  let store: EKEventStore
  /// The calendars to look in; nil for every calendar.
  let calendars: [EKCalendar]?
  let database: WeddingDatabase

  // MARK: pattern fetch

  /// From a year back to three years ahead of `now`: a plan's whole life, within the four
  /// years Apple's `predicateForEvents` matches at most (a longer span is cut there).
  static func window(around now: Date) -> (start: Date, end: Date) {
    (now.addingTimeInterval(-365 * 86_400), now.addingTimeInterval(3 * 365 * 86_400))
  }

  /// Every occurrence of the plan's events in the window, by plan item, in start order. One
  /// predicate: a repeating event comes back as its occurrences, each an `EKEvent`, in no
  /// promised order.
  func occurrences(around now: Date) -> [Int64: [EKEvent]] {
    let window = Self.window(around: now)
    let predicate = store.predicateForEvents(
      withStart: window.start, end: window.end, calendars: calendars)
    var byItem: [Int64: [EKEvent]] = [:]
    for event in store.events(matching: predicate) {
      guard let id = PlanItem.id(of: event.url) else { continue }
      byItem[id, default: []].append(event)
    }
    // A copy of the plan (an export imported into another calendar) carries the items' URLs
    // too, and is not the app's: an item's events are those in the calendar of its recorded
    // event or, that event gone, in the Wedding calendar. Read only for an item found
    // elsewhere (this runs on each notice).
    let weddingCalendar = (try? database.app.setting("calendar")) ?? nil  // its identifier
    var items: [PlanItem]?
    for (id, events) in byItem
    where events.contains(where: { $0.calendar?.calendarIdentifier != weddingCalendar }) {
      items = items ?? (try? database.items()) ?? []
      let recorded = items?.first { $0.id == id }?.eventIdentifier
      let own = recorded.flatMap { store.event(withIdentifier: $0) }?.calendar?.calendarIdentifier
      byItem[id] = events.filter { $0.calendar?.calendarIdentifier == own ?? weddingCalendar }
    }
    return byItem.mapValues { $0.sorted { $0.startDate < $1.startDate } }
  }

  // MARK: pattern identifiers

  /// The item's event (a repeating one's first occurrence): by its recorded identifier, else
  /// by its URL. An identifier does not last: Apple says it may change with the calendar or
  /// a sync; in OpenEventKit detaching an occurrence or splitting a series gives a new one,
  /// and an import a new one for each event. The URL is carried over.
  func event(of item: PlanItem, now: Date) -> EKEvent? {
    if let id = item.eventIdentifier, let event = store.event(withIdentifier: id) {
      return event
    }
    // By URL, the occurrences in a window; a series' occurrences share its identifier, which
    // finds the series itself (its first occurrence).
    guard let found = Self.representative(of: occurrences(around: now)[item.id] ?? []) else {
      return nil
    }
    return found.isDetached ? found : store.event(withIdentifier: found.eventIdentifier) ?? found
  }

  /// The occurrence that stands for an item: one of its series, whose identifier is the
  /// series', rather than a detached occurrence (editing that one alone could not reach it).
  static func representative(of occurrences: [EKEvent]) -> EKEvent? {
    occurrences.first { !$0.isDetached } ?? occurrences.first
  }

  // MARK: Recording

  /// Records each item's event identifier and start as found now (after a restore, whose
  /// events have new identifiers).
  func recordIdentifiers(now: Date) throws {
    let found = occurrences(around: now)
    for var item in try database.items() {
      guard let occurrences = found[item.id], let first = occurrences.first else { continue }
      item.eventIdentifier = Self.representative(of: occurrences)?.eventIdentifier
      item.start = first.startDate
      try database.save(item)
    }
  }
}
