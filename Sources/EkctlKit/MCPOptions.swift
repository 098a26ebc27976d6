import ArgumentParser

/// `ekctl mcp`: what it is called, says and takes. `ekctl` keeps the word in its command tree
/// (help, usage errors, completions, the man page) and execs `ekctl-mcp` for it, which builds
/// its command from this too: the two cannot say different things.
package struct MCPOptions: ParsableArguments {
  /// The bundle identifier the server is known by to the privacy layer, as its Info.plist
  /// says (`Sources/ekctl-mcp/Bundle/Info.plist`): the name `ekctl privacy` lists and sets.
  package static let bundleIdentifier = "org.openeventkit.mcp"

  package static let configuration = CommandConfiguration(
    commandName: "mcp",
    abstract: "Serve your calendars to an AI agent: the Model Context Protocol on stdin/stdout.",
    discussion: """
      An MCP host (an assistant) starts `ekctl mcp` and speaks JSON-RPC to it on standard \
      input and output; messages about its work go to standard error. It is an app of its own \
      to the privacy layer (\(bundleIdentifier)): it never asks on standard input, which is \
      the protocol's. Decide once in a terminal, with `ekctl mcp --authorize` (which asks \
      there) or `ekctl privacy set --app \(bundleIdentifier) --entity events full` (and \
      --entity reminders); until then every tool answers with that advice.

      Host configuration: {"command": "ekctl", "args": ["mcp"]}
      """)

  @Flag(help: "Ask on this terminal for the server's access to events and reminders, then exit.")
  package var authorize = false

  @OptionGroup package var store: StoreOptions

  package init() {}
}
