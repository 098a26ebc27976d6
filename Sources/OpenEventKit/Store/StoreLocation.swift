import Foundation

/// Where a user's calendar database lives: one folder per user, shared by every app.
///
/// The folder is ``DataLocation/storeFolder(environment:)``: `$OPENEVENTKIT_HOME` when set,
/// otherwise `OpenEventKit` in the XDG data folder.
struct StoreLocation: Sendable, Hashable {
  let folder: URL
  let calendarDatabase: URL

  var privacyDatabase: URL { folder.appendingPathComponent("Privacy.sqlite") }

  init(folder: URL) {
    self.folder = folder
    calendarDatabase = folder.appendingPathComponent("Calendar.sqlite")
  }

  /// A database file of any name; the privacy decisions are the `Privacy.sqlite` beside it.
  init(databaseFile: URL) {
    folder = databaseFile.deletingLastPathComponent()
    calendarDatabase = databaseFile
  }

  /// The user's store, from the environment (``DataLocation/storeFolder(environment:)``).
  static func current(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> StoreLocation {
    StoreLocation(folder: DataLocation.storeFolder(environment: environment))
  }

  /// Makes `file`, a database of this store, private to the user before SQLite opens it.
  func prepare(_ file: URL) throws(EKError) {
    try DataLocation.preparePrivateFile(file)
  }
}
