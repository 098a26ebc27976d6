import ArgumentParser
import Foundation
import REPLKit

/// `ekctl`: look into and manage the OpenEventKit calendar store from a shell.
@main
struct Ekctl: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "ekctl",
    abstract: "Look into and manage the OpenEventKit calendar store.",
    discussion: """
      Store commands work on your store, or on the Calendar.sqlite that --db names (before or \
      after the command). ekctl acts for you, not for an app: apps' privacy decisions, which \
      `privacy` shows and changes, do not apply to it.

      Titles, places, notes and names are data: their control characters, escape sequences \
      and bidi controls are shown as \\u{…} (ESC as \\u{1B}), never acted on by the \
      terminal. --json output keeps every value exact.
      """,
    subcommands: [
      CalendarsCommand.self, EventsCommand.self, RemindersCommand.self, ShowCommand.self,
      ImportCommand.self, ExportCommand.self, RemoveCommand.self, WatchCommand.self,
      RRuleCommand.self, PrivacyCommand.self, AccountCommand.self, AccountsCommand.self,
      SyncCommand.self, AlarmsCommand.self,
    ])

  static func main() {
    // The libraries' log records (swift-log): failures they swallow, and with
    // OPENEVENTKIT_LOG=debug the SQL, change notices and CalDAV traffic.
    TerminalLogHandler.bootstrap(program: "ekctl", output: .standardError)
    let arguments = movingDatabaseOption(Array(CommandLine.arguments.dropFirst()))
    do {
      var command = try parseAsRoot(arguments)
      try command.run()
    } catch {
      exitShowingInert(error)
    }
  }

  /// Exits as ArgumentParser does for `error`, its message made inert but for its line
  /// breaks: an error quotes data (a calendar's title, a server's answer) and the arguments
  /// typed, and neither may act on the terminal.
  static func exitShowingInert(_ error: any Error) -> Never {
    let message = fullMessage(for: error)
    let shown = InertText.keepingLineBreaks(message)
    guard shown != message else { exit(withError: error) }
    let code = exitCode(for: error)
    let output: FileHandle = code == .success ? .standardOutput : .standardError
    output.write(Data((shown + "\n").utf8))
    Foundation.exit(code.rawValue)
  }
}
