import Foundation
import OpenEventKit

// Changing a suggestion's ballot without losing anyone else's vote: any app that lets several
// people edit one shared item needs this loop. The pattern is the whole type: with a `Ballot`
// of its own (the notes' lines), an app copies it as it is.

// MARK: pattern conflict-safe
// Two players voting at once both read the notes without the other's vote, and `save` is
// last-writer-wins: the second save would drop the first's vote, silently. EventKit has no
// save that checks, so fetch the event again just before saving, and compare its notes with
// those the ballot was made from (`lastModifiedDate` has whole seconds); changed: read again,
// change again. A save in between is still overwritten: with plain `save`, 8 threads voting 10
// times each at once kept 18 to 64 of 80 votes, fewer in every run (PokerVoteConflictTests).
// On Apple's EventKit, where every vote must count, give each vote an event of its own.
enum VoteWriter {
  enum Outcome {  // unchanged: nothing to save (a second vote)
    case saved(Ballot)
    case unchanged(Ballot)
  }
  static let attempts = 50  // each loses only to a save between its read and its write
  /// Applies `change` to the ballot (false: nothing to change) and saves it; nil: withdrawn.
  static func update(
    eventIdentifier: String, in store: EKEventStore, _ change: (inout Ballot) -> Bool
  ) throws -> Outcome? {
    guard let event = store.event(withIdentifier: eventIdentifier) else { return nil }
    for attempt in 1...attempts {
      let read = event.notes
      var ballot = Ballot(notes: read)
      guard change(&ballot) else { return .unchanged(ballot) }
      guard let stored = store.event(withIdentifier: eventIdentifier) else { return nil }
      if stored.notes == read {
        event.notes = ballot.notes
        do {  // Apple's EventKit: `try store.save(event, span: .thisEvent, commit: true)`, no catch
          try store.saveIfUnchanged(event, span: .thisEvent)  // OpenEventKit only: checks, and
          return .saved(ballot)  // writes only if nobody saved since `read`; else throws
        } catch is SaveConflictError {}  // OpenEventKit only: someone saved in between
      }
      // Someone saved first: drop any edit and read theirs (false: withdrawn). Pause, growing
      // and jittered so that losers do not come back together (on the main actor: Task.sleep).
      event.rollback()
      guard event.refresh() else { return nil }
      Thread.sleep(forTimeInterval: Double.random(in: 0...0.002) * Double(attempt))
    }  // every attempt lost: nothing was written
    throw SaveConflictError(  // OpenEventKit only: with Apple's EventKit, an error of the app's own
      calendarItemIdentifier: event.calendarItemIdentifier, title: event.title, wasRemoved: false)
  }
}
