import OpenEventKit
import REPLKit

extension PokerCommands {
  // MARK: pattern identifiers

  /// `withdraw N`: removes the time the player saw as number N, which only its suggester may.
  func withdraw(_ word: String) throws {
    // N is the player's number; behind it is the event identifier kept when the list was
    // shown (PokerBoard), which stays the event's while other players add earlier times.
    let (store, suggestion) = try numbered(word)
    guard suggestion.suggester == player.name else {
      throw REPLError(
        "time \(word) was suggested by \(suggestion.suggester); only they can withdraw it")
    }
    // Nil when another player's process removed it since the list was read.
    guard let event = store.event(withIdentifier: suggestion.eventIdentifier) else {
      throw withdrawn(word)
    }
    changes.markOwn([suggestion.eventIdentifier])  // StoreChanges: not news to this player
    // A single event, not a series, so the span changes nothing; `.thisEvent` says so.
    try store.remove(event, span: .thisEvent)
    // The other times keep their numbers until the player is shown the list again.
    console.print(
      "Withdrew \(dates.dayAndTime(suggestion.start)) (it had \(suggestion.votesText)).")
  }

  // MARK: Helpers

  /// What a command says of a time withdrawn since the player's list was shown.
  func withdrawn(_ word: String) -> REPLError {
    REPLError("time \(word) was withdrawn; 'times' lists the times now")
  }
}
