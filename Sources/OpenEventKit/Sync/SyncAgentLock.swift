import Foundation
import OpenEventKitPaths

/// `Accounts/agent.lock` beside a calendar database: held (`flock`, exclusive) by the sync
/// agent running for the database (`ekctl sync --watch`), with its pid and the database's
/// path written inside, so that a store asking for a sync knows whom to signal.
///
/// A lock rather than a pid file, because the kernel drops it when its holder dies, however
/// it dies: a pid left in the file by a dead agent is never signalled, since nobody holds
/// the lock any more. Only a holder of the lock is ever signalled.
package final class SyncAgentLock: Sendable {
  private let descriptor: Int32

  /// The lock's file of the database `databaseFile`, in the `Accounts` folder beside it
  /// (`SyncStore.accountsFolder(of:)`).
  static func file(of databaseFile: URL) -> URL {
    SyncStore.accountsFolder(of: databaseFile).appendingPathComponent("agent.lock")
  }

  private init(descriptor: Int32) {
    self.descriptor = descriptor
  }

  deinit { close(descriptor) }

  /// Takes the lock for the agent of `databaseFile`, writing this process's pid and the
  /// database's path in it; nil when another process holds it (another agent). The lock is
  /// held until this value is gone, or the process.
  ///
  /// The agent must handle `SIGUSR1` before it takes the lock: a store may signal it as soon
  /// as it holds it, and the signal's default action ends a process.
  ///
  /// - Throws: A `SyncAgentLock.Failure` naming the file when it cannot be made private or
  ///   opened.
  package static func take(databaseFile: URL) throws(Failure) -> SyncAgentLock? {
    let file = file(of: databaseFile)
    do {
      try DataLocation.preparePrivateFile(file, ownFolder: true)
    } catch {
      throw Failure(message: "cannot prepare \(file.path): \(error.message)")
    }
    let descriptor = open(file.path, O_RDWR | O_CLOEXEC | O_NOFOLLOW)
    guard descriptor >= 0 else {
      throw Failure(message: "cannot open \(file.path): \(String(cString: strerror(errno)))")
    }
    // Waits a moment (FileLock): a process a store of this one is starting holds a copy of
    // its probe's descriptor, and so its shared lock, until that process's exec.
    guard FileLock.take(descriptor, LOCK_EX) else {
      close(descriptor)
      return nil
    }
    let text = "\(getpid())\n\(path(of: databaseFile))\n"
    _ = ftruncate(descriptor, 0)
    _ = text.withCString { pwrite(descriptor, $0, strlen($0), 0) }
    return SyncAgentLock(descriptor: descriptor)
  }

  /// The agent holding the lock for `databaseFile`: its pid, or nil when no process holds
  /// the lock, or the holder runs for another database of the same folder.
  ///
  /// Tried with a shared lock that does not wait: taken, nobody holds the exclusive one and
  /// it is let go at once.
  static func holder(databaseFile: URL) -> Holder {
    let descriptor = open(file(of: databaseFile).path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
    guard descriptor >= 0 else { return .nobody }
    defer { close(descriptor) }
    guard flock(descriptor, LOCK_SH | LOCK_NB) != 0 else { return .nobody }
    guard errno == EWOULDBLOCK else { return .nobody }
    var bytes = [UInt8](repeating: 0, count: 4096)
    let count = pread(descriptor, &bytes, bytes.count, 0)
    let lines = String(decoding: bytes.prefix(max(0, count)), as: UTF8.self)
      .split(separator: "\n", omittingEmptySubsequences: false)
    // Written just after the lock was taken: an agent this young has its first sync ahead.
    guard lines.count >= 2, let pid = pid_t(lines[0]), pid > 1 else { return .starting }
    guard String(lines[1]) == path(of: databaseFile) else { return .nobody }
    return .running(pid)
  }

  /// The database's path as the lock's file holds it: its links resolved, so that an agent
  /// started with one path and a store opened with another agree.
  private static func path(of databaseFile: URL) -> String {
    guard let real = realpath(databaseFile.path, nil) else {
      return databaseFile.standardizedFileURL.path
    }
    defer { free(real) }
    return String(cString: real)
  }

  /// Who holds the lock.
  enum Holder: Equatable {
    /// Nobody, or an agent of another database.
    case nobody
    /// An agent that has not yet written its pid.
    case starting
    /// The agent with this pid.
    case running(pid_t)
  }

  /// Why the lock could not be taken, in words naming the file.
  package struct Failure: Error, Sendable {
    package let message: String
  }
}
