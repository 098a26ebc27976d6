import Foundation
import OpenEventKit
import OpenEventKitPaths

/// One sync of an account at a time, across processes: an advisory `flock` on a file of the
/// account's beside its password. A second sync (another `ekctl sync`, the sync agent an
/// app's `refreshSourcesIfNecessary()` asked) is refused rather than queued: the first one
/// sends and receives everything the second would have. The refusal waits up to a second
/// (``FileLock``), past the moment a process this one is starting holds the lock too. The
/// kernel drops the lock when its holder dies, so a killed sync leaves nothing to clear.
final class SyncLock {
  private var descriptor: Int32

  convenience init(file: URL, account: String) throws(SyncError) {
    try self.init(file: file, busy: "the account \"\(account)\" is being synced by another process")
  }

  /// A lock on `file`; `busy` is the message when another process holds it.
  init(file: URL, busy: String) throws(SyncError) {
    do {
      try DataLocation.preparePrivateFile(file, ownFolder: true)
    } catch {
      throw SyncError(.store, "cannot prepare \(file.path): \(error.message)")
    }
    descriptor = open(file.path, O_RDWR | O_CLOEXEC | O_NOFOLLOW)
    guard descriptor >= 0 else {
      throw SyncError(.store, "cannot open \(file.path): \(String(cString: strerror(errno)))")
    }
    guard FileLock.take(descriptor, LOCK_EX) else {
      close(descriptor)
      descriptor = -1
      throw SyncError(.busy, busy)
    }
  }

  func release() {
    guard descriptor >= 0 else { return }
    close(descriptor)
    descriptor = -1
  }

  deinit { release() }
}
