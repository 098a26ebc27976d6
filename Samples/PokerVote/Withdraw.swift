import OpenEventKit
import REPLKit

extension PokerCommands {
  /// `withdraw N`: removes the time the player saw as number N, which only its suggester may.
  func withdraw(_ word: String) throws {
    // N is the player's number for the event identifier recorded when the list was shown.
    let (store, _, suggestion) = try numbered(word)
    guard suggestion.suggester == player.name else {
      throw REPLError(
        "time \(word) was suggested by \(suggestion.suggester); only they can withdraw it")
    }
    // A repeating time goes with the nights another app moved on their own: listed as times
    // of their own (identifiers of their own, its UID), they are the player's doing too. A
    // night moved on its own goes alone: its series stays, and is not the player's news.
    let event = store.event(withIdentifier: suggestion.eventIdentifier)
    let uid = event?.isDetached == false ? event?.calendarItemExternalIdentifier : nil
    // Every night of its UID there is now (also one moved since the list was shown).
    let withIt = Set(
      uid.map { store.calendarItems(withExternalIdentifier: $0) }?
        .compactMap { ($0 as? EKEvent)?.eventIdentifier } ?? []
    ).subtracting([suggestion.eventIdentifier])
    let removed = try removeEvent(recorded: suggestion.eventIdentifier, from: store)
    // Gone either way, and said here: not again by the notice (StoreChanges.swift).
    for id in withIt.union([suggestion.eventIdentifier]) { changes.noteOwnChange(id) { $0 = nil } }
    guard removed else { throw withdrawn(word) }
    // The other times keep their numbers until the player is shown the list again.
    let nights = withIt.count == 1 ? "the night" : "the \(withIt.count) nights"
    console.print(
      "Withdrew \(dates.dayAndTime(suggestion.start)) (it had \(suggestion.votesText))"
        + (withIt.isEmpty ? "." : ", and \(nights) of it moved on their own."))
  }

  // MARK: pattern identifiers

  /// Removes the event recorded as `identifier`; false when it is gone already.
  ///
  /// A number or a title is no way back to an event: numbers shift when another player adds
  /// an earlier time, and every title is "Poker". So the app keeps each event's
  /// `eventIdentifier` when it shows the list (`PokerCommands.show`, into
  /// `PokerBoard.numbered`) and finds the event again by it.
  func removeEvent(recorded identifier: String, from store: EKEventStore) throws -> Bool {
    // Nil when another player's process removed it since the list was read (or, a night moved
    // on its own, another app then saved it "and future": the start of a new series).
    guard let event = store.event(withIdentifier: identifier) else { return false }
    // The whole time: a series' identifier finds its first occurrence, and `.futureEvents`
    // from there is all of it (should another app have made it repeat); an occurrence edited
    // on its own (detached) has an identifier of its own, and is that occurrence alone; the
    // nights another app's "this and future" change split off are a series (a time) of their own.
    try store.remove(event, span: event.isDetached ? .thisEvent : .futureEvents)
    return true
  }

  // MARK: Helpers

  /// What a command says of a time withdrawn since the player's list was shown.
  func withdrawn(_ word: String) -> REPLError {
    REPLError(
      "time \(word) was withdrawn, renamed or moved to another calendar; "
        + "'times' lists the times now")
  }
}
