import ArgumentParser
import Foundation
import ICalendar
import OpenEventKit
import REPLKit

/// `--db PATH`: the calendar database a store command works on. `ekctl` acts for the person,
/// not for an app, so no privacy decision applies to it (see `EKEventStore(ownerOf:)`).
struct StoreOptions: ParsableArguments {
  @Option(
    name: .customLong("db"),
    help: ArgumentHelp(
      "The Calendar.sqlite file to use (default: your store).", valueName: "path"))
  var database: String?

  /// The store; a database named with --db must exist, the default one is made on first use.
  func open() throws -> EKEventStore {
    let file = database.map { URL(fileURLWithPath: $0) } ?? EKEventStore.defaultDatabaseFile
    return try failing { try EKEventStore(ownerOf: file, create: database == nil) }
  }

  /// The CalDAV accounts of the store (a database named with --db must exist).
  func accounts() throws -> CalDAVAccounts {
    guard let database else { return try failing { try CalDAVAccounts() } }
    guard FileManager.default.fileExists(atPath: database) else {
      throw CommandError("no calendar database at \(database)")
    }
    return try failing { try CalDAVAccounts(databaseFile: URL(fileURLWithPath: database)) }
  }

  /// Like ``open()``, but makes a database named with --db when it is missing (import).
  func openCreating() throws -> EKEventStore {
    let file = database.map { URL(fileURLWithPath: $0) } ?? EKEventStore.defaultDatabaseFile
    return try failing { try EKEventStore(ownerOf: file, create: true) }
  }
}

/// A failure of a store command, said in one line.
struct CommandError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// Runs `body`, turning the store's and the file reader's errors into one clear line.
func failing<T>(_ body: () throws -> T) throws -> T {
  do {
    return try body()
  } catch let error as EKError {
    throw CommandError(error.localizedDescription)
  } catch let error as ICalendarParseError {
    throw CommandError(error.description)
  }
}

/// The calendars titled `title` (any entity), or every calendar when nil. Titles match
/// ignoring case and accents (`work` finds "Work", `cafe` finds "Café"); an unknown title is an error that suggests the nearest
/// one, within a slip, and lists the titles there are.
func calendars(titled title: String?, in store: EKEventStore, entity: EKEntityType? = nil) throws
  -> [EKCalendar]
{
  let all =
    entity.map { store.calendars(for: $0) }
    ?? store.calendars(for: .event) + store.calendars(for: .reminder)
  guard let title else { return all }
  let chosen = all.filter { NearestName.key($0.title) == NearestName.key(title) }
  guard !chosen.isEmpty else {
    let titles = Array(Set(all.map(\.title))).sorted()
    let nearest = NearestName.suggestion(for: title, among: titles).map {
      "; did you mean \"\($0)\"?"
    }
    let listed = titles.map { "\"\($0)\"" }.joined(separator: ", ")
    throw CommandError(
      "no calendar titled \"\(title)\"\(nearest ?? "") (there are \(listed))")
  }
  return chosen
}

extension Ekctl {
  /// Moves `--db PATH` (or `--db=PATH`) written before the subcommand to the end, where the
  /// subcommand's own option reads it: `ekctl --db x events …` is `ekctl events … --db x`, and
  /// `ekctl calendars --db x rm Work` (after a group, before its subcommand) is
  /// `ekctl calendars rm Work --db x`.
  static func movingDatabaseOption(_ arguments: [String]) -> [String] {
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
