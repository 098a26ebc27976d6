import Foundation
import GRDB
import OpenEventKit

/// The app's own SQLite database, apart from the calendar store: the calendar shows what the
/// app schedules, the app keeps what it owns (loans, recipes, guests) and what it needs to
/// find its items again (their identifiers). It is private to the person, as the calendar is:
/// the file is 0600 in a 0700 folder, whatever the umask, and an older file with looser modes
/// is narrowed when opened.
///
/// Every app database has a `setting` table (key and value) for what the app remembers
/// between runs, such as the calendar chosen with ``CalendarChoice``, and a `calendarWork`
/// table of the commands under way that span it and the calendar store (``CalendarWork``).
///
/// ```swift
/// let database = try AppDatabase(app: app) { migrator in
///   migrator.registerMigration("loans") { db in try db.create(table: "loan") { … } }
/// }
/// let loans = try database.queue.read { db in try Loan.fetchAll(db) }
/// ```
public final class AppDatabase: Sendable {
  public let file: URL
  /// The connection: GRDB's serialized queue, enough for one process of one person.
  public let queue: DatabaseQueue

  /// Opens (creating when missing) and migrates the app's database, `app.database` in the
  /// app's own data folder (``AppInfo/dataFolder(environment:)``): the app's migrations in the
  /// order it registers them, then the kit's `setting` table.
  public convenience init(
    app: AppInfo, environment: [String: String] = ProcessInfo.processInfo.environment,
    migrations: (inout DatabaseMigrator) -> Void = { _ in }
  ) throws {
    let folder = app.dataFolder(environment: environment)
    try self.init(file: folder.appendingPathComponent(app.database), migrations: migrations)
  }

  /// The folder is the app's own, made for its data: it is narrowed to 0700 as well. (Not
  /// public: a file named anywhere may sit in the person's working folder, or in `/tmp`.)
  private init(file: URL, migrations: (inout DatabaseMigrator) -> Void) throws {
    self.file = file
    try DataLocation.preparePrivateFile(file, ownFolder: true)
    // Several processes of the app may share the file (poker-vote's players): a writer waits
    // for another's transaction instead of failing with "database is locked".
    var configuration = Configuration()
    configuration.busyMode = .timeout(10)
    var migrator = DatabaseMigrator()
    migrations(&migrator)
    // After the app's own: apps that made their own table of settings first keep it.
    migrator.registerMigration("OpenEventKitApp settings") { db in
      try db.create(table: "setting", ifNotExists: true) { table in
        table.primaryKey("key", .text)
        table.column("value", .text).notNull()
      }
    }
    // Work that spans this database and the calendar store (CalendarWork).
    Self.registerWorkMigration(&migrator)
    // Processes that start at once take turns, or two would find a migration missing and
    // both apply it.
    do {
      queue = try DataLocation.openingSerially(file) { [migrator] in
        let queue = try DatabaseQueue(path: file.path, configuration: configuration)
        let unknown = try migrator.unknownMigrations(queue)
        guard unknown.isEmpty else {
          throw AppDatabaseError(
            file: file,
            reason:
              "a newer version of the app changed it (\(unknown.sorted().joined(separator: ", "))); "
              + "nothing was changed, use that version")
        }
        try migrator.migrate(queue)
        return queue
      }
    } catch let error as AppDatabaseError {
      throw error
    } catch {
      var reason = DatabaseFailure.reason(error)
      if DatabaseFailure.isDamage(error) {
        reason +=
          ". Nothing was changed. To start afresh and keep it: mv \(file.path) \(file.path).damaged"
      }
      throw AppDatabaseError(file: file, reason: reason)
    }
  }

  /// The value kept under `key`, or nil.
  public func setting(_ key: String) throws -> String? {
    try queue.read { db in
      try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [key])
    }
  }

  /// Keeps `value` under `key`, or forgets the key when `value` is nil.
  public func setSetting(_ key: String, to value: String?) throws {
    try queue.write { db in
      if let value {
        try db.execute(
          sql: "INSERT OR REPLACE INTO setting (key, value) VALUES (?, ?)",
          arguments: [key, value])
      } else {
        try db.execute(sql: "DELETE FROM setting WHERE key = ?", arguments: [key])
      }
    }
  }
}

/// Why an app's database cannot be used, naming the file.
public struct AppDatabaseError: Error, CustomStringConvertible {
  public let file: URL
  public let reason: String

  public var description: String { "cannot open \(file.path): \(reason)" }
}
