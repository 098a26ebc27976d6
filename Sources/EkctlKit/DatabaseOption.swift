import ArgumentParser

extension ParsableCommand {
  /// Moves `--db PATH` (or `--db=PATH`) written before the subcommand to the end, where the
  /// subcommand's own option reads it: `ekctl --db x events …` is `ekctl events … --db x`, and
  /// `ekctl calendars --db x rm Work` (after a group, before its subcommand) is
  /// `ekctl calendars rm Work --db x`. The groups are this root command's subcommands that
  /// have subcommands of their own. Arguments it has moved stay where they are when moved
  /// again, so that `ekctl-sync` can move what `ekctl` hands it.
  package static func movingDatabaseOption(_ arguments: [String]) -> [String] {
    var groups: Set<String> = []
    for command in configuration.subcommands where !command.configuration.subcommands.isEmpty {
      if let name = command.configuration.commandName { groups.insert(name) }
    }
    var rest: [String] = []
    var moved: [String] = []
    var index = 0
    var words = 0
    var seenCommand = false
    while index < arguments.count {
      let argument = arguments[index]
      if !seenCommand, argument == "--db", index + 1 < arguments.count {
        moved += [argument, arguments[index + 1]]
        index += 2
        continue
      }
      if !seenCommand, argument.hasPrefix("--db=") {
        moved.append(argument)
      } else {
        if !argument.hasPrefix("-") {
          // A group's name is followed by its subcommand, which reads --db as well.
          seenCommand = words > 0 || !groups.contains(argument)
          words += 1
        }
        rest.append(argument)
      }
      index += 1
    }
    return rest + moved
  }
}
