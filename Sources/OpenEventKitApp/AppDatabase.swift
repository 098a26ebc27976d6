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
/// between runs, such as the calendar chosen with ``CalendarChoice``.
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
    queue = try DatabaseQueue(path: file.path, configuration: configuration)
    var migrator = DatabaseMigrator()
    migrations(&migrator)
    // After the app's own: apps that made their own table of settings first keep it.
    migrator.registerMigration("OpenEventKitApp settings") { db in
      try db.create(table: "setting", ifNotExists: true) { table in
        table.primaryKey("key", .text)
        table.column("value", .text).notNull()
      }
    }
    do {
      try migrator.migrate(queue)
    } catch {
      // Two processes that start at once may both find a migration not yet applied; the one
      // that loses fails on what the other made. Each migration is a transaction of its own,
      // so looking again finds it applied, and goes on from there.
      try migrator.migrate(queue)
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
