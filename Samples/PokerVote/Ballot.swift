/// Who suggested a time and who voted for it, kept in the event's notes, a line each:
///
///     Suggested by: ann
///     Vote: bob
///     Vote: cy
///
/// The notes travel with the event, so every player's process reads the votes with the time,
/// and any calendar app shows them. (EventKit's attendees would be the natural place, but
/// `EKParticipant`s are read-only to apps.) Lines of anything else, a note someone typed in
/// another app, are kept as they are and where they are, with their line breaks; a line typed
/// as "Vote: …" is a vote.
struct Ballot: Equatable, Sendable {
  /// A line of the notes and the break that ends it ("\n", "\r\n" or "\r"; "" for the last).
  private struct Line: Equatable, Sendable {
    var text: String
    var end: String
  }
  /// The notes' lines in their order, the ballot's and any others.
  private var lines: [Line]
  /// How the notes end their lines: the first break read, kept when lines are taken out.
  private var lineBreak = "\n"

  static let suggestedBy = "Suggested by: "
  static let vote = "Vote: "

  init(suggester: String) {
    lines = [Line(text: Ballot.suggestedBy + suggester, end: "")]
  }

  /// The ballot in an event's notes. Lines end at "\n", "\r\n" (one `Character` in Swift) or
  /// "\r", as other apps write them; any other character, a line separator among them, is text.
  init(notes: String?) {
    lines = []
    var text = ""
    for character in notes ?? "" {
      if character == "\n" || character == "\r\n" || character == "\r" {
        if lines.isEmpty { lineBreak = String(character) }
        lines.append(Line(text: text, end: String(character)))
        text = ""
      } else {
        text.append(character)
      }
    }
    if !text.isEmpty || lines.last?.end.isEmpty == false { lines.append(Line(text: text, end: "")) }
  }

  /// The first "Suggested by: " line's name.
  var suggester: String? {
    lines.first { $0.text.hasPrefix(Ballot.suggestedBy) }.map {
      String($0.text.dropFirst(Ballot.suggestedBy.count))
    }
  }

  /// The voters in the order they voted (a voter written twice counts once).
  var voters: [String] {
    var seen = Set<String>()
    return lines.filter { $0.text.hasPrefix(Ballot.vote) }.map {
      String($0.text.dropFirst(Ballot.vote.count))
    }
    .filter { seen.insert($0).inserted }
  }

  /// The notes to save: the lines read, with their own breaks, and the ballot's changes.
  var notes: String { lines.map { $0.text + $0.end }.joined() }

  /// Adds a vote after the ballot's last line, ended as the notes' lines are; false when
  /// `player` had already voted. (A name is one line: the commands refuse a line break in it.)
  mutating func add(_ player: String) -> Bool {
    guard !lines.contains(where: { $0.text == Ballot.vote + player }) else { return false }
    let isBallot = { (line: Line) in
      line.text.hasPrefix(Ballot.vote) || line.text.hasPrefix(Ballot.suggestedBy)
    }
    guard let last = lines.lastIndex(where: isBallot) else {
      lines.insert(Line(text: Ballot.vote + player, end: lines.isEmpty ? "" : lineBreak), at: 0)
      return true
    }
    let end = lines[last].end
    if end.isEmpty { lines[last].end = lineBreak }  // it was the last line: it ends now
    lines.insert(Line(text: Ballot.vote + player, end: end), at: last + 1)
    return true
  }

  /// Takes a vote back (each line of it); false when `player` had not voted.
  mutating func remove(_ player: String) -> Bool {
    let count = lines.count
    for index in lines.indices.reversed() where lines[index].text == Ballot.vote + player {
      // The last line gone, the one before it is the last, with no break after it.
      if lines[index].end.isEmpty && index > 0 { lines[index - 1].end = "" }
      lines.remove(at: index)
    }
    return lines.count < count
  }
}
