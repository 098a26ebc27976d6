import Foundation
import GRDB

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

  /// Opens (creating when missing, mode 0600) and migrates the database at `location`.
  init(location: StoreLocation) throws(EKError) {
    let file = location.calendarDatabase
    try location.prepare(file)
    path = file.path
    var configuration = Configuration()
    configuration.busyMode = .timeout(CalendarDatabase.busyTimeout)
    configuration.foreignKeysEnabled = true
    configuration.label = "OpenEventKit.Calendar"
    do {
      pool = try DatabasePool(path: path, configuration: configuration)
      try CalendarSchema.migrator.migrate(pool)
    } catch {
      throw EKError(.internalFailure, "cannot open the calendar database \(path): \(error)")
    }
  }
}
