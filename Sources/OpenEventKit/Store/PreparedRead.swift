import GRDB
import GRDBSQLite

/// Reads the columns of the current row of a stepped statement by position, straight through
/// SQLite's C interface: the counterpart of ``ColumnBinder``.
///
/// GRDB's `Row` asks SQLite for a column's type before decoding it, and again inside the
/// decoding of an optional value, and measures text with `strlen`; a month's query reads a few
/// hundred rows of thirty-six columns, and that came to as much as SQLite's own work. Here a
/// text column is one call for its bytes and one for their length (SQLite gives no bytes for
/// NULL), and only a nullable number asks for its type.
struct ColumnReader {
  let handle: SQLiteStatement

  /// A TEXT column; nil for NULL. Other storage classes read as SQLite converts them.
  func text(_ index: CInt) -> String? {
    guard let bytes = sqlite3_column_text(handle, index) else { return nil }
    let count = Int(sqlite3_column_bytes(handle, index))
    return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
  }

  /// An INTEGER column declared NOT NULL (0 if it were NULL, as SQLite reads it).
  func integer(_ index: CInt) -> Int { Int(sqlite3_column_int64(handle, index)) }

  /// An INTEGER column; nil for NULL.
  func optionalInteger(_ index: CInt) -> Int? {
    sqlite3_column_type(handle, index) == SQLITE_NULL ? nil : integer(index)
  }

  /// A REAL column declared NOT NULL.
  func double(_ index: CInt) -> Double { sqlite3_column_double(handle, index) }

  /// A REAL column; nil for NULL.
  func optionalDouble(_ index: CInt) -> Double? {
    sqlite3_column_type(handle, index) == SQLITE_NULL ? nil : double(index)
  }

  /// A BOOLEAN column declared NOT NULL: any value but 0 is true, as GRDB reads it.
  func bool(_ index: CInt) -> Bool { sqlite3_column_int64(handle, index) != 0 }
}

extension Statement {
  /// Runs this SELECT with `arguments`, calling `body` with the columns of each row, or of
  /// the first `limit` rows. Errors are GRDB's `DatabaseError` with the SQL and arguments, as
  /// GRDB's own cursors throw them.
  func forEachRow(
    in db: Database, arguments: StatementArguments, limit: Int = .max,
    _ body: (ColumnReader) throws -> Void
  ) throws {
    try setArguments(arguments)
    let handle = sqliteStatement
    defer { sqlite3_reset(handle) }
    let columns = ColumnReader(handle: handle)
    for _ in 0..<limit {
      let code = sqlite3_step(handle)
      if code == SQLITE_DONE { return }
      guard code == SQLITE_ROW else {
        throw DatabaseError(
          resultCode: ResultCode(rawValue: code),
          message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: sql,
          arguments: arguments)
      }
      try body(columns)
    }
  }
}
