import Foundation
import OpenEventKit

/// One suggested time, as read from its event.
struct Suggestion: Equatable, Sendable {
  let eventIdentifier: String
  let start: Date
  var ballot: Ballot  // var: a command applies its own change to what was shown
  /// For a night of a repeating time that another app moved on its own (a time of its own,
  /// its own identifier), when it was to be; nil otherwise.
  let movedFrom: Date?

  init(_ event: EKEvent) {
    eventIdentifier = event.eventIdentifier
    start = event.startDate
    ballot = Ballot(notes: event.notes)
    movedFrom = event.isDetached ? event.occurrenceDate : nil
  }

  var votes: Int { ballot.voters.count }
  var suggester: String { ballot.suggester ?? "someone" }

  /// "1 vote", "3 votes".
  var votesText: String { Suggestion.votesText(votes) }

  static func votesText(_ count: Int) -> String { count == 1 ? "1 vote" : "\(count) votes" }
}

/// The suggested times in start order (their numbers in the commands are positions in it),
/// and the leader.
struct Standings: Equatable, Sendable {
  let times: [Suggestion]

  init(_ times: [Suggestion]) {
    self.times = times.sorted { ($0.start, $0.eventIdentifier) < ($1.start, $1.eventIdentifier) }
  }

  /// The time with the most votes, the earlier on a tie; nil while no time has a vote.
  var leader: Suggestion? {
    times.reduce(nil) { best, time in
      time.votes > (best?.votes ?? 0) ? time : best
    }
  }

  /// The number a time is shown with.
  func number(of eventIdentifier: String) -> Int? {
    times.firstIndex { $0.eventIdentifier == eventIdentifier }.map { $0 + 1 }
  }
}
