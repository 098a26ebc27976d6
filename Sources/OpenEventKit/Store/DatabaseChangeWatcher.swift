import Foundation
import GRDB

#if canImport(Glibc)
  import Glibc
#endif

/// Tells when any connection — of this process or another — commits to the calendar database
/// (or to the other databases of its folder it is given, such as the privacy decisions).
///
/// inotify on the database's folder wakes the watcher when a file there is written (every
/// commit writes the WAL file). It then reads `PRAGMA data_version` on a connection of its own
/// to each database, which changes exactly when another connection has committed, and calls
/// `onChange` once for the whole burst. While nothing happens it sleeps in the kernel: no
/// polling.
final class DatabaseChangeWatcher: @unchecked Sendable {
  private let queue = DispatchQueue(label: "OpenEventKit.DatabaseChangeWatcher")
  private let connections: [DatabaseQueue]
  private let descriptor: Int32
  private let source: any DispatchSourceRead
  private let delay: TimeInterval
  private let onChange: @Sendable () -> Void
  // Touched only on `queue`.
  private var versions: [Int]
  private var checkScheduled = false
  private let suspension = NSLock()
  /// Whether `source` is suspended (between the first write of a burst and its check).
  private var isSuspended = false
  /// Whether the last check, woken by writes, found no commit yet.
  private var settling = false

  /// - Parameters:
  ///   - path: the database file.
  ///   - others: more database files in the same folder to watch alike.
  ///   - delay: how long to wait after the first write of a burst before looking, so that a
  ///     burst of commits is reported once.
  init(
    path: String, others: [String] = [], delay: TimeInterval = 0.1,
    onChange: @escaping @Sendable () -> Void
  ) throws(EKError) {
    var configuration = Configuration()
    configuration.readonly = true
    configuration.label = "OpenEventKit.ChangeWatcher"
    do {
      connections = try ([path] + others).map {
        try DatabaseQueue(path: $0, configuration: configuration)
      }
      versions = try connections.map(DatabaseChangeWatcher.version)
    } catch {
      throw EKError(
        .internalFailure, "cannot watch \(path) for changes: \(DatabaseFailure.reason(error))")
    }
    let folder = (path as NSString).deletingLastPathComponent
    descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    let mask = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_CREATE | IN_MOVED_TO)
    guard descriptor >= 0, inotify_add_watch(descriptor, folder, mask) >= 0 else {
      let reason = String(cString: strerror(errno))
      if descriptor >= 0 { close(descriptor) }
      throw EKError(.internalFailure, "cannot watch \(folder) for changes: \(reason)")
    }
    self.delay = delay
    self.onChange = onChange
    source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
    source.setEventHandler { [weak self] in self?.drainAndSchedule() }
    let descriptor = self.descriptor
    source.setCancelHandler { close(descriptor) }
    source.resume()
  }

  deinit { cancel() }

  /// Stops watching.
  func cancel() {
    source.cancel()
    setSuspended(false)
  }

  /// Woken by the first write of a burst: the check comes `delay` later, and until then the
  /// source is suspended, so that the burst's other writes (a commit writes the WAL several
  /// times, a batch of commits many more) wake nobody; inotify folds their events into one
  /// while nobody reads them.
  private func drainAndSchedule() {
    drain()
    guard !checkScheduled else { return }
    checkScheduled = true
    setSuspended(true)
    queue.asyncAfter(deadline: .now() + delay) { [weak self] in
      guard let self else { return }
      self.drain()
      self.setSuspended(false)
      self.check()
    }
  }

  /// Suspends or resumes the source. A suspended source must be resumed before it goes (a
  /// cancelled one too, for its cancel handler to close the descriptor), so `cancel()` may
  /// resume it from another thread: hence the lock.
  private func setSuspended(_ suspended: Bool) {
    suspension.withLock {
      guard suspended != isSuspended else { return }
      if suspended { source.suspend() } else { source.resume() }
      isSuspended = suspended
    }
  }

  private func drain() {
    var buffer = [UInt8](repeating: 0, count: 4096)
    while read(descriptor, &buffer, buffer.count) > 0 {}
  }

  private static func version(_ connection: DatabaseQueue) throws -> Int {
    try connection.read { try Int.fetchOne($0, sql: "PRAGMA data_version") ?? 0 }
  }

  private func check() {
    checkScheduled = false
    let current = connections.map { (try? DatabaseChangeWatcher.version($0)) ?? -1 }
    guard current != versions else {
      // Writes woke us but no commit shows yet: a transaction may have been caught between
      // writing its last frames and publishing them in shared memory, which inotify does not
      // see. Look once more a moment later.
      if !settling {
        settling = true
        checkScheduled = true
        queue.asyncAfter(deadline: .now() + delay) { [weak self] in self?.check() }
      } else {
        settling = false
      }
      return
    }
    settling = false
    versions = current
    onChange()
  }
}
