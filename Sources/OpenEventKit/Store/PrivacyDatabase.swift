import Foundation
import GRDB
import OpenEventKitPaths

/// The person's decisions about which app may use which of their data, kept in their own
/// database (`Privacy.sqlite`, mode 0600, beside `Calendar.sqlite`), so that the calendar data
/// and who may see it are separate files.
///
/// One row per app and entity type: the status, when it was decided, and how (`prompt`,
/// `ekctl`…), and whether the person refused full access to an app they had given write-only
/// access (the prompt is shown once for each level, as on Apple's systems). No row means not
/// determined: the app has not asked yet.
final class PrivacyDatabase: Sendable {
  let queue: DatabaseQueue
  let path: String

  init(location: StoreLocation) throws(EKError) {
    let file = location.privacyDatabase
    try location.prepare(file)
    path = file.path
    do {
      queue = try location.openSideDatabase(
        file, label: "OpenEventKit.Privacy", migrator: PrivacyDatabase.migrator,
        what: "privacy database")
    } catch {
      throw DatabaseFailure.opening(
        "privacy database", path: path, error,
        damageAdvice: ", or run `ekctl privacy reset`, which does that for you. Until then, "
          + "no app has access.")
    }
  }

  /// When the privacy database at `location` cannot be read because the file is damaged (or
  /// is not a database), renames it, with its `-wal` and `-shm` files, to
  /// `Privacy.sqlite.damaged-<date>` beside it, and returns the new name: the next open
  /// starts with no decisions, so every app asks again. Nil when the file is sound or absent.
  ///
  /// Only the person's explicit reset does this (`ekctl privacy reset`): opening a damaged
  /// file otherwise fails, and no app has access until then.
  static func setAsideIfDamaged(_ location: StoreLocation) throws(EKError) -> URL? {
    let file = location.privacyDatabase
    guard FileManager.default.fileExists(atPath: file.path) else { return nil }
    let damaged: Bool
    do {
      damaged = try DataLocation.openingSerially(file) {
        do {
          let queue = try DatabaseQueue(path: file.path)
          let verdict = try queue.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check") }
          return verdict != ["ok"]
        } catch {
          guard DatabaseFailure.isDamage(error) else { throw error }
          return true
        }
      }
    } catch {
      throw DatabaseFailure.opening("privacy database", path: file.path, error)
    }
    guard damaged else { return nil }
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = "yyyyMMdd-HHmmss"
    let aside = URL(fileURLWithPath: file.path + ".damaged-" + formatter.string(from: Date()))
    for suffix in ["", "-wal", "-shm"]
    where FileManager.default.fileExists(atPath: file.path + suffix) {
      guard rename(file.path + suffix, aside.path + suffix) == 0 else {
        throw EKError(
          .internalFailure,
          "cannot move \(file.path + suffix) aside: \(String(cString: strerror(errno)))")
      }
    }
    return aside
  }

  static var migrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1") { db in
      try db.create(table: "decision") { t in
        t.column("bundleIdentifier", .text).notNull()
        t.column("entityType", .integer).notNull()  // EKEntityType
        t.column("status", .integer).notNull()  // EKAuthorizationStatus
        t.column("decidedAt", .double).notNull()
        t.column("how", .text).notNull()
        t.primaryKey(["bundleIdentifier", "entityType"])
      }
    }
    // Apple's systems prompt once for each access level: a write-only app refused full access
    // is not asked again. The refusal leaves write-only in place, so it is kept beside it.
    migrator.registerMigration("v2 fullAccessRefused") { db in
      try db.alter(table: "decision") { t in
        t.add(column: "fullAccessRefused", .boolean).notNull().defaults(to: false)
      }
    }
    return migrator
  }

  /// One decision.
  struct Decision: Hashable, Sendable {
    var bundleIdentifier: String
    var entityType: EKEntityType
    var status: EKAuthorizationStatus
    var decidedAt: Date
    var how: String
    var fullAccessRefused = false
  }

  /// The status of an app for an entity type: `.notDetermined` when nothing was decided.
  func status(of bundleIdentifier: String, for entityType: EKEntityType) throws(EKError)
    -> EKAuthorizationStatus
  {
    let raw = try run {
      try Int.fetchOne(
        $0, sql: "SELECT status FROM decision WHERE bundleIdentifier = ? AND entityType = ?",
        arguments: [bundleIdentifier, entityType.rawValue])
    }
    return raw.flatMap(EKAuthorizationStatus.init(rawValue:)) ?? .notDetermined
  }

  /// Whether the person refused full access to an app they had given write-only access, at
  /// the prompt: a later request for full access is answered false without the prompt.
  func refusedFullAccess(of bundleIdentifier: String, for entityType: EKEntityType)
    throws(EKError) -> Bool
  {
    try run {
      try Bool.fetchOne(
        $0,
        sql: """
          SELECT fullAccessRefused FROM decision WHERE bundleIdentifier = ? AND entityType = ?
          """,
        arguments: [bundleIdentifier, entityType.rawValue])
    } ?? false
  }

  /// Records that the person refused full access at the prompt to an app that keeps its
  /// write-only access; nothing when the app has no write-only decision.
  func refuseFullAccess(for bundleIdentifier: String, entityType: EKEntityType) throws(EKError) {
    try runWrite {
      try $0.execute(
        sql: """
          UPDATE decision SET fullAccessRefused = 1
          WHERE bundleIdentifier = ? AND entityType = ? AND status = ?
          """,
        arguments: [
          bundleIdentifier, entityType.rawValue, EKAuthorizationStatus.writeOnly.rawValue,
        ])
    }
  }

  /// Records a decision (replacing any earlier one for the same app and entity type, and the
  /// record of a refused upgrade with it: from a new decision, the person is asked again).
  func decide(
    _ status: EKAuthorizationStatus, for bundleIdentifier: String, entityType: EKEntityType,
    how: String, at date: Date = Date()
  ) throws(EKError) {
    try runWrite {
      try $0.execute(
        sql: """
          INSERT INTO decision (bundleIdentifier, entityType, status, decidedAt, how)
          VALUES (?, ?, ?, ?, ?)
          ON CONFLICT(bundleIdentifier, entityType) DO UPDATE SET
            status = excluded.status, decidedAt = excluded.decidedAt, how = excluded.how,
            fullAccessRefused = 0
          """,
        arguments: [
          bundleIdentifier, entityType.rawValue, status.rawValue, date.timeIntervalSince1970, how,
        ])
    }
  }

  /// Every decision, by app and entity type.
  func decisions() throws(EKError) -> [Decision] {
    try run { db in
      try Row.fetchAll(
        db,
        sql: "SELECT * FROM decision ORDER BY bundleIdentifier, entityType"
      ).map { row in
        Decision(
          bundleIdentifier: row["bundleIdentifier"],
          entityType: EKEntityType(rawValue: row["entityType"]) ?? .event,
          status: EKAuthorizationStatus(rawValue: row["status"]) ?? .notDetermined,
          decidedAt: Date(timeIntervalSince1970: row["decidedAt"]), how: row["how"],
          fullAccessRefused: row["fullAccessRefused"] ?? false)
      }
    }
  }

  /// Forgets one decision: the app will be asked again.
  func forget(_ bundleIdentifier: String, entityType: EKEntityType) throws(EKError) {
    try runWrite {
      try $0.execute(
        sql: "DELETE FROM decision WHERE bundleIdentifier = ? AND entityType = ?",
        arguments: [bundleIdentifier, entityType.rawValue])
    }
  }

  /// Forgets the decisions of one app, or of every app: they will be asked again.
  func reset(_ bundleIdentifier: String?) throws(EKError) {
    try runWrite { db in
      if let bundleIdentifier {
        try db.execute(
          sql: "DELETE FROM decision WHERE bundleIdentifier = ?", arguments: [bundleIdentifier])
      } else {
        try db.execute(sql: "DELETE FROM decision")
      }
    }
  }

  private func run<T>(_ body: (Database) throws -> T) throws(EKError) -> T {
    do {
      return try queue.read(body)
    } catch {
      throw EKError(
        .internalFailure,
        "cannot read the privacy database \(path): \(DatabaseFailure.reason(error))")
    }
  }

  private func runWrite(_ body: (Database) throws -> Void) throws(EKError) {
    do {
      try queue.write(body)
    } catch {
      throw EKError(
        .internalFailure,
        "cannot write the privacy database \(path): \(DatabaseFailure.reason(error))")
    }
  }
}
