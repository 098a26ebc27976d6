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

  /// The player `--player NAME` names, nil when it is not given; the kit has already taken
  /// `--now` and `--help`, so anything else is refused.
  static func fromArguments(_ arguments: [String]) throws -> Player? {
    var player: Player?
    var rest = arguments[...]
    while let argument = rest.popFirst() {
      switch argument {
      case "--player":
        guard let name = rest.popFirst() else { throw REPLError("--player needs a NAME") }
        player = try Player(name)
      case let option where option.hasPrefix("--player="):
        player = try Player(String(option.dropFirst("--player=".count)))
      default:
        throw REPLError("unknown argument '\(argument)'")
      }
    }
    return player
  }
}
