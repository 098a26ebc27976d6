import Foundation
import OpenEventKit

/// Changing a suggestion's ballot without losing anyone else's vote. Any app that lets several
/// people edit one shared item needs this loop.
enum VoteWriter {
  // MARK: pattern conflict-safe
  // Two players voting at once both read the notes without the other's vote. Apple's EventKit
  // has no save that checks: `save` is last-writer-wins, and the second overwrites the first's
  // vote, silently (there, keep what several people change out of one shared event: an event
  // per vote, say). saveIfUnchanged (OpenEventKit addition) writes only if the event is as it
  // was read, else throws SaveConflictError: read it again, change it again, save again.
  enum Outcome {  // unchanged: nothing to save (a second vote)
    case saved(Ballot)
    case unchanged(Ballot)
  }
  static let attempts = 50  // each loses only to a save between its read and its write

  /// Applies `change` to the ballot (false: nothing to change) and saves it if nobody changed
  /// the event meanwhile, else again on the event as it is then. Nil when it was withdrawn.
  static func update(
    eventIdentifier: String, in store: EKEventStore, _ change: (inout Ballot) -> Bool
  ) throws -> Outcome? {
    guard let event = store.event(withIdentifier: eventIdentifier) else { return nil }
    var attempt = 1
    while true {
      var ballot = Ballot(notes: event.notes)
      guard change(&ballot) else { return .unchanged(ballot) }
      event.notes = ballot.notes
      do {
        try store.saveIfUnchanged(event, span: .thisEvent)
        return .saved(ballot)
      } catch is SaveConflictError where attempt < attempts {
        // Someone saved first: drop this change (rollback(): refresh() keeps local edits), read
        // theirs, and try again after a growing pause, jittered so losers do not come back
        // together. It blocks, as a REPL command may (it runs on its own thread); an app on the
        // main actor would make this async and `try await Task.sleep(for:)` instead.
        event.rollback()
        guard event.refresh() else { return nil }  // withdrawn meanwhile
        Thread.sleep(forTimeInterval: Double.random(in: 0...0.002) * Double(attempt))
        attempt += 1
      } catch {
        event.rollback()  // the last conflict, or another failure: no unsaved edit left on it
        throw error
      }
    }
  }

  // MARK: -
}
