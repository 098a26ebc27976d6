import Foundation
import OpenEventKit

/// Changing a suggestion's ballot without losing anyone else's vote.
///
/// Every player's process reads the event, changes its notes and saves. Two players voting on
/// the same time at the same moment both read the notes without the other's vote; with a plain
/// `save`, the second would write over the first's vote. So the ballot is written with
/// OpenEventKit's `saveIfUnchanged`, which writes only when the event is still as it was read
/// and otherwise throws `SaveConflictError`: then the event is read again, the change made
/// again on what is there now (the other vote included), and saved again. Any app that lets
/// several people edit one shared item needs this loop.
enum VoteWriter {
  // MARK: pattern conflict-safe
  /// How a change to a ballot ended: saved as written, or nothing to save (a second vote).
  enum Outcome {
    case saved(Ballot)
    case unchanged(Ballot)
  }

  /// Enough for a hundred players voting at once: each attempt loses only to a save made
  /// between its read and its write.
  static let attempts = 50

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
        // OpenEventKit addition: Apple's EventKit has no "save only if unchanged"; with a
        // plain save, two players voting at once would lose a vote. With Apple's, keep what
        // several people change out of one shared event (an event per vote, say).
        try store.saveIfUnchanged(event, span: .thisEvent)
        return .saved(ballot)
      } catch is SaveConflictError where attempt < attempts {  // the last conflict is thrown
        // Someone saved first: drop this change, read theirs, and try again after a pause
        // that grows, with jitter so that the losers do not all come back together.
        // rollback() first: refresh() updates only the properties not modified locally.
        event.rollback()
        guard event.refresh() else { return nil }  // withdrawn meanwhile
        Thread.sleep(forTimeInterval: Double.random(in: 0...0.002) * Double(attempt))
        attempt += 1
      }
    }
  }

  // MARK: -
}
