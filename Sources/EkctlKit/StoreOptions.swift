import ArgumentParser
import Foundation
import OpenEventKit

/// `--db PATH`: the calendar database a store command works on. `ekctl` acts for the person,
/// not for an app, so no privacy decision applies to it (see `EKEventStore(ownerOf:)`).
///
/// Written before the subcommand (`ekctl --db x events`) or after it (`ekctl events --db x`):
/// the root commands, `ekctl` and `ekctl-sync`, hold this group too, hidden from their help
/// (``rootVisibility``). ArgumentParser reads a root command's options wherever they stand on
/// the line, and gives a subcommand's `@OptionGroup` of the same type the value its root
/// read, so each command that uses a store declares the group (its help shows `--db`) and
/// gets `--db` from either place, with no argument moved.
package struct StoreOptions: ParsableArguments {
  /// The group's visibility on a root command: out of its help and usage, which list the
  /// subcommands (each subcommand's help shows `--db`); `--help-hidden` shows it.
  package static let rootVisibility = ArgumentVisibility.hidden

  @Option(
    name: .customLong("db"),
    help: ArgumentHelp(
      "The Calendar.sqlite file to use (default: your store).", valueName: "path"))
  package var database: String?

  package init() {}

  /// The store; a database named with --db must exist, the default one is made on first use.
  package func open() throws -> EKEventStore {
    let file = database.map { URL(fileURLWithPath: $0) } ?? EKEventStore.defaultDatabaseFile
    return try failing { try EKEventStore(ownerOf: file, create: database == nil) }
  }

  /// Like ``open()``, but makes a database named with --db when it is missing (import).
  package func openCreating() throws -> EKEventStore {
    let file = database.map { URL(fileURLWithPath: $0) } ?? EKEventStore.defaultDatabaseFile
    return try failing { try EKEventStore(ownerOf: file, create: true) }
  }
}
