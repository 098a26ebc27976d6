import Foundation
import GRDB
import OpenEventKitPaths

/// How a failure of SQLite on one of the store's files is said to a person: what is wrong
/// with the file, in words, and what to do, never the SQL statement that met it (an INSERT
/// of a whole event says nothing to a person whose disk is full, and may be megabytes long).
///
/// Public for apps that keep a database of their own beside the store (an OpenEventKit
/// addition), so that they say its failures the same way.
///
/// ```swift
/// import GRDB
///
/// do {
///   let queue = try DatabaseQueue(path: file.path)
///   try migrator.migrate(queue)
/// } catch {
///   var reason = DatabaseFailure.reason(error)  // "the disk is full", not the SQL
///   if DatabaseFailure.isDamage(error) {
///     reason += ". To start afresh and keep it: mv \(file.path) \(file.path).damaged"
///   }
///   print("cannot open \(file.path): \(reason)")
/// }
/// ```
package enum DatabaseFailure {
  /// What went wrong, in a few words: "the disk is full", "it is not a database"…
  ///
  /// ```swift
  /// import GRDB
  ///
  /// let full = DatabaseError(resultCode: .SQLITE_FULL, sql: "INSERT INTO loans VALUES (…)")
  /// print(DatabaseFailure.reason(full))  // the disk is full
  /// print(DatabaseFailure.reason(CocoaError(.fileNoSuchFile)))  // Foundation's own description
  /// ```
  ///
  /// - Parameter error: An error of SQLite (GRDB's `DatabaseError`), or any other error.
  /// - Returns: For SQLite's errors, the reason by its result code (full, not a database,
  ///   damaged, read-only, input/output error, cannot be opened, permission denied, locked
  ///   too long), else its code and message; for another error, its `errorDescription`
  ///   or its description. Never the SQL statement.
  package static func reason(_ error: any Error) -> String {
    guard let error = error as? DatabaseError else {
      return (error as? any LocalizedError)?.errorDescription ?? "\(error)"
    }
    switch error.resultCode {
    case .SQLITE_FULL: return "the disk is full"
    case .SQLITE_NOTADB: return "it is not a database (damaged, or another kind of file)"
    case .SQLITE_CORRUPT: return "it is damaged (SQLite: \(error.message ?? "malformed"))"
    case .SQLITE_READONLY: return "it is read-only"
    case .SQLITE_IOERR: return "the disk failed to read or write it (input/output error)"
    case .SQLITE_CANTOPEN: return "it cannot be opened"
    case .SQLITE_PERM, .SQLITE_AUTH: return "permission is denied"
    case .SQLITE_BUSY, .SQLITE_LOCKED:
      return "another process kept it locked for over \(Int(CalendarDatabase.busyTimeout)) s"
    default:
      return "SQLite error \(error.resultCode.rawValue): \(error.message ?? "no message")"
    }
  }

  /// Whether the file itself is unusable: not a database, or damaged.
  ///
  /// Such a file is best left as it is and moved aside by the person, not replaced.
  ///
  /// ```swift
  /// import GRDB
  ///
  /// print(DatabaseFailure.isDamage(DatabaseError(resultCode: .SQLITE_CORRUPT)))  // true
  /// print(DatabaseFailure.isDamage(DatabaseError(resultCode: .SQLITE_FULL)))  // false
  /// ```
  ///
  /// - Parameter error: Any error; only SQLite's (GRDB's `DatabaseError`) can be damage.
  /// - Returns: True for SQLite's `SQLITE_NOTADB` and `SQLITE_CORRUPT`.
  package static func isDamage(_ error: any Error) -> Bool {
    guard let error = error as? DatabaseError else { return false }
    return error.resultCode == .SQLITE_NOTADB || error.resultCode == .SQLITE_CORRUPT
  }

  /// Whether SQLite refused to write because the disk is full.
  ///
  /// ```swift
  /// import GRDB
  ///
  /// do {
  ///   try queue.write { db in try db.execute(sql: "INSERT INTO notes VALUES ('…')") }
  /// } catch where DatabaseFailure.isDiskFull(error) {
  ///   print("Free some disk space, then save again.")
  /// }
  /// ```
  ///
  /// - Parameter error: Any error; only SQLite's (GRDB's `DatabaseError`) can say so.
  /// - Returns: True for SQLite's `SQLITE_FULL`.
  package static func isDiskFull(_ error: any Error) -> Bool {
    (error as? DatabaseError)?.resultCode == .SQLITE_FULL
  }

  /// The error of a database that cannot be opened. A damaged file is left untouched, and
  /// the message says how to start afresh without losing it; `damageAdvice` adds what the
  /// file is for ("every app will ask again").
  static func opening(
    _ what: String, path: String, _ error: any Error, damageAdvice: String = ""
  ) -> EKError {
    if let error = error as? EKError { return error }
    if let error = error as? DataLocationError { return EKError(.internalFailure, error.message) }
    var message = "cannot open the \(what) \(path): \(reason(error))."
    if isDamage(error) {
      message +=
        " Nothing was changed. To start afresh and keep it: mv \(path) \(path).damaged"
        + damageAdvice
    }
    return EKError(.internalFailure, message)
  }

  /// The error of a database written by a newer version (its migrations include ones this
  /// version does not know): it is not touched, since a downgrade could lose what they added.
  static func newer(_ what: String, path: String, unknown: Set<String>) -> EKError {
    EKError(
      .internalFailure,
      "cannot open the \(what) \(path): a newer version of OpenEventKit changed it (\(unknown.sorted().joined(separator: ", "))). "
        + "Nothing was changed; use that version, or a newer one.")
  }
}

extension DatabaseMigrator {
  /// The migrations applied to the database that this migrator does not know: a newer
  /// version's. GRDB's `migrate` goes on past them and leaves the database half understood,
  /// so a database with any is not to be opened. Empty for a new database. Package API, for
  /// OpenEventKitApp's `AppDatabase` (the apps' own databases).
  ///
  /// ```swift
  /// import GRDB
  ///
  /// let unknown = try migrator.unknownMigrations(queue)
  /// guard unknown.isEmpty else {
  ///   print("a newer version of the app changed \(file.path); nothing was changed")
  ///   return
  /// }
  /// try migrator.migrate(queue)
  /// ```
  ///
  /// - Parameter writer: The open database (a `DatabaseQueue` or `DatabasePool`).
  /// - Returns: The identifiers of the migrations applied to it that this migrator has not
  ///   registered.
  /// - Throws: GRDB's `DatabaseError` when the database cannot be read.
  package func unknownMigrations(_ writer: any DatabaseWriter) throws -> Set<String> {
    // GRDB's `appliedIdentifiers` reads even those it has not registered, and none from a
    // database never migrated.
    try writer.read { db in try appliedIdentifiers(db).subtracting(migrations) }
  }

  /// Migrates `writer` as ``DatabaseMigrator/migrate(_:)`` does, after refusing a database
  /// with ``unknownMigrations(_:)``.
  func migrateKnown(_ writer: any DatabaseWriter, what: String, path: String) throws {
    // Every app and every ekctl call opens the store: when the file has exactly the known
    // migrations (all of them completed, none a newer version's), two reads on the connection
    // that writes say so, where the check below reads on a connection of its own and GRDB's
    // migrator then reads the schema again.
    let upToDate = try writer.writeWithoutTransaction { db in
      try hasCompletedMigrations(db) && !hasBeenSuperseded(db)
    }
    if upToDate { return }
    let unknown = try unknownMigrations(writer)
    guard unknown.isEmpty else { throw DatabaseFailure.newer(what, path: path, unknown: unknown) }
    try migrate(writer)
  }
}
