import Foundation
import Synchronization

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
///
/// The versions are read when the watcher is made, but inotify is set up a moment later
/// (`startDelay`), with a look at the versions then: a commit in between is reported all the
/// same. A process that is done sooner — an `ekctl` command — never makes the inotify
/// instance, whose teardown waits for the kernel (about 15 ms at exit, more than such a
/// command's own work; docs/PERFORMANCE.md).
final class DatabaseChangeWatcher: @unchecked Sendable {
  private let queue = DispatchQueue(label: "OpenEventKit.DatabaseChangeWatcher")
  /// Touched only on `queue` (after `init`).
  private let connections: [DataVersionReader]
  private let folder: String
  private let delay: TimeInterval
  private let onChange: @Sendable () -> Void
  // Touched only on `queue`.
  private var versions: [Int]
  private var descriptor: Int32 = -1
  private var checkScheduled = false
  /// Whether the last check, woken by writes, found no commit yet.
  private var settling = false
  /// The source and whether it is suspended or cancelled: `cancel()` may come from any thread.
  private let source = Mutex<SourceState>(SourceState())

  private struct SourceState: @unchecked Sendable {
    var source: (any DispatchSourceRead)?
    /// Between the first write of a burst and its check.
    var isSuspended = false
    var isCancelled = false
  }

  /// How long after it is made the watcher starts listening.
  static let startDelay: TimeInterval = 0.25

  /// - Parameters:
  ///   - path: the database file.
  ///   - others: more database files in the same folder to watch alike.
  ///   - delay: how long to wait after the first write of a burst before looking, so that a
  ///     burst of commits is reported once.
  init(
    path: String, others: [String] = [], delay: TimeInterval = 0.1,
    onChange: @escaping @Sendable () -> Void
  ) throws(EKError) {
    connections = try ([path] + others).map { path throws(EKError) in
      try DataVersionReader(path: path)
    }
    versions = connections.map { $0.version() ?? -1 }
    folder = (path as NSString).deletingLastPathComponent
    self.delay = delay
    self.onChange = onChange
    queue.asyncAfter(deadline: .now() + Self.startDelay) { [weak self] in self?.start() }
  }

  deinit { cancel() }

  /// Stops watching.
  func cancel() {
    source.withLock { state in
      state.isCancelled = true
      state.source?.cancel()
      // A suspended source must be resumed to go (and for its cancel handler to run).
      if state.isSuspended { state.source?.resume() }
      state.isSuspended = false
    }
  }

  /// Sets up inotify (on `queue`), then looks for commits made since `init`.
  private func start() {
    let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    let mask = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_CREATE | IN_MOVED_TO)
    guard descriptor >= 0, inotify_add_watch(descriptor, folder, mask) >= 0 else {
      // The store works without it, but posts no change notifications: say so.
      let reason = String(cString: strerror(errno))
      if descriptor >= 0 { close(descriptor) }
      Log.changes.error("cannot watch \(folder) for changes: \(reason)")
      return
    }
    let started = source.withLock { state in
      guard !state.isCancelled else { return false }
      let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
      source.setEventHandler { [weak self] in self?.drainAndSchedule() }
      source.setCancelHandler { close(descriptor) }
      source.resume()
      state.source = source
      return true
    }
    guard started else {
      close(descriptor)
      return
    }
    self.descriptor = descriptor
    let current = connections.map { $0.version() ?? -1 }
    if current != versions {
      versions = current
      onChange()
    }
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

  /// Suspends or resumes the source, unless it was cancelled.
  private func setSuspended(_ suspended: Bool) {
    source.withLock { state in
      guard let source = state.source, !state.isCancelled, suspended != state.isSuspended else {
        return
      }
      if suspended { source.suspend() } else { source.resume() }
      state.isSuspended = suspended
    }
  }

  /// Reads away the events inotify holds (none once cancelled: the descriptor is closed).
  private func drain() {
    guard !source.withLock({ $0.isCancelled }) else { return }
    var buffer = [UInt8](repeating: 0, count: 4096)
    while read(descriptor, &buffer, buffer.count) > 0 {}
  }

  private func check() {
    checkScheduled = false
    let current = connections.map { $0.version() ?? -1 }
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
