import Foundation
import OpenEventKit

/// Takes payments' events off the calendar, span-correctly: some of a loan's payments
/// (`delete-payment`, pattern `remove-span`), or every event of a loan (`delete`, pattern
/// `remove-series`).
struct PaymentRemoval {
  let store: EKEventStore

  // MARK: pattern remove-span
  /// Takes payments' events off the calendar; the loan's others stay. Each removal is staged
  /// with `commit: false`, and one `commit()` writes them: other apps see all of them or none,
  /// with one `EKEventStoreChanged`. Should one throw, `reset()` drops those staged, which the
  /// next commit would otherwise write (and anything else staged on the store: stage nothing
  /// else meanwhile). `events` is every event to remove: a detached one is
  /// removed alone even with `laterOnesToo`, so the caller passes each later payment's too.
  /// Fetch them just before: an occurrence another app split off meanwhile is no longer in the
  /// series it was fetched from, and removing it there removes nothing (no error), nor does
  /// `laterOnesToo` from an earlier one reach past the split: the caller looks again
  /// afterwards (`recordRemovals`, PaymentCommands.swift). Once another app moved the whole
  /// series, the removal is refused ("fetch it again") and `reset()` drops what was staged;
  /// not after a move by whole periods, which leaves the time one of the series': whatever is
  /// there now at that time goes.
  func remove(_ events: [EKEvent], laterOnesToo: Bool) throws {
    do {
      for event in events {
        if laterOnesToo && event.hasRecurrenceRules && !event.isDetached {
          // This occurrence and every later one: the series' rule now ends before it, and
          // its detached occurrences from there go too; from the first occurrence, the whole
          // series goes. So one occurrence per series, the earliest (`oncePerSeries(_:)`
          // below): what removing a later one again does, Apple does not document.
          try store.remove(event, span: .futureEvents, commit: false)
        } else {
          // This occurrence alone: its series gets an exception date (RFC 5545's EXDATE) and
          // skips it. A single event, or a detached occurrence (one changed on its own), is
          // removed alone.
          try store.remove(event, span: .thisEvent, commit: false)
        }
      }
      try store.commit()
    } catch {
      store.reset()
      throw error
    }
  }

  // MARK: pattern remove-series
  /// Removes the event `identifier` finds, all of it, and commits. For a repeating event's
  /// identifier, `event(withIdentifier:)` gives the series, standing for its first occurrence, and
  /// `.futureEvents` from there removes it whole, its detached occurrences included. A detached
  /// occurrence (in OpenEventKit it has an identifier of its own) is removed alone, `.thisEvent`:
  /// what `.futureEvents` does from one, Apple does not document. For a single event either span
  /// does. False when nothing has the identifier (removed already, by another app or with its
  /// series; or a detached occurrence another app's "future events" change made the start of a
  /// new series, with a new identifier): expected, not an error; true when it was there as it
  /// was looked up (two apps removing it at once may both say so). Committed at once, so that
  /// the next lookup sees it. A part another app split off is a series of its own, with an
  /// identifier of its own: `delete` finds it by title and day and removes it too.
  func removeEvent(withIdentifier identifier: String) throws -> Bool {
    guard let event = store.event(withIdentifier: identifier) else { return false }
    try store.remove(event, span: event.isDetached ? .thisEvent : .futureEvents, commit: true)
    return true
  }

  // MARK: -

  /// The events to give `remove(_:laterOnesToo: true)` for some payments and the later ones,
  /// from theirs: each event of its own first (a series' removal may take a detached
  /// occurrence, and removing that again Apple does not document; OpenEventKit ignores it),
  /// then each series once, from its earliest occurrence among them.
  static func oncePerSeries(_ events: [EKEvent]) -> [EKEvent] {
    let isOccurrence = { (event: EKEvent) in event.hasRecurrenceRules && !event.isDetached }
    let occurrences = events.filter(isOccurrence).sorted { $0.occurrenceDate < $1.occurrenceDate }
    var seen: Set<String> = []
    return events.filter { !isOccurrence($0) }
      + occurrences.filter { seen.insert($0.eventIdentifier).inserted }
  }

  /// What removing one identifier's event came to.
  enum Removal {
    case removed
    /// Found before the removals began, gone by its turn: a detached occurrence, removed with
    /// its series.
    case wentWithItsSeries
    /// Found by nothing: removed already, by another app or by the person.
    case alreadyGone
  }

  /// Removes the events of these identifiers, each distinct one once
  /// (`removeEvent(withIdentifier:)`), and says what each came to. A failure half way leaves
  /// the rest for the next try, which finds the removed ones gone.
  func removeEvents(
    withIdentifiers identifiers: [String]
  ) throws -> [(identifier: String, result: Removal)] {
    var seen: Set<String> = []
    let distinct = identifiers.filter { seen.insert($0).inserted }
    let foundBefore = distinct.map { store.event(withIdentifier: $0) != nil }
    return try zip(distinct, foundBefore).map { identifier, wasFound in
      guard wasFound else { return (identifier, .alreadyGone) }
      let removed = try removeEvent(withIdentifier: identifier)
      return (identifier, removed ? .removed : .wentWithItsSeries)
    }
  }
}
