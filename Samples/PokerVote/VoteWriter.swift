import Foundation
import OpenEventKit

// Changing a suggestion's ballot without losing anyone else's vote: any app that lets several
// people edit one shared item needs this loop. The pattern is the whole type: with a `Ballot`
// of its own (the notes' lines), an app copies it as it is.

// MARK: pattern conflict-safe
// Two votes at once each read the notes without the other's: `save` (last writer wins) drops
// one. Apple's EventKit has no checked save: its form (marked lines) kept 18–64 of 80 in tests.
enum VoteWriter {
  enum Outcome {  // saved (a plain save elsewhere still wins); unchanged: a second vote
    case saved(Ballot)
    case unchanged(Ballot)
  }
  static let patience: TimeInterval = 20  // others saving all along: then the person is told
  /// Applies `change` (false: nothing to change), saves; nil: gone, not in `calendar`, no access.
  static func update(
    eventIdentifier: String, in calendar: EKCalendar, of store: EKEventStore,
    _ change: (inout Ballot) -> Bool
  ) throws -> Outcome? {
    guard let event = store.event(withIdentifier: eventIdentifier) else { return nil }
    let span: EKSpan = event.isDetached ? .thisEvent : .futureEvents  // the whole time
    let deadline = Date(timeIntervalSinceNow: patience)
    while Date() < deadline {
      guard event.calendar?.calendarIdentifier == calendar.calendarIdentifier else { return nil }
      let read = event.notes
      var ballot = Ballot(notes: read)
      guard change(&ballot) else { return .unchanged(ballot) }
      guard let stored = store.event(withIdentifier: eventIdentifier) else { return nil }
      if stored.notes == read {  // Apple's form's only check (not lastModifiedDate: whole seconds)
        event.notes = ballot.notes
        // OpenEventKit only, the do/catch too: saves unless someone saved since `read`.
        // Apple's: `try store.save(event, span: span, commit: true); return .saved(ballot)`.
        do {
          try store.saveIfUnchanged(event, span: span)
          return .saved(ballot)
        } catch is SaveConflictError {}
      }
      // Lost: drop the edit, read theirs (false: gone), back off (async: Task.sleep, @Sendable).
      event.rollback()
      guard event.refresh() else { return nil }
      Thread.sleep(forTimeInterval: .random(in: 0...0.02))  // as long for every voter
    }  // others saved first all along: nothing was written
    throw SaveConflictError(  // OpenEventKit only: with Apple's EventKit, an error of the app's own
      calendarItemIdentifier: event.calendarItemIdentifier, title: event.title, wasRemoved: false)
  }
}
