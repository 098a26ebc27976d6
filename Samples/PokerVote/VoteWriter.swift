import Foundation
import OpenEventKit

/// Changing a suggestion's ballot without losing anyone else's vote. Any app that lets several
/// people edit one shared item needs this loop.
enum VoteWriter {
  enum Outcome {  // unchanged: nothing to save (a second vote)
    case saved(Ballot)
    case unchanged(Ballot)
  }
  static let attempts = 50  // each loses only to a save between its read and its write

  // MARK: pattern conflict-safe
  // Two players voting at once both read the notes without the other's vote, and `save` is
  // last-writer-wins: the second save would drop the first's vote, silently. EventKit has no
  // save that checks, so just before saving, fetch the event again (a new object: what is
  // stored now) and compare its notes with those the ballot was made from; `lastModifiedDate`
  // would not do, having whole seconds. Changed: read again, change again. With Apple's
  // EventKit this narrows the window, it does not close it: a save can still come between
  // the fetch and the save. Where no vote may ever be lost there, give each vote an event.
  /// Applies `change` to the ballot (false: nothing to change) and saves it if nobody changed
  /// the event meanwhile, else again on the event as it is then. Nil when it was withdrawn.
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
        do {  // With Apple's EventKit: try store.save(event, span: .thisEvent, commit: true)
          try store.saveIfUnchanged(event, span: .thisEvent)  // OpenEventKit only: see below
          return .saved(ballot)
        } catch is SaveConflictError {}  // someone saved in that instant: as below
      }
      // Someone saved first: drop any edit and read theirs (false: withdrawn). A pause that
      // grows, jittered so that losers do not come back together. It blocks, as a REPL command
      // may; an app on the main actor would `try await Task.sleep(for:)` instead.
      event.rollback()
      guard event.refresh() else { return nil }
      Thread.sleep(forTimeInterval: Double.random(in: 0...0.002) * Double(attempt))
    }
    throw SaveConflictError(  // every attempt lost: say so, nothing was written
      calendarItemIdentifier: event.calendarItemIdentifier, title: event.title, wasRemoved: false)
  }
  // OpenEventKit only: saveIfUnchanged(_:span:) saves only if the stored event is still as
  // this object last read it (fetched, refreshed or saved), checked inside the store's write
  // transaction, else throws SaveConflictError and writes nothing: it closes the window.

  // MARK: -
}
