import Foundation
import GRDB
import OpenEventKitPaths

/// Where a user's calendar database lives: one folder per user, shared by every app.
///
/// The folder is `DataLocation.storeFolder(environment:)`: `$OPENEVENTKIT_HOME` when set,
/// otherwise `OpenEventKit` in the XDG data folder.
struct StoreLocation: Sendable, Hashable {
  let folder: URL
  let calendarDatabase: URL

  var privacyDatabase: URL { folder.appendingPathComponent("Privacy.sqlite") }

  init(folder: URL) {
    self.folder = folder
    calendarDatabase = folder.appendingPathComponent("Calendar.sqlite")
  }

  /// A database file of any name; the privacy decisions are the `Privacy.sqlite` beside it.
  init(databaseFile: URL) {
    folder = databaseFile.deletingLastPathComponent()
    calendarDatabase = databaseFile
  }

  /// The user's store, from the environment (`DataLocation.storeFolder(environment:)`): the
  /// one given, else the task's (``taskEnvironment``), else the process's.
  static func current(environment: [String: String]? = nil) -> StoreLocation {
    StoreLocation(folder: DataLocation.storeFolder(environment: environment ?? self.environment))
  }

  /// An environment that ``current(environment:)`` reads instead of the process's, for a task
  /// and the tasks it starts: how tests point `EKEventStore()` at a folder of their own, where
  /// `setenv` would move the stores of every test running at the same time.
  @TaskLocal static var taskEnvironment: [String: String]?

  /// The environment the store reads its variables from: the task's (``taskEnvironment``),
  /// else the process's.
  static var environment: [String: String] {
    taskEnvironment ?? ProcessInfo.processInfo.environment
  }

  /// Makes `file`, a database of this store, private to the user before SQLite opens it.
  func prepare(_ file: URL) throws(EKError) {
    do {
      try DataLocation.preparePrivateFile(file)
    } catch {
      throw EKError(.internalFailure, error.message)
    }
  }
}

extension StoreLocation {
  /// Opens a database of the store beside the calendar database (the privacy decisions, the
  /// alarm ledger), which ``prepare(_:)`` has made private: opened while no other process
  /// opens one in the folder (`DataLocation.openingSerially(_:timeout:_:)`), in WAL mode,
  /// and migrated, refusing a file a newer release migrated further.
  ///
  /// - Throws: what SQLite, the migrator or the folder's lock throws, for the caller to say
  ///   which database failed.
  func openSideDatabase(_ file: URL, label: String, migrator: DatabaseMigrator, what: String)
    throws -> DatabaseQueue
  {
    var configuration = Configuration()
    configuration.busyMode = .timeout(CalendarDatabase.busyTimeout)
    configuration.label = label
    return try DataLocation.openingSerially(file) {
      let queue = try DatabaseQueue(path: file.path, configuration: configuration)
      try queue.writeWithoutTransaction { db in
        try db.execute(sql: "PRAGMA journal_mode = WAL")
      }
      try migrator.migrateKnown(queue, what: what, path: file.path)
      return queue
    }
  }
}
