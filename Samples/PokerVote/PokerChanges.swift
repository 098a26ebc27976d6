import Foundation
import OpenEventKit

/// What other players did, told at the next prompt (at once when the prompt waits on a
/// terminal): ``StoreChanges`` compares the suggestions as they were with the suggestions
/// now, by event identifier, and these are its sentences.
enum PokerChanges {
  /// The suggestions now, by event identifier; nothing while there is no shared calendar.
  static func snapshot(
    _ store: EKEventStore, calendar: EKCalendar?, now: Date, zone: TimeZone
  ) -> (Standings, [String: Suggestion]) {
    guard let calendar else { return (Standings([]), [:]) }
    let standings = PokerTimes.standings(in: calendar, store: store, now: now, zone: zone)
    // One per identifier already (PokerTimes.swift); should two share one, the first is kept.
    let byIdentifier = standings.times.map { ($0.eventIdentifier, $0) }
    return (standings, Dictionary(byIdentifier, uniquingKeysWith: { first, _ in first }))
  }

  /// The sentence for one suggestion's change; nil for one that only left the window (a day
  /// after it started), which nobody did. `find` gives what an identifier finds now, in any
  /// calendar (nil: removed), to say how a suggestion that left the list went.
  static func sentence(
    _ change: StoreChanges.Change, dates: DateText, windowStart: Date,
    find: (String) -> EKEvent?, pokerCalendar: String?
  ) -> String? {
    switch (change.before, change.after) {
    case (nil, let after?):
      let votes =
        after.votes == 0 ? "" : ": \(after.votesText) (\(names(after.ballot.voters)))"
      if let from = after.movedFrom {  // not suggested: a night of a repeating time, moved
        return "\(dates.dayAndTime(from)) (\(after.suggester)'s) was moved to "
          + "\(dates.dayAndTime(after.start)), a time of its own\(votes)."
      }
      return "\(after.suggester) suggested \(dates.dayAndTime(after.start))\(votes)."
    case (let before?, nil):
      guard before.start >= windowStart else { return nil }
      // Gone from the suggestions: its identifier says how (a player's withdraw, or another
      // app's removal; a move to another calendar; a new title, not "Poker" now).
      let was = dates.dayAndTime(before.start)
      guard let event = find(change.key) else {
        return "\(was) was withdrawn (removed from the calendar)."
      }
      if event.calendar?.calendarIdentifier != pokerCalendar {
        return "\(was) was moved to the calendar \"\(event.calendar?.title ?? "")\"."
      }
      if event.title != PokerTimes.title {
        return "\(was) was renamed \"\(event.title ?? "")\": no longer a poker night."
      }
      return "\(was) was withdrawn, renamed, or moved to another calendar."
    case (let before?, let after?):
      var sentences: [String] = []
      let when = dates.dayAndTime(after.start)
      if before.start != after.start {
        sentences.append("\(dates.dayAndTime(before.start)) was moved to \(when).")
      }
      let added = after.ballot.voters.filter { !before.ballot.voters.contains($0) }
      let removed = before.ballot.voters.filter { !after.ballot.voters.contains($0) }
      if !added.isEmpty {
        sentences.append(
          "\(names(added)) voted for \(when): \(Suggestion.votesText(after.votes)).")
      }
      if !removed.isEmpty {
        sentences.append(
          "\(names(removed)) took back a vote for \(when): \(Suggestion.votesText(after.votes)).")
      }
      return sentences.isEmpty ? nil : sentences.joined(separator: " ")
    case (nil, nil):
      return nil
    }
  }

  /// Whether one suggestion's change is told before another's: by the time suggested, then
  /// by the suggester, so that every player reads the news in the same order (the event
  /// identifiers the changes are keyed by are random).
  static func isTold(
    _ change: StoreChanges.Change,
    before other: StoreChanges.Change
  ) -> Bool {
    func order(_ change: StoreChanges.Change) -> (Date, String, String) {
      let suggestion = change.after ?? change.before
      return (suggestion?.start ?? .distantPast, suggestion?.suggester ?? "", change.key)
    }
    return order(change) < order(other)
  }

  /// "ann", "ann and bob", "ann, bob and cy".
  static func names(_ names: [String]) -> String {
    guard names.count > 1 else { return names.first ?? "" }
    return names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
  }
}
