import ArgumentParser

/// `ekctl sync`: what it is called, says and takes. `ekctl` keeps the word in its command tree
/// (its help, usage errors, completions and man page) and runs `ekctl-sync` for it, which
/// syncs; both build their command from this, so the two cannot say different things.
package struct SyncOptions: ParsableArguments {
  package static let configuration = CommandConfiguration(
    commandName: "sync",
    abstract: "Sync your CalDAV accounts: send the changes made here, fetch the server's.",
    discussion: """
      Says what came in and went out, and each conflict: when an item changed both here and \
      on the server, changes to different fields are merged; otherwise the server's version \
      wins and yours is kept in the local calendar "Conflicts". A network or server failure \
      is said plainly and keeps every unsent change for the next sync. Without --account, \
      also refreshes your subscribed calendars (`ekctl subscriptions`). With --watch, syncs \
      after every change made here (by any app) and asks the server every --interval \
      seconds, and refreshes each subscribed calendar on its own interval, until \
      interrupted.
      """)

  @Option(help: "Sync only this account (default: every one).")
  package var account: String?

  @Flag(help: "Keep syncing: after each local change, and every --interval seconds.")
  package var watch = false

  @Option(help: "With --watch, how often to ask the server, in seconds.")
  package var interval = 60

  /// The one-shot agent's mode, which a store's `refreshSourcesIfNecessary()` starts when no
  /// `ekctl sync --watch` runs: sync the accounts that are due (keeping their password, not
  /// synced in the last minute) once, never asking anything; an account another sync holds
  /// is left to it. Hidden: a program's word, not a person's.
  @Flag(help: .hidden) package var due = false

  @OptionGroup package var store: StoreOptions

  package init() {}

  package func validate() throws {
    guard interval >= 1 else { throw ValidationError("--interval must be at least 1 second") }
    guard !due || (!watch && account == nil) else {
      throw ValidationError("--due syncs the due accounts once: not with --watch or --account")
    }
  }
}
