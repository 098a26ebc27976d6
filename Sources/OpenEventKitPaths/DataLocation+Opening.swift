import Foundation

extension DataLocation {
  /// Runs `body`, which opens and migrates the database `file`, while no other process or
  /// thread does the same in the file's folder, and returns what it returns.
  ///
  /// SQLite alone does not make a first open safe: two processes that open a file that does
  /// not exist yet (apps started together at login on a new account) may both switch it to
  /// WAL mode, where one gets "database is locked" without waiting, and both may find the
  /// schema missing and create it, where one fails with "table already exists". An advisory
  /// lock on the folder (`flock`, which does not touch SQLite's own `fcntl` locks on the
  /// file) makes the opens take turns; each takes a few milliseconds.
  ///
  /// A process stopped while it holds the lock (Ctrl-Z) does not hang the others: after
  /// `timeout` seconds they fail, saying so. Where the folder cannot be locked, the open goes
  /// on without the lock.
  ///
  /// An OpenEventKit addition, for apps that keep a database of their own beside the store:
  /// the store opens its own files this way.
  ///
  /// ```swift
  /// import GRDB
  ///
  /// let queue = try DataLocation.openingSerially(file) {
  ///   let queue = try DatabaseQueue(path: file.path)
  ///   try migrator.migrate(queue)
  ///   return queue
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - file: The database file `body` opens. The lock is on its folder, which
  ///     ``preparePrivateFile(_:ownFolder:)`` creates; without the folder, `body` runs
  ///     unlocked.
  ///   - timeout: How many seconds to wait for another process's open before failing.
  ///   - body: Opens and migrates the database; runs once, holding the lock.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws, or ``DataLocationError`` when another process held the
  ///   lock for `timeout` seconds.
  package static func openingSerially<T>(
    _ file: URL, timeout: TimeInterval = 10, _ body: () throws -> T
  ) throws -> T {
    let folder = file.deletingLastPathComponent().path
    let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { return try body() }
    defer { close(descriptor) }  // which releases the lock
    let deadline = Date(timeIntervalSinceNow: timeout)
    while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
      guard errno == EWOULDBLOCK || errno == EINTR else { return try body() }
      guard Date() < deadline else {
        throw DataLocationError(
          "cannot open \(file.path): another process has been opening a database in "
            + "\(folder) for \(Int(timeout)) s. Is one stopped (Ctrl-Z)?")
      }
      usleep(2_000)
    }
    return try body()
  }
}
