import ArgumentParser
import EkctlKit

/// `ekctl-sync`: `ekctl`'s network words, `sync` (with `--watch`), `account`, `accounts` and
/// the subscribed calendars' `subscribe`, `subscriptions` and `unsubscribe`,
/// in a program of their own, so that `ekctl` itself links no network stack (issue 44).
/// `ekctl` runs it for those words in its own place (exec: the same process, pid and exit
/// status), found beside it as git finds `git-foo`. It calls itself `ekctl`, so that what it
/// says (usage lines, "See 'ekctl sync --help'") is what `ekctl` says.
@main
struct EkctlSync: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "ekctl",
    abstract: "Sync the OpenEventKit calendar store with CalDAV servers (run by ekctl).",
    discussion: """
      ekctl runs this program for its sync, account, accounts, subscribe, subscriptions and \
      unsubscribe commands; `ekctl help` says more.
      """,
    subcommands: [
      AccountCommand.self, AccountsCommand.self, SyncCommand.self, SubscribeCommand.self,
      SubscriptionsCommand.self, UnsubscribeCommand.self,
    ])

  /// `--db` written before the subcommand, as ekctl reads it (`StoreOptions`).
  @OptionGroup(visibility: StoreOptions.rootVisibility) var store: StoreOptions

  static func main() {
    mainAsEkctl()
  }
}
