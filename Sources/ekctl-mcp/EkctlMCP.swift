import ArgumentParser
import EkctlKit
import Foundation
import REPLKit

/// `ekctl-mcp`: `ekctl mcp`, the calendar for AI agents, in a program of its own, so that
/// `ekctl` links no MCP library (issue 47). `ekctl` execs it for the word, found beside it as
/// it finds `ekctl-sync`; it calls itself `ekctl`, so that what it says is what `ekctl` says.
@main
struct EkctlMCP: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "ekctl",
    abstract: "Serve the OpenEventKit calendar store to AI agents (run by ekctl).",
    discussion: "ekctl runs this program for its mcp command; `ekctl help mcp` says more.",
    subcommands: [MCPCommand.self])

  /// `--db` written before the subcommand, as ekctl reads it (`StoreOptions`).
  @OptionGroup(visibility: StoreOptions.rootVisibility) var store: StoreOptions

  static func main() {
    // Standard output is the protocol's: every record goes to standard error, the writes
    // the agent makes among them (notice, shown by default).
    TerminalLogHandler.bootstrap(program: "ekctl mcp", output: .standardError)
    do {
      var command = try parseAsRoot()
      try command.run()
    } catch {
      exitShowingInert(error)
    }
  }
}

/// `ekctl mcp`: the server, or with `--authorize` the person's decision asked on the terminal.
struct MCPCommand: ParsableCommand {
  static let configuration = MCPOptions.configuration

  @OptionGroup var options: MCPOptions

  func run() throws {
    let location = try StoreFolder(options.store)
    if options.authorize {
      try Authorization.ask(location)
      return
    }
    try CalendarServer.serve(location)
  }
}
