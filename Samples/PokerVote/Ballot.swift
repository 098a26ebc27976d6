/// Who suggested a time and who voted for it, kept in the event's notes, a line each:
///
///     Suggested by: ann
///     Vote: bob
///     Vote: cy
///
/// The notes travel with the event, so every player's process reads the votes with the time,
/// and any calendar app shows them. (EventKit's attendees would be the natural place, but
/// `EKParticipant`s are read-only to apps.) Lines of anything else, a note someone typed in
/// another app, are kept as they are.
struct Ballot: Equatable, Sendable {
  var suggester: String?
  private(set) var voters: [String] = []
  private var otherLines: [String] = []

  static let suggestedBy = "Suggested by: "
  static let vote = "Vote: "

  init(suggester: String) {
    self.suggester = suggester
  }

  /// The ballot in an event's notes (a voter written twice counts once).
  init(notes: String?) {
    for line in (notes ?? "").split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix(Ballot.suggestedBy), suggester == nil {
        suggester = String(line.dropFirst(Ballot.suggestedBy.count))
      } else if line.hasPrefix(Ballot.vote) {
        let voter = String(line.dropFirst(Ballot.vote.count))
        if !voters.contains(voter) { voters.append(voter) }
      } else {
        otherLines.append(String(line))
      }
    }
    while otherLines.last?.isEmpty == true { otherLines.removeLast() }
  }

  /// The notes to save.
  var notes: String {
    let lines =
      (suggester.map { [Ballot.suggestedBy + $0] } ?? []) + voters.map { Ballot.vote + $0 }
      + otherLines
    return lines.joined(separator: "\n")
  }

  /// Adds a vote; false when `player` had already voted.
  mutating func add(_ player: String) -> Bool {
    guard !voters.contains(player) else { return false }
    voters.append(player)
    return true
  }

  /// Takes a vote back; false when `player` had not voted.
  mutating func remove(_ player: String) -> Bool {
    guard let index = voters.firstIndex(of: player) else { return false }
    voters.remove(at: index)
    return true
  }
}
