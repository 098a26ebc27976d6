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
      exit(withError: error)
    }
  }
}
