import GRDBSQLite

/// A read-only connection of its own to one database, that reads `PRAGMA data_version`:
/// a number that changes exactly when another connection has committed to the database
/// (<https://sqlite.org/pragma.html#pragma_data_version>).
///
/// ``DatabaseChangeWatcher`` keeps one per watched file. It is SQLite's C interface and one
/// prepared statement, not a GRDB `DatabaseQueue`: opening a queue (its serial dispatch queue,
/// its configuration statements) cost every `EKEventStore` — every `ekctl` command — several
/// milliseconds, for a connection that only ever reads one number.
final class DataVersionReader {
  private var connection: OpaquePointer?
  private var statement: OpaquePointer?

  /// Opens `path` read-only (it must exist: the store made it first).
  init(path: String) throws(EKError) {
    let flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX
    var code = sqlite3_open_v2(path, &connection, flags, nil)
    if code == SQLITE_OK {
      code = sqlite3_prepare_v2(connection, "PRAGMA data_version", -1, &statement, nil)
    }
    guard code == SQLITE_OK else {
      let reason = connection.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      sqlite3_finalize(statement)
      sqlite3_close(connection)
      throw EKError(.internalFailure, "cannot watch \(path) for changes: \(reason)")
    }
  }

  deinit {
    sqlite3_finalize(statement)
    sqlite3_close(connection)
  }

  /// The current data version; nil when SQLite cannot read it (the file is busy being
  /// recovered, say): the caller looks again later.
  func version() -> Int? {
    defer { sqlite3_reset(statement) }
    guard sqlite3_step(statement) == SQLITE_ROW else { return nil }
    return Int(sqlite3_column_int64(statement, 0))
  }
}
