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
  /// it: once per series, since that one removal takes the later occurrences. Each removal is
  /// committed at once; the other events fetched before stay usable in OpenEventKit (Apple
  /// advises fetching again once the database changed).
  func remove(_ events: [EKEvent], withFutureOccurrences future: Bool) throws {
    let isOccurrence = { (event: EKEvent) in event.hasRecurrenceRules && !event.isDetached }
    for event in events where !isOccurrence(event) {
      try store.remove(event, span: .thisEvent, commit: true)
    }
    var cut: Set<String> = []
    // Earliest first, whatever order they came in: `.futureEvents` from a series' first
    // target takes its later ones.
    for event in events.filter(isOccurrence).sorted(by: { $0.occurrenceDate < $1.occurrenceDate }) {
      if future {
        guard cut.insert(event.eventIdentifier).inserted else { continue }
        try store.remove(event, span: .futureEvents, commit: true)
      } else {
        try store.remove(event, span: .thisEvent, commit: true)
      }
    }
  }

  // MARK: pattern remove-series
  /// Removes the events of these identifiers, each distinct one once, with `.futureEvents`:
  /// from a series' first occurrence that removes the whole series, detached occurrences
  /// included. An identifier that finds nothing is expected, never an error. Each removal
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
      try store.remove(event, span: .futureEvents, commit: true)
      return (identifier, .removed)
    }
  }

  // MARK: -
}
