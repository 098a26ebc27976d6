import Foundation
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
  /// How many values were bound.
  var count: CInt { index - 1 }
  /// The first failing result code, if any.
  private(set) var failure = SQLITE_OK

  init(handle: SQLiteStatement) { self.handle = handle }

  mutating func add<Value: DatabaseValueConvertible>(_ value: Value?) {
    record(value.map { $0.bind(to: handle, at: index) } ?? sqlite3_bind_null(handle, index))
  }

  /// A text, bound from the string's own UTF-8 bytes: GRDB's binding first copies it into a
  /// C string, which SQLite then measures and copies again (a row has a dozen texts). Bound
  /// up to a NUL, as a C string is (validation refuses texts that hold one).
  mutating func add(_ value: String?) {
    guard var value else { return record(sqlite3_bind_null(handle, index)) }
    let index = index
    record(
      value.withUTF8 { bytes in
        guard let start = bytes.baseAddress, !bytes.isEmpty else {
          return sqlite3_bind_text(handle, index, "", 0, Self.transient)
        }
        // A C string ends at its first NUL; memchr finds it as fast as strlen would.
        let length =
          memchr(start, 0, bytes.count).map { UnsafeRawPointer(start).distance(to: $0) }
          ?? bytes.count
        return start.withMemoryRebound(to: CChar.self, capacity: length) {
          sqlite3_bind_text(handle, index, $0, CInt(length), Self.transient)
        }
      })
  }

  /// SQLITE_TRANSIENT, a C macro Swift does not import: SQLite copies the bytes at once.
  private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

  private mutating func record(_ code: CInt) {
    if code != SQLITE_OK && failure == SQLITE_OK { failure = code }
    index += 1
  }
}

extension Statement {
  /// Runs this prepared INSERT or UPDATE with the values `bind` adds. Errors are GRDB's
  /// `DatabaseError` with the SQL and, computed only then, the arguments.
  ///
  /// `bind` must bind every parameter: the previous run's values are not cleared (clearing a
  /// row's few dozen bindings cost a twentieth of writing it), each is replaced.
  func run(
    in db: Database, arguments: () -> [(any DatabaseValueConvertible)?],
    bind: (inout ColumnBinder) -> Void
  ) throws {
    let handle = sqliteStatement
    sqlite3_reset(handle)
    defer { sqlite3_reset(handle) }
    var binder = ColumnBinder(handle: handle)
    bind(&binder)
    assert(binder.count == sqlite3_bind_parameter_count(handle), "a parameter left unbound")
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
