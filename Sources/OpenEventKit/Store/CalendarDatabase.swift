import Foundation
import GRDB
import Logging

/// The calendar database file, open for any number of readers and one writer at a time,
/// shared safely with other stores and other processes.
///
/// WAL mode lets readers go on while a writer commits, and see only committed data. Writers
/// of other processes wait their turn (busy timeout) instead of failing with "database is
/// locked".
final class CalendarDatabase: Sendable {
  let pool: DatabasePool
  let path: String

  /// How long a writer waits for another process's write transaction before giving up.
  static let busyTimeout: TimeInterval = 10

  /// Opens (creating when missing, mode 0600) and migrates the database at `location`. Any
  /// number of processes may do it at once (``DataLocation/openingSerially(_:timeout:_:)``).
  init(location: StoreLocation) throws(EKError) {
    let file = location.calendarDatabase
    try location.prepare(file)
    path = file.path
    var configuration = Configuration()
    configuration.busyMode = .timeout(CalendarDatabase.busyTimeout)
    configuration.foreignKeysEnabled = true
    configuration.label = "OpenEventKit.Calendar"
    // OPENEVENTKIT_LOG=debug (or a handler at debug): every statement with its time.
    if Log.store.logLevel <= .debug {
      configuration.prepareDatabase { db in
        db.trace(options: .profile) { event in Log.store.debug("\(event)") }
      }
    }
    do {
      pool = try DataLocation.openingSerially(file) { [path] in
        let pool = try DatabasePool(path: path, configuration: configuration)
        try CalendarSchema.migrator.migrateKnown(pool, what: "calendar database", path: path)
        return pool
      }
    } catch {
      throw DatabaseFailure.opening(
        "calendar database", path: path, error,
        damageAdvice: " (a new, empty store is made on the next start)")
    }
  }

  /// Runs `body` in one write transaction, as `pool.write` does.
  ///
  /// When SQLite refuses it for want of space, the WAL gives back the space the failed
  /// transaction's pages took: it keeps its size until a checkpoint resets it, and the disk
  /// would stay full for every other program. That checkpoint needs no space when the WAL
  /// held nothing but the failed pages, so a `large` write (an import) first moves what the
  /// WAL holds into the database, while there is room to.
  func write<T>(large: Bool = false, _ body: (Database) throws -> T) throws -> T {
    if large {
      _ = try? pool.writeWithoutTransaction { db in try db.checkpoint(.passive) }
    }
    do {
      return try pool.writeWithoutTransaction { db in try Self.inTransaction(db, body) }
    } catch {
      if DatabaseFailure.isDiskFull(error) {
        _ = try? pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
      }
      throw error
    }
  }

  /// `body` in one IMMEDIATE transaction, as `pool.write` runs it, with its BEGIN and COMMIT
  /// compiled once per connection (GRDB compiles them again for every transaction: a tenth
  /// of a single save's time, docs/PERFORMANCE.md).
  private static func inTransaction<T>(_ db: Database, _ body: (Database) throws -> T) throws
    -> T
  {
    try db.cachedStatement(sql: "BEGIN IMMEDIATE TRANSACTION").execute()
    do {
      let result = try body(db)
      try db.cachedStatement(sql: "COMMIT TRANSACTION").execute()
      return result
    } catch {
      // A failed COMMIT may leave the transaction open (SQLITE_BUSY): roll it back, so that
      // nothing of it stays and the connection is free for the next write.
      if db.isInsideTransaction { try? db.rollback() }
      throw error
    }
  }
}
