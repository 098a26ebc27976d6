import GRDB
import GRDBSQLite

/// Binds values by position to a prepared statement, straight through SQLite's C interface.
///
/// GRDB's `StatementArguments` converts every value through generic code that costs more than
/// SQLite's own work for a wide row; a commit of thousands of items binds each row's few
/// dozen values directly instead, each through its own type's binding.
struct ColumnBinder {
  let handle: SQLiteStatement
  private(set) var index: CInt = 1
  /// The first failing result code, if any.
  private(set) var failure = SQLITE_OK

  init(handle: SQLiteStatement) { self.handle = handle }

  mutating func add<Value: DatabaseValueConvertible>(_ value: Value?) {
    let code = value.map { $0.bind(to: handle, at: index) } ?? sqlite3_bind_null(handle, index)
    if code != SQLITE_OK && failure == SQLITE_OK { failure = code }
    index += 1
  }
}

extension Statement {
  /// Runs this prepared INSERT or UPDATE with the values `bind` adds. Errors are GRDB's
  /// `DatabaseError` with the SQL and, computed only then, the arguments.
  func run(
    in db: Database, arguments: () -> [(any DatabaseValueConvertible)?],
    bind: (inout ColumnBinder) -> Void
  ) throws {
    let handle = sqliteStatement
    sqlite3_reset(handle)
    defer {
      sqlite3_reset(handle)
      sqlite3_clear_bindings(handle)
    }
    var binder = ColumnBinder(handle: handle)
    bind(&binder)
    var code = binder.failure
    if code == SQLITE_OK { code = sqlite3_step(handle) }
    guard code == SQLITE_DONE else {
      throw DatabaseError(
        resultCode: ResultCode(rawValue: code),
        message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: sql,
        arguments: StatementArguments(arguments()))
    }
  }
}
