import ArgumentParser
import Foundation
import OpenEventKit

/// `--db PATH`: the calendar database a store command works on. `ekctl` acts for the person,
/// not for an app, so no privacy decision applies to it (see `EKEventStore(ownerOf:)`).
package struct StoreOptions: ParsableArguments {
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
