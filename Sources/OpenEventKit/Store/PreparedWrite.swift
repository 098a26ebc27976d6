import GRDB
import GRDBSQLite

extension Statement {
  /// Runs this prepared INSERT or UPDATE with `values` bound by position, straight through
  /// SQLite's C interface.
  ///
  /// GRDB's `StatementArguments` converts every value through generic code that costs more than
  /// SQLite's own work for a wide row; a commit of thousands of items binds the row's few dozen
  /// values directly instead. Errors are GRDB's `DatabaseError`, with the SQL and arguments.
  func run(binding values: [(any DatabaseValueConvertible)?], in db: Database) throws {
    let handle = sqliteStatement
    sqlite3_reset(handle)
    defer {
      sqlite3_reset(handle)
      sqlite3_clear_bindings(handle)
    }
    for (offset, value) in values.enumerated() {
      let index = CInt(offset + 1)
      let code = value?.bind(to: handle, at: index) ?? sqlite3_bind_null(handle, index)
      guard code == SQLITE_OK else { throw failure(code, values, db) }
    }
    let code = sqlite3_step(handle)
    guard code == SQLITE_DONE else { throw failure(code, values, db) }
  }

  private func failure(
    _ code: CInt, _ values: [(any DatabaseValueConvertible)?], _ db: Database
  ) -> DatabaseError {
    DatabaseError(
      resultCode: ResultCode(rawValue: code),
      message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: sql,
      arguments: StatementArguments(values))
  }
}
