import ArgumentParser

/// `ekctl`: look into and manage the OpenEventKit calendar store from a shell.
@main
struct Ekctl: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "ekctl",
    abstract: "Expand recurrence rules and manage the OpenEventKit calendar store.",
    discussion: """
      Store commands (calendars, events, import, export, privacy) arrive with the calendar \
      store; today ekctl expands RFC 5545 recurrence rules.
      """,
    subcommands: [RRuleCommand.self])
}
