import ArgumentParser
import EkctlKit

// ekctl's network words. Their names, help and options are ekctl's (so `ekctl --help`,
// `ekctl help sync`, usage errors, completions and the man page come from here), built from
// EkctlKit's option groups as ekctl-sync builds the same words; once the arguments parse,
// ekctl becomes ekctl-sync (`CompanionProgram.sync.exec`), which does the work. So ekctl links no
// CalDAV client (issue 44).

/// `ekctl sync`.
struct SyncCommand: ParsableCommand {
  static let configuration = SyncOptions.configuration

  @OptionGroup var options: SyncOptions

  func run() throws { CompanionProgram.sync.exec(word: "sync") }
}

/// `ekctl account add` and `ekctl account remove`.
struct AccountCommand: ParsableCommand {
  static let configuration = AccountWords.configuration(subcommands: [Add.self, Remove.self])

  struct Add: ParsableCommand {
    static let configuration = AccountAddOptions.configuration

    @OptionGroup var options: AccountAddOptions

    func run() throws { CompanionProgram.sync.exec(word: "account") }
  }

  struct Remove: ParsableCommand {
    static let configuration = AccountRemoveOptions.configuration

    @OptionGroup var options: AccountRemoveOptions

    func run() throws { CompanionProgram.sync.exec(word: "account") }
  }
}

/// `ekctl accounts`.
struct AccountsCommand: ParsableCommand {
  static let configuration = AccountsOptions.configuration

  @OptionGroup var options: AccountsOptions

  func run() throws { CompanionProgram.sync.exec(word: "accounts") }
}

/// `ekctl mcp`: the MCP server, in ekctl-mcp, so that ekctl links no MCP library (issue 47).
struct MCPCommand: ParsableCommand {
  static let configuration = MCPOptions.configuration

  @OptionGroup var options: MCPOptions

  func run() throws { CompanionProgram.mcp.exec(word: "mcp") }
}

/// `ekctl subscribe`.
struct SubscribeCommand: ParsableCommand {
  static let configuration = SubscribeOptions.configuration

  @OptionGroup var options: SubscribeOptions

  func run() throws { CompanionProgram.sync.exec(word: "subscribe") }
}

/// `ekctl subscriptions`.
struct SubscriptionsCommand: ParsableCommand {
  static let configuration = SubscriptionsOptions.configuration

  @OptionGroup var options: SubscriptionsOptions

  func run() throws { CompanionProgram.sync.exec(word: "subscriptions") }
}

/// `ekctl unsubscribe`.
struct UnsubscribeCommand: ParsableCommand {
  static let configuration = UnsubscribeOptions.configuration

  @OptionGroup var options: UnsubscribeOptions

  func run() throws { CompanionProgram.sync.exec(word: "unsubscribe") }
}
