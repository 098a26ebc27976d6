import ArgumentParser
import EkctlKit

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
      SyncCommand.self, SubscribeCommand.self, SubscriptionsCommand.self,
      UnsubscribeCommand.self, AlarmsCommand.self, MCPCommand.self,
    ])

  /// `--db` written before the subcommand; the subcommands' own `StoreOptions` get its value.
  @OptionGroup(visibility: StoreOptions.rootVisibility) var store: StoreOptions

  static func main() {
    mainAsEkctl()
  }
}
