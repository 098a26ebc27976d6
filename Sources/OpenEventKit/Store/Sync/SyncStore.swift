import Foundation
import GRDB
import OpenEventKitPaths

/// The store as the CalDAV sync engine (`Sync/`) sees it: its one door into the calendar
/// database and the `Accounts` folder beside it (<doc:Sync>). The engine talks to the server
/// and decides; each method here is one of its transactions, whole, so that what a sync
/// records stays as atomic as it was when the engine wrote the SQL itself: a sync killed
/// between two methods leaves each either done or not.
///
/// `package`, with the records it returns, because the engine is to leave this module for
/// a target of its own (issue 44) and reach the store through this door only; apps never see
/// it. The engine's steps are in `SyncStore+Calendars.swift`, `+Push.swift` and `+Pull.swift`.
package struct SyncStore: Sendable {
  let database: CalendarDatabase
  let location: StoreLocation

  /// The store of a database already open (an `EKEventStore`'s).
  init(database: CalendarDatabase, location: StoreLocation) {
    self.database = database
    self.location = location
  }

  /// Opens the calendar database at `location`, creating it (mode 0600) when missing.
  init(location: StoreLocation) throws(EKError) {
    self.init(database: try CalendarDatabase(location: location), location: location)
  }

  /// The user's store (`OPENEVENTKIT_HOME` and the XDG folders apply, as for
  /// `EKEventStore()`), opened as ``init(location:)`` does.
  package static func current() throws(EKError) -> SyncStore {
    try SyncStore(location: .current())
  }

  /// The calendar database file at `databaseFile`, opened as ``init(location:)`` does.
  package init(databaseFile: URL) throws(EKError) {
    try self.init(location: StoreLocation(databaseFile: databaseFile))
  }

  // MARK: Accounts

  /// An account as `ekctl accounts` lists it: its row, its calendars that are collections,
  /// and how many changes wait to be sent, read in one transaction.
  package struct AccountState: Sendable {
    package var record: AccountRecord
    package var calendars: [(calendar: CalendarRecord, collection: CollectionRecord)]
    package var pendingChanges: Int
  }

  /// Every account, by name (ignoring case).
  package func accountStates() throws -> [AccountState] {
    try database.pool.read { db in
      try AccountRows.all(db).map { try Self.state(of: $0, db) }
    }
  }

  /// What ``accountState(named:)`` found.
  package enum Lookup: Sendable {
    case found(AccountState)
    /// No account has the name; these are the names there are.
    case missing(names: [String])
  }

  /// The account named `name` (ignoring case), or the names of those there are.
  package func accountState(named name: String) throws -> Lookup {
    try database.pool.read { db in
      guard let record = try AccountRows.account(db, named: name) else {
        return .missing(names: try AccountRecord.fetchAll(db).map(\.name))
      }
      return .found(try Self.state(of: record, db))
    }
  }

  private static func state(of record: AccountRecord, _ db: Database) throws -> AccountState {
    AccountState(
      record: record, calendars: try CollectionRecord.ofSource(db, sourceId: record.sourceId),
      pendingChanges: try OutboxEntry.count(db, sourceId: record.sourceId))
  }

  /// The row of the account named `name` (ignoring case), or nil.
  package func account(named name: String) throws -> AccountRecord? {
    try database.pool.read { db in try AccountRows.account(db, named: name) }
  }

  /// The row of the account of a source, or nil.
  package func account(sourceId: String) throws -> AccountRecord? {
    try database.pool.read { db in try AccountRecord.fetchOne(db, key: sourceId) }
  }

  /// Adds an account and the calendars discovery found, in one transaction
  /// (``AccountRows/add(_:name:url:homeURL:user:calendars:)``); returns its source's
  /// identifier.
  package func addAccount(
    name: String, url: String, homeURL: String, user: String, calendars: [ServerCalendar]
  ) throws -> String {
    try database.write { db in
      try AccountRows.add(
        db, name: name, url: url, homeURL: homeURL, user: user, calendars: calendars)
    }
  }

  /// Removes an account with everything of it kept in the database.
  package func removeAccount(sourceId: String) throws {
    try database.write { db in try AccountRows.remove(db, sourceId: sourceId) }
  }

  /// Records how a sync of the account ended (``AccountRows/recordSync(_:sourceId:failure:)``).
  package func recordSync(sourceId: String, failure: String?) throws {
    try database.write { db in
      try AccountRows.recordSync(db, sourceId: sourceId, failure: failure)
    }
  }

  /// How old an account's last sync must be before a background sync
  /// (`refreshSourcesIfNecessary()`) syncs it again: its data counts as out of date after
  /// this long.
  package static let refreshAge: TimeInterval = 60

  /// The accounts a background sync takes on at `now`: those last synced `age` seconds ago
  /// or more (or never), and keeping a password that reads. An account that asks for its
  /// password on the terminal is synced by hand.
  package func dueAccounts(now: Date, age: TimeInterval) throws -> [AccountRecord] {
    try database.pool.read { db in try AccountRecord.fetchAll(db) }.filter {
      now.timeIntervalSince1970 - ($0.lastSync ?? 0) >= age
        && (try? keptPassword(sourceId: $0.sourceId)) != nil
    }
  }

  // MARK: Passwords

  /// The folder `Accounts` (0700) beside the calendar database: each account's kept password
  /// (``passwordFile(sourceId:)``) and the lock of its sync. Never in the database itself.
  package var accountsFolder: URL { Self.accountsFolder(of: location.calendarDatabase) }

  /// The `Accounts` folder of the calendar database `databaseFile`: beside it.
  static func accountsFolder(of databaseFile: URL) -> URL {
    databaseFile.deletingLastPathComponent().appendingPathComponent("Accounts", isDirectory: true)
  }

  /// The file of an account's kept password, mode 0600.
  package func passwordFile(sourceId: String) -> URL {
    accountsFolder.appendingPathComponent("\(sourceId).password")
  }

  /// The account's kept password, or nil when none is kept. A file readable by others is
  /// narrowed to 0600 first (`DataLocation.preparePrivateFile(_:ownFolder:)`).
  ///
  /// - Throws: The error of preparing or reading the file, when one is kept.
  package func keptPassword(sourceId: String) throws -> String? {
    let file = passwordFile(sourceId: sourceId)
    guard FileManager.default.fileExists(atPath: file.path) else { return nil }
    try DataLocation.preparePrivateFile(file, ownFolder: true)
    let data = try Data(contentsOf: file)
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines)
  }

  // MARK: Failures

  /// A failure of SQLite under one of these methods, for the engine to say in words without
  /// knowing the database's errors: ``DatabaseFailure``'s reason and whether the disk is full.
  package struct Failure: Sendable {
    package let reason: String
    package let isDiskFull: Bool

    /// The failure `error` is, or nil when it is not SQLite's.
    package init?(_ error: any Error) {
      guard error is DatabaseError else { return nil }
      reason = DatabaseFailure.reason(error)
      isDiskFull = DatabaseFailure.isDiskFull(error)
    }
  }
}
