import Foundation
import GRDB
import Synchronization
import TestSupport
import Testing

@testable import OpenEventKit

/// The watcher behind `EKEventStoreChanged`: it hears commits of other connections and of
/// other processes, once per burst.
@Suite struct DatabaseChangeWatcherTests {
  /// Counts calls and lets a test wait for one.
  final class Calls: Sendable {
    private let count = Mutex(0)
    func record() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }

    /// Waits until at least `expected` calls were made, up to a generous limit.
    func wait(for expected: Int) async -> Int {
      for _ in 0..<200 where value < expected {
        try? await Task.sleep(for: .milliseconds(50))
      }
      return value
    }
  }

  /// A new database in a folder of its own, with a watcher counting its calls.
  final class Watched {
    let temporary: TemporaryFolder
    let database: CalendarDatabase
    let calls = Calls()
    let watcher: DatabaseChangeWatcher

    init(delay: TimeInterval) throws {
      temporary = try TemporaryFolder()
      database = try CalendarDatabase(location: StoreLocation(folder: temporary.url))
      let calls = self.calls
      watcher = try DatabaseChangeWatcher(path: database.path, delay: delay) { calls.record() }
    }

    deinit { watcher.cancel() }
  }

  @Test func hearsACommitOfAnotherConnection() async throws {
    let watched = try Watched(delay: 0.05)
    let (database, calls) = (watched.database, watched.calls)
    try await database.pool.write { db in
      for n in 0..<5 {
        try db.execute(sql: "INSERT INTO meta (key, value) VALUES (?, 'v')", arguments: ["k\(n)"])
      }
    }
    #expect(await calls.wait(for: 1) == 1)
  }

  @Test func coalescesABurstOfCommits() async throws {
    // Commits within a second of the first are reported together.
    let watched = try Watched(delay: 1)
    let (database, calls) = (watched.database, watched.calls)
    for n in 0..<5 {
      try await database.pool.write { db in
        try db.execute(sql: "INSERT INTO meta (key, value) VALUES (?, 'v')", arguments: ["k\(n)"])
      }
    }
    #expect(await calls.wait(for: 1) >= 1)
    // A negative (no call for each commit comes), so a bounded wait, not a poll: the burst's
    // writes all came before the first look, and one and a half times the watcher's delay
    // leaves room for one more look, had any write come after it.
    try await Task.sleep(for: .milliseconds(1500))
    #expect(calls.value < 5, "five commits in a burst are not five changes")
  }

  @Test func hearsACommitOfAnotherProcess() async throws {
    let watched = try Watched(delay: 0.1)
    let (database, calls) = (watched.database, watched.calls)
    // Python's sqlite3 module is a separate process and a separate SQLite library.
    let process = Process()
    process.executableURL = try Python.executable()
    process.arguments = [
      "-c",
      """
      import sqlite3, sys
      db = sqlite3.connect(sys.argv[1], timeout=10)
      db.execute("INSERT INTO meta (key, value) VALUES ('from-python', 'v')")
      db.commit()
      """,
      database.path,
    ]
    try process.run()
    process.waitUntilExit()
    try #require(process.terminationStatus == 0)
    #expect(await calls.wait(for: 1) >= 1)
  }

  @Test func staysQuietWhileNothingChanges() async throws {
    let watched = try Watched(delay: 0.05)
    let (database, calls) = (watched.database, watched.calls)
    // Reading touches no file that means a change.
    _ = try await database.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM item") }
    // A negative (no call comes), so a bounded wait, not a poll: three times the longest the
    // watcher takes to report a write it heard (its delay, and once more).
    try await Task.sleep(for: .milliseconds(300))
    #expect(calls.value == 0)
  }
}
