import ArgumentParser
import Foundation
import REPLKit

/// Who is playing: the name written in the calendar beside a suggestion and a vote.
struct Player: Equatable, Sendable {
  let name: String

  /// The name when nothing better is known.
  private init(fallback: String) { name = fallback }

  /// A name as given: trimmed, one line, without commas (voters are listed with commas).
  init(_ text: String) throws {
    let name = text.trimmingCharacters(in: .whitespaces)
    guard !name.isEmpty, name.count <= 40,
      !name.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) }),
      !name.contains(",")
    else {
      throw REPLError(
        "'\(text)' cannot be a player's name; give one line of at most 40 characters, "
          + "without commas")
    }
    self.name = name
  }

  /// The user's login name: who plays when `--player` is not given.
  static var loginName: Player {
    let login = ProcessInfo.processInfo.environment["USER"].flatMap { $0.isEmpty ? nil : $0 }
    return (try? Player(login ?? NSUserName())) ?? Player(fallback: "player")
  }
}

/// The program's own option, `--player NAME`, read by swift-argument-parser with the kit's
/// `--now`: a name that cannot be a player's is refused with the usage, as ekctl refuses.
struct PlayerOption: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Who plays: the name written beside suggestions and votes (your login name by default).",
      valueName: "name"),
    transform: { try Player($0) })
  var player: Player?
}
