import Foundation
import OpenEventKitPaths

/// Where an account's password is kept: never in the database, but in a file of its own,
/// mode 0600, in the folder `Accounts` (0700) beside `Calendar.sqlite`, so that a sync can run
/// unattended (`ekctl sync --watch`). An account added without keeping it asks on the
/// terminal at each sync instead.
struct AccountPasswords {
  let folder: URL

  init(location: StoreLocation) {
    folder = location.folder.appendingPathComponent("Accounts", isDirectory: true)
  }

  func file(sourceId: String) -> URL {
    folder.appendingPathComponent("\(sourceId).password")
  }

  /// The kept password, or nil when none is kept. A file readable by others is narrowed to
  /// 0600 first (`DataLocation.preparePrivateFile(_:ownFolder:)`).
  func password(sourceId: String) throws(SyncError) -> String? {
    let file = file(sourceId: sourceId)
    guard FileManager.default.fileExists(atPath: file.path) else { return nil }
    do {
      try DataLocation.preparePrivateFile(file, ownFolder: true)
      let data = try Data(contentsOf: file)
      return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines)
    } catch {
      throw SyncError(.noPassword, "cannot read the password in \(file.path): \(error)")
    }
  }

  func keep(_ password: String, sourceId: String) throws(SyncError) {
    let file = file(sourceId: sourceId)
    do {
      try DataLocation.preparePrivateFile(file, ownFolder: true)
      try DataLocation.writePrivately(Data(password.utf8), to: file)
    } catch {
      throw SyncError(.store, "cannot keep the password in \(file.path): \(error)")
    }
  }

  func forget(sourceId: String) {
    try? FileManager.default.removeItem(at: file(sourceId: sourceId))
  }
}
