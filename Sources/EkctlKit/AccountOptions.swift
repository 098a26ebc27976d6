import ArgumentParser

/// `ekctl account`, `account add` and `account remove`: what they are called, say and take.
/// `ekctl` keeps the words in its command tree and runs `ekctl-sync` for them, which does
/// the work; both build their commands from these, so the two cannot say different things.
package enum AccountWords {
  /// The group, over each program's own `add` and `remove`.
  package static func configuration(subcommands: [any ParsableCommand.Type])
    -> CommandConfiguration
  {
    CommandConfiguration(
      commandName: "account",
      abstract: "Add or remove a CalDAV account (Nextcloud, Fastmail, Radicale, Baïkal…).",
      discussion: """
        An account's calendars live on its server and in your store; `ekctl sync` keeps the \
        two in step. `ekctl accounts` lists them.
        """,
      subcommands: subcommands)
  }
}

/// `ekctl account add`.
package struct AccountAddOptions: ParsableArguments {
  package static let configuration = CommandConfiguration(
    commandName: "add",
    abstract: "Find the calendars of a CalDAV account and add them to your store.",
    discussion: """
      URL may be the server's address alone (https://caldav.example.com: its \
      /.well-known/caldav is asked), your calendar home, or one calendar's URL. Plain \
      http:// is refused except to this machine (127.0.0.1, localhost). The password is \
      read from --password-file (refused when others can change it: chmod 600 it), or asked \
      on the terminal, and kept beside your store in a file only you can read (never in the \
      database); a URL with a user or password in it is refused. The calendars are fetched \
      by the first `ekctl sync`.
      """)

  @Option(help: "The server's or the calendar home's URL.")
  package var url: String

  @Option(help: "Your user name on the server.")
  package var user: String

  @Option(help: ArgumentHelp("A file holding the password.", valueName: "file"))
  package var passwordFile: String?

  @Option(help: "What to call the account here (default: the server's host name).")
  package var name: String?

  @OptionGroup package var store: StoreOptions

  package init() {}
}

/// `ekctl account remove`.
package struct AccountRemoveOptions: ParsableArguments {
  package static let configuration = CommandConfiguration(
    commandName: "remove",
    abstract: "Remove an account and everything of it from your store.",
    discussion: """
      Its calendars, their events and reminders, the changes not yet synced and the kept \
      password go from this machine; the server keeps its calendars. Asks first, unless \
      --yes.
      """)

  @Argument(help: "The account's name (`ekctl accounts` lists them).")
  package var name: String

  @Flag(help: "Do not ask.")
  package var yes = false

  @OptionGroup package var store: StoreOptions

  package init() {}
}

/// `ekctl accounts`.
package struct AccountsOptions: ParsableArguments {
  package static let configuration = CommandConfiguration(
    commandName: "accounts",
    abstract: "List your CalDAV accounts, their calendars and their last sync.",
    discussion: """
      Each account's URL, its calendar home (where its calendars are, on the same server: the \
      password is sent to that server alone), its user, its last sync, and how many changes \
      wait to be sent.
      """)

  @OptionGroup package var store: StoreOptions

  @Flag(help: "Print JSON Lines, one account a line, instead of text.")
  package var json = false

  package init() {}
}
