import Foundation
import OpenEventKit

/// Takes payments' events off the calendar, span-correctly.
struct PaymentRemoval {
  let store: EKEventStore

  /// What removing one identifier's event came to.
  enum Removal {
    case removed
    /// Found before the removals began, gone by its turn: a detached occurrence, removed with
    /// its series.
    case wentWithItsSeries
    /// Found by nothing: removed already, by another app or by the person.
    case alreadyGone
  }

  // MARK: pattern remove-span
  /// Removes some payments' events and keeps the rest of the loan's. An event of its own (a
  /// single payment, a detached occurrence) goes alone. An occurrence of a series goes with
  /// `.thisEvent`, which leaves the series an exception date, or, when `future` says the later
  /// ones go too, with `.futureEvents` from the first of them, which ends the series before
  /// it: once per series, since that one removal takes the later occurrences. Nothing is
  /// committed until all are removed: the events fetched before stay the ones to remove, and
  /// other apps see the loan change whole.
  func remove(_ events: [EKEvent], withFutureOccurrences future: Bool) throws {
    let isOccurrence = { (event: EKEvent) in event.hasRecurrenceRules && !event.isDetached }
    do {
      for event in events where !isOccurrence(event) {
        try store.remove(event, span: .thisEvent, commit: false)
      }
      var cut: Set<String> = []
      // Earliest first, whatever order they came in: `.futureEvents` from a series' first
      // target takes its later ones.
      let occurrences = events.filter(isOccurrence).sorted { $0.occurrenceDate < $1.occurrenceDate }
      for event in occurrences {
        if future {
          guard cut.insert(event.eventIdentifier).inserted else { continue }
          try store.remove(event, span: .futureEvents, commit: false)
        } else {
          try store.remove(event, span: .thisEvent, commit: false)
        }
      }
      try store.commit()
    } catch {
      store.reset()  // nothing half-removed is left staged for the next save to commit
      throw error
    }
  }

  // MARK: pattern remove-series
  /// Removes the events of these identifiers, each distinct one once, a series with
  /// `.futureEvents`: from its first occurrence that removes the whole series, detached
  /// occurrences included. An identifier that finds nothing is expected, never an error. Each removal
  /// is committed before the next identifier is looked up, so that the lookup sees it; a
  /// failure half way leaves the rest for the next try, which finds the removed ones gone.
  func removeEvents(
    withIdentifiers identifiers: [String]
  ) throws -> [(identifier: String, result: Removal)] {
    var seen: Set<String> = []
    let distinct = identifiers.filter { seen.insert($0).inserted }
    let foundBefore = distinct.map { store.event(withIdentifier: $0) != nil }
    return try zip(distinct, foundBefore).map { identifier, wasFound in
      guard wasFound else { return (identifier, .alreadyGone) }
      guard let event = store.event(withIdentifier: identifier) else {
        return (identifier, .wentWithItsSeries)  // a detached occurrence, gone with its series
      }
      // A detached occurrence alone: what .futureEvents does from one is undocumented.
      try store.remove(event, span: event.isDetached ? .thisEvent : .futureEvents, commit: true)
      return (identifier, .removed)
    }
  }

  // MARK: -
}
