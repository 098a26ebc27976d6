import Foundation
import OpenEventKit

// Changing a suggestion's ballot without losing anyone else's vote: any app that lets several
// people edit one shared item needs this loop. The pattern is the whole type: with a `Ballot`
// of its own (the notes' lines), an app copies it as it is.

// MARK: pattern conflict-safe
// Two votes at once each read the notes without the other's; `save` (last writer wins) drops
// one, silently. Apple's EventKit has no checked save: its form (the marked lines) kept 18 to 64
// of 80 such votes here; there, give each voter events of its own (PokerVote.md).
enum VoteWriter {
  enum Outcome {  // unchanged: nothing to save (a second vote)
    case saved(Ballot)
    case unchanged(Ballot)
  }
  static let attempts = 200  // each wait up to 5 ms times the attempt, at most 0.1 s: ~10 s
  /// Applies `change` (false: nothing to change) and saves the ballot; nil: gone or no access.
  static func update(
    eventIdentifier: String, in store: EKEventStore, _ change: (inout Ballot) -> Bool
  ) throws -> Outcome? {
    guard let event = store.event(withIdentifier: eventIdentifier) else { return nil }
    let calendar = event.calendar  // moved to another calendar meanwhile: no longer a time
    // The whole item: a series (from its first occurrence), or an occurrence moved on its own.
    let span: EKSpan = event.isDetached ? .thisEvent : .futureEvents
    for attempt in 1...attempts {
      let read = event.notes
      var ballot = Ballot(notes: read)
      guard change(&ballot) else { return .unchanged(ballot) }
      guard let stored = store.event(withIdentifier: eventIdentifier) else { return nil }
      if stored.notes == read {  // the notes: `lastModifiedDate` has whole seconds
        event.notes = ballot.notes
        // OpenEventKit only, the do/catch too: saves unless someone saved since `read`.
        // Apple's EventKit: `try store.save(event, span: span, commit: true)`.
        do {
          try store.saveIfUnchanged(event, span: span)
          return .saved(ballot)
        } catch is SaveConflictError {}
      }
      // Lost: drop the edit, read theirs (false: gone), back off (async: Task.sleep, @Sendable).
      event.rollback()
      guard event.refresh(), event.calendar == calendar else { return nil }
      Thread.sleep(forTimeInterval: .random(in: 0...min(0.1, 0.005 * Double(attempt))))
    }  // every attempt lost: nothing was written
    throw SaveConflictError(  // OpenEventKit only: with Apple's EventKit, an error of the app's own
      calendarItemIdentifier: event.calendarItemIdentifier, title: event.title, wasRemoved: false)
  }
}
