import ArgumentParser
import Foundation
import REPLKit

extension ParsableCommand {
  /// What `ekctl` and `ekctl-sync` do with their command line: the libraries' log records on
  /// standard error, the command parsed and run, and an error said as ArgumentParser says it,
  /// made inert. One flow for both programs, so that a word says the same whichever of them
  /// runs it. `--db` before the subcommand is the root command's (``StoreOptions``), parsed
  /// where it is written.
  package static func mainAsEkctl() {
    // The libraries' log records (swift-log): failures they swallow, and with
    // OPENEVENTKIT_LOG=debug the SQL, change notices and CalDAV traffic.
    TerminalLogHandler.bootstrap(program: "ekctl", output: .standardError)
    do {
      var command = try parseAsRoot()
      try command.run()
    } catch {
      exitShowingInert(error)
    }
  }

  /// Exits as ArgumentParser does for `error`, its message made inert but for its line
  /// breaks: an error quotes data (a calendar's title, a server's answer) and the arguments
  /// typed, and neither may act on the terminal.
  package static func exitShowingInert(_ error: any Error) -> Never {
    let full = fullMessage(for: error)
    let retold = usageOfTypedSubcommand(for: error, message: full)
    let message = retold ?? full
    let shown = InertText.keepingLineBreaks(message)
    guard shown != message || retold != nil else { exit(withError: error) }
    let code = exitCode(for: error)
    let output: FileHandle = code == .success ? .standardOutput : .standardError
    output.write(Data((shown + "\n").utf8))
    Foundation.exit(code.rawValue)
  }

  /// The message for an error the root command raised about an option the subcommand typed
  /// also takes — `ekctl events --db` with no path: `--db` is the root's too
  /// (``StoreOptions``), so ArgumentParser says it with the root's usage, which names no
  /// subcommand. Said with the usage of the subcommand typed instead; nil when the error is
  /// not such, or no subcommand was typed. `message` is ArgumentParser's full message for
  /// `error`, rendered once by the caller.
  static func usageOfTypedSubcommand(for error: any Error, message: String) -> String? {
    guard exitCode(for: error) == .validationFailure, message.contains(usageString()) else {
      return nil
    }
    var typed: ParsableCommand.Type?
    var path = [_commandName]
    var choices = configuration.subcommands
    for word in CommandLine.arguments.dropFirst() where !word.hasPrefix("-") {
      guard
        let next = choices.first(where: {
          $0._commandName == word || $0.configuration.aliases.contains(word)
        })
      else { break }
      typed = next
      path.append(word)
      choices = next.configuration.subcommands
    }
    guard let typed else { return nil }
    return "Error: \(Self.message(for: error))\nUsage: \(usageString(for: typed))\n"
      + "  See '\(path.joined(separator: " ")) --help' for more information."
  }
}
