import Foundation

/// What this player was last shown: the suggested times in the order they were numbered, so
/// that `vote 2` means the second time on the list the player read, even when another
/// player has suggested an earlier time since. Also the standings the last look found, for the
/// notice of other players' changes. Used on the REPL's thread only.
final class PokerBoard: @unchecked Sendable {
  /// The event identifiers of the times as last numbered for the player.
  var numbered: [String] = []
  /// The standings the last snapshot read (StoreChanges.swift), for the notice of changes.
  var latest = Standings([])
}
