/// Who suggested a time and who voted for it, kept in the event's notes, a line each:
///
///     Suggested by: ann
///     Vote: bob
///     Vote: cy
///
/// The notes travel with the event, so every player's process reads the votes with the time,
/// and any calendar app shows them. (EventKit's attendees would be the natural place, but
/// `EKParticipant`s are read-only to apps.) Lines of anything else, a note someone typed in
/// another app, are kept as they are and where they are; a line typed as "Vote: …" is a vote.
struct Ballot: Equatable, Sendable {
  /// The notes' lines in their order, the ballot's and any others.
  private var lines: [String]

  static let suggestedBy = "Suggested by: "
  static let vote = "Vote: "

  init(suggester: String) {
    lines = [Ballot.suggestedBy + suggester]
  }

  /// The ballot in an event's notes: lines broken by any line break (another app may write
  /// "\r\n", one Character in Swift), written back with "\n"; blank lines at the end dropped.
  init(notes: String?) {
    lines = (notes ?? "").split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
      .map(String.init)
    while lines.last?.isEmpty == true { lines.removeLast() }
  }

  /// The first "Suggested by: " line's name.
  var suggester: String? {
    lines.first { $0.hasPrefix(Ballot.suggestedBy) }.map {
      String($0.dropFirst(Ballot.suggestedBy.count))
    }
  }

  /// The voters in the order they voted (a voter written twice counts once).
  var voters: [String] {
    var seen = Set<String>()
    return lines.filter { $0.hasPrefix(Ballot.vote) }.map {
      String($0.dropFirst(Ballot.vote.count))
    }
    .filter { seen.insert($0).inserted }
  }

  /// The notes to save.
  var notes: String { lines.joined(separator: "\n") }

  /// Adds a vote after the ballot's last line; false when `player` had already voted.
  mutating func add(_ player: String) -> Bool {
    guard !lines.contains(Ballot.vote + player) else { return false }
    let last = lines.lastIndex { $0.hasPrefix(Ballot.vote) || $0.hasPrefix(Ballot.suggestedBy) }
    lines.insert(Ballot.vote + player, at: last.map { $0 + 1 } ?? 0)
    return true
  }

  /// Takes a vote back (each line of it); false when `player` had not voted.
  mutating func remove(_ player: String) -> Bool {
    let count = lines.count
    lines.removeAll { $0 == Ballot.vote + player }
    return lines.count < count
  }
}
