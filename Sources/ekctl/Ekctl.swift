import ArgumentParser

/// `ekctl`: look into and manage the OpenEventKit calendar store from a shell.
@main
struct Ekctl: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "ekctl",
    abstract: "Expand recurrence rules and manage the OpenEventKit calendar store.",
    discussion: """
      `privacy` shows and changes which apps may use your events and reminders; `rrule` \
      expands RFC 5545 recurrence rules. Store commands (calendars, events, import, export) \
      are not built yet.
      """,
    subcommands: [RRuleCommand.self, PrivacyCommand.self])
}
