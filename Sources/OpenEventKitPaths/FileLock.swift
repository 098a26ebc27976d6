import Foundation

/// `flock(2)` that does not queue behind another holder, yet is not refused by a copy of
/// this process's own descriptor.
///
/// A process being started by another thread of this one (`Process.run()`, `posix_spawn`)
/// has a copy of every descriptor until its `exec` closes those marked close-on-exec, and a
/// `flock` belongs to the open file, not to the descriptor: for that moment the child holds
/// the lock too. A lock let go and taken again while another thread starts processes is then
/// refused as if another process held it: 5,106 of 20,000 quick takes, with four threads
/// starting `/bin/true` in a loop on this project's 2-core test machine. Waiting for it has
/// been at most 5 ms there; a lock held by another process's sync stays held far longer.
package enum FileLock {
  /// How long a take waits before it counts the lock as another process's: well past the
  /// moment a child holds it on a loaded machine, short beside a sync.
  package static let patience: TimeInterval = 1

  /// Takes `operation` (`LOCK_EX` or `LOCK_SH`) on `descriptor`, trying again for up to
  /// ``patience`` seconds while it is held; false when it is still held then.
  ///
  /// ```swift
  /// let descriptor = open(file.path, O_RDWR | O_CLOEXEC)
  /// defer { close(descriptor) }  // which lets the lock go
  /// guard FileLock.take(descriptor, LOCK_EX) else { return }  // another process's
  /// ```
  package static func take(_ descriptor: Int32, _ operation: Int32) -> Bool {
    let deadline = Date(timeIntervalSinceNow: patience)
    while flock(descriptor, operation | LOCK_NB) != 0 {
      guard errno == EWOULDBLOCK || errno == EINTR, Date() < deadline else { return false }
      usleep(2_000)
    }
    return true
  }
}
