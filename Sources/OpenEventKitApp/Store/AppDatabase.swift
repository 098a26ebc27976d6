import Foundation
import GRDB
import OpenEventKit
import OpenEventKitPaths

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
/// import GRDB
///
/// let database = try AppDatabase(app: app) { migrator in
///   migrator.registerMigration("loans") { db in
///     try db.create(table: "loan") { table in
///       table.autoIncrementedPrimaryKey("id")
///       table.column("contact", .text).notNull()
///     }
///   }
/// }
/// let contacts = try database.queue.read { db in
///   try String.fetchAll(db, sql: "SELECT contact FROM loan ORDER BY id")
/// }
/// ```
public final class AppDatabase: Sendable {
  /// Where the database is: `app.database` in the app's own data folder.
  public let file: URL
  /// The connection: GRDB's serialized queue, enough for one process of one person.
  public let queue: DatabaseQueue

  /// Opens (creating when missing) and migrates the app's database, `app.database` in the
  /// app's own data folder (``AppInfo/dataFolder(environment:)``): the app's migrations in the
  /// order it registers them, then the kit's `setting` table.
  ///
  /// The kit's `calendarWork` table (``CalendarWork``) is made after the `setting` table.
  /// Several processes of the app may open it at once: they take turns migrating, and a
  /// writer waits up to 10 seconds for another's transaction.
  /// ``AppInfo/run(diagnostics:migrations:commands:)`` opens it for a sample.
  ///
  /// ```swift
  /// import GRDB
  ///
  /// let database = try AppDatabase(
  ///   app: app, environment: ["OPENEVENTKIT_HOME": "/tmp/demo"],
  ///   migrations: { migrator in
  ///     migrator.registerMigration("guests") { db in
  ///       try db.create(table: "guest") { table in table.column("name", .text).notNull() }
  ///     }
  ///   })
  /// print(database.file.path)  // /tmp/demo/<app.name>/<app.database>
  /// ```
  ///
  /// - Parameters:
  ///   - app: The app, whose ``AppInfo/database`` names the file and whose ``AppInfo/name``
  ///     names the folder.
  ///   - environment: Where `OPENEVENTKIT_HOME` and the XDG folders are read; the process's
  ///     environment by default.
  ///   - migrations: Registers the app's own migrations (GRDB's `DatabaseMigrator`), in
  ///     order; none by default.
  /// - Throws: OpenEventKit's `EKError` (`internalFailure`, naming the file) when the file or
  ///   its folder cannot be made private (a symbolic link, a read-only file, no permission);
  ///   ``AppDatabaseError`` when the database cannot be opened or migrated: a damaged file
  ///   (with the command that moves it aside), or one a newer version of the app migrated
  ///   further (nothing is changed then).
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
    do {
      try DataLocation.preparePrivateFile(file, ownFolder: true)
    } catch {
      throw EKError(.internalFailure, error.message)  // as documented: OpenEventKit's error
    }
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
  ///
  /// ```swift
  /// try database.setSetting("player", to: "Ann")
  /// try database.setting("player")  // "Ann"
  /// ```
  ///
  /// The kit keeps the keys `calendar` and `reminder-list` (``CalendarChoice``); an app picks
  /// others.
  ///
  /// - Parameter key: The setting's name.
  /// - Returns: The value last kept under `key`, or nil when there is none.
  /// - Throws: GRDB's `DatabaseError` when the database cannot be read.
  public func setting(_ key: String) throws -> String? {
    try queue.read { db in
      try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [key])
    }
  }

  /// Keeps `value` under `key`, or forgets the key when `value` is nil.
  ///
  /// ```swift
  /// try database.setSetting("player", to: "Ann")
  /// print(try database.setting("player") ?? "none")  // Ann
  /// try database.setSetting("player", to: nil)
  /// print(try database.setting("player") ?? "none")  // none
  /// ```
  ///
  /// - Parameters:
  ///   - key: The setting's name.
  ///   - value: The value to keep, replacing any before it; nil to forget the key.
  /// - Throws: GRDB's `DatabaseError` when the database cannot be written.
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
///
/// ``AppDatabase/init(app:environment:migrations:)`` throws it;
/// ``AppInfo/run(diagnostics:migrations:commands:)`` says it and exits with status 1:
///
/// ```swift
/// do {
///   _ = try AppDatabase(app: app)
/// } catch let error as AppDatabaseError {
///   print(error)  // cannot open /home/ann/.local/share/loan-scheduler/loans.sqlite: …
/// } catch {
///   print(error)  // the file could not be made private (OpenEventKit's EKError)
/// }
/// ```
public struct AppDatabaseError: Error, CustomStringConvertible {
  /// The database file that cannot be used.
  public let file: URL
  /// What is wrong with it and, where there is one, what to do: "a newer version of the app
  /// changed it (…); nothing was changed, use that version", or SQLite's reason with the
  /// command that moves a damaged file aside.
  public let reason: String

  /// `cannot open <path>: <reason>`, as the app says it.
  public var description: String { "cannot open \(file.path): \(reason)" }
}
