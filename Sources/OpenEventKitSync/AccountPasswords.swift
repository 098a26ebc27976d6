import Foundation
import OpenEventKit
import OpenEventKitPaths

/// Where an account's password is kept: never in the database, but in a file of its own,
/// mode 0600, in the folder `Accounts` (0700) beside `Calendar.sqlite`
/// (`SyncStore.passwordFile(sourceId:)`), so that a sync can run unattended (`ekctl sync
/// --watch`). An account added without keeping it asks on the terminal at each sync instead.
struct AccountPasswords {
  let store: SyncStore

  init(store: SyncStore) {
    self.store = store
  }

  var folder: URL { store.accountsFolder }

  func file(sourceId: String) -> URL {
    store.passwordFile(sourceId: sourceId)
  }

  /// The kept password, or nil when none is kept. A file readable by others is narrowed to
  /// 0600 first (`SyncStore.keptPassword(sourceId:)`).
  func password(sourceId: String) throws(SyncError) -> String? {
    do {
      return try store.keptPassword(sourceId: sourceId)
    } catch {
      throw SyncError(
        .noPassword, "cannot read the password in \(file(sourceId: sourceId).path): \(error)")
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
