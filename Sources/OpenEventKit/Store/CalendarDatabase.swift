import CFileSystem
import Foundation
import GRDB
import Logging
import OpenEventKitPaths
import Synchronization

/// The calendar database file, open for any number of readers and one writer at a time,
/// shared safely with other stores and other processes.
///
/// WAL mode lets readers go on while a writer commits, and see only committed data. Writers
/// of other processes wait their turn (busy timeout) instead of failing with "database is
/// locked".
final class CalendarDatabase: Sendable {
  let pool: DatabasePool
  let path: String
  /// What this store's writes have seen committed of the bounds `meta` keeps.
  private let bounds = Mutex(MetaBounds())

  /// How long a writer waits for another process's write transaction before giving up.
  static let busyTimeout: TimeInterval = 10

  /// Opens (creating when missing, mode 0600) and migrates the database at `location`. Any
  /// number of processes may do it at once (`DataLocation.openingSerially(_:timeout:_:)`).
  init(location: StoreLocation) throws(EKError) {
    let file = location.calendarDatabase
    try location.prepare(file)
    path = file.path
    var configuration = Configuration()
    configuration.busyMode = .timeout(CalendarDatabase.busyTimeout)
    configuration.foreignKeysEnabled = true
    configuration.label = "OpenEventKit.Calendar"
    if CalendarDatabase.mayMap(folder: file.deletingLastPathComponent().path) {
      configuration.prepareDatabase { db in
        try db.execute(sql: "PRAGMA mmap_size = \(CalendarDatabase.mappedSize)")
      }
    }
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

  /// How much of the file each connection maps into memory to read it (256 MB, more than a
  /// lifetime of calendars).
  ///
  /// A window query reads a few hundred rows scattered over the file; read with `pread` each
  /// page is a system call and a copy, mapped it is a memory read (a tenth of a month query,
  /// docs/PERFORMANCE.md). Writes still go through the WAL with `pwrite` and `fsync`, so what
  /// a commit makes durable is unchanged (https://sqlite.org/mmap.html).
  static let mappedSize = 256 << 20

  /// Whether the database in `folder` may be read through a memory map: not on a network
  /// or FUSE file system, where a read that fails (the server gone, the share unmounted) would
  /// be a SIGBUS that stops the app rather than an error the store reports (SQLite's caveat,
  /// https://sqlite.org/mmap.html). Unknown (statfs fails): not mapped.
  static func mayMap(folder: String) -> Bool {
    var info = statfs()
    guard statfs(folder, &info) == 0 else { return false }
    return !networkFileSystems.contains(Int64(info.f_type))
  }

  /// The `statfs` types (linux/magic.h) of file systems whose reads can fail for reasons
  /// other than the disk: NFS, SMB and CIFS, SMB2, FUSE (sshfs and the like), Ceph, AFS,
  /// 9P (virtual machines' and WSL's shares). An array: making a `Set` of a key type for the
  /// first time costs the runtime a scan of every protocol conformance in the process
  /// (docs/PERFORMANCE.md), and every app opening its store would pay it.
  static let networkFileSystems: [Int64] = [
    0x6969, 0x517B, 0xFF53_4D42, 0xFE53_4D42, 0x6573_5546, 0x00C3_6400, 0x5346_414F,
    0x0102_1997,
  ]

  /// Runs `body` in one write transaction, as `pool.write` does.
  ///
  /// When SQLite refuses it for want of space, the WAL gives back the space the failed
  /// transaction's pages took: it keeps its size until a checkpoint resets it, and the disk
  /// would stay full for every other program. That checkpoint needs no space when the WAL
  /// held nothing but the failed pages, so a `large` write (an import) first moves what the
  /// WAL holds into the database, while there is room to. A `large` write also keeps its
  /// changed pages in memory until it commits (``largeWriteCacheSize``).
  func write<T>(large: Bool = false, _ body: (Database) throws -> T) throws -> T {
    if large {
      _ = try? pool.writeWithoutTransaction { db in try db.checkpoint(.passive) }
    }
    do {
      return try pool.writeWithoutTransaction { db in
        guard large else { return try Self.inTransaction(db, body) }
        let cacheSize = try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? -2000
        try db.execute(sql: "PRAGMA cache_size = \(Self.largeWriteCacheSize)")
        defer { try? db.execute(sql: "PRAGMA cache_size = \(cacheSize)") }
        return try Self.inTransaction(db, body)
      }
    } catch {
      if DatabaseFailure.isDiskFull(error) {
        _ = try? pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
      }
      throw error
    }
  }

  /// The bounds in `meta` that this store's writes have seen committed (``MetaBounds``).
  func committedBounds() -> MetaBounds { bounds.withLock { $0 } }

  /// Keeps `committed`, the bounds a committed write left, beside what was known: both are
  /// true bounds, whichever write committed first.
  func keep(_ committed: MetaBounds) {
    bounds.withLock { $0 = $0.widened(by: committed) }
  }

  /// The page cache a `large` write may fill, in SQLite's unit for it (negative: KiB):
  /// 128 MiB, taken only as pages are changed and given back when the write ends. With
  /// SQLite's default of 2 MiB, an import of 50,000 events spilled its changed pages into
  /// the WAL half way and read them back as they changed again: 51,700 pages written and
  /// 36,000 read, against 28,700 and 13,100 (the commit and its checkpoint) with this.
  static let largeWriteCacheSize = -131_072

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
      CrashPoint.commit.passed()
      return result
    } catch {
      // A failed COMMIT may leave the transaction open (SQLITE_BUSY): roll it back, so that
      // nothing of it stays and the connection is free for the next write.
      if db.isInsideTransaction { try? db.rollback() }
      throw error
    }
  }
}

extension EKEventStore {
  /// `PRAGMA synchronous` of a store's writer connection, the one every commit of the store
  /// goes through.
  package enum Synchronous: Int, Sendable {
    /// GRDB's setting for a WAL database, which the store keeps: a commit writes the log and
    /// does not sync it; checkpoints sync (https://sqlite.org/pragma.html#pragma_synchronous).
    case normal = 1
    /// Every commit syncs the log before it returns.
    case full = 2
  }

  /// The setting of this store's writer connection; nil when the database is not open or the
  /// setting is another.
  package func writerSynchronous() throws -> Synchronous? {
    try database?.pool.writeWithoutTransaction { db in
      try Int.fetchOne(db, sql: "PRAGMA synchronous").flatMap(Synchronous.init(rawValue:))
    }
  }

  /// Sets this store's writer connection to `mode`, for the commits it makes from now on.
  ///
  /// For `ekbench batching --synchronous full` only, which measures what a batch buys under
  /// each setting (docs/PERFORMANCE.md). Not public: the store's durability is the store's
  /// choice, not an app's.
  package func setWriterSynchronous(_ mode: Synchronous) throws {
    try database?.pool.writeWithoutTransaction { db in
      try db.execute(sql: "PRAGMA synchronous = \(mode.rawValue)")
    }
  }
}
