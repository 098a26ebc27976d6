import Foundation
import GRDB
import Synchronization
import TestSupport
import Testing

@testable import OpenEventKit

/// The watcher behind `EKEventStoreChanged`: it hears commits of other connections and of
/// other processes, once per burst.
@Suite struct DatabaseChangeWatcherTests {
  /// Counts calls and lets a test wait for one, or for the first call after which `probe`
  /// holds (a sentinel's commit is visible).
  final class Calls: Sendable {
    private let count = Mutex(0)
    private let probe = Mutex<(@Sendable () -> Bool)?>(nil)
    private let probeHeldAt = Mutex<Int?>(nil)
    func record() {
      let number = count.withLock {
        $0 += 1
        return $0
      }
      guard probeHeldAt.withLock({ $0 }) == nil, let probe = probe.withLock({ $0 }), probe()
      else { return }
      probeHeldAt.withLock { $0 = $0 ?? number }
    }
    var value: Int { count.withLock { $0 } }

    /// Sets what each later call is checked for.
    func watch(for condition: @escaping @Sendable () -> Bool) {
      probe.withLock { $0 = condition }
    }

    /// Waits (twenty seconds at most: a loaded machine) for the first call at which the
    /// condition held; the number of calls by then, that one included.
    func waitForCondition() async -> Int? {
      for _ in 0..<400 where probeHeldAt.withLock({ $0 }) == nil {
        try? await Task.sleep(for: .milliseconds(50))
      }
      return probeHeldAt.withLock { $0 }
    }

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

    /// Commits a sentinel row and waits for the call after which it is visible: calls are
    /// made in the order of the commits they follow, so every call an earlier write was going
    /// to cause has been made by then. Returns the number of calls made, that one included.
    func callsThroughSentinel() async throws -> Int? {
      let key = "sentinel-\(UUID().uuidString)"
      let database = self.database
      calls.watch {
        (try? database.pool.read {
          try Bool.fetchOne(
            $0, sql: "SELECT EXISTS (SELECT 1 FROM meta WHERE key = ?)", arguments: [key])
        }) == true
      }
      try await database.pool.write { db in
        try db.execute(sql: "INSERT INTO meta (key, value) VALUES (?, 'v')", arguments: [key])
      }
      return await calls.waitForCondition()
    }
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
    // Five commits in a row on one thread, with no suspension point between them: written
    // with `await`, each commit could wait for the test pool (seconds on a loaded machine),
    // and commits spread over more than a second are rightly not one burst.
    let took = try Self.commitBurst(database, count: 5)
    print("latency: five commits in \(String(format: "%.3f", took)) s")
    #expect(took < 1, "the burst itself took \(took) s, longer than the watcher's window")
    #expect(await calls.wait(for: 1) >= 1)
    // Every call the burst causes has been made by the sentinel's (which may share one).
    let made = try #require(try await watched.callsThroughSentinel())
    #expect(made <= 3, "five commits in a burst are not five changes: \(made) calls")
  }

  /// Commits `count` rows one transaction each, on this thread; returns the seconds taken.
  static func commitBurst(_ database: CalendarDatabase, count: Int) throws -> TimeInterval {
    let start = Date()
    for n in 0..<count {
      try database.pool.write { db in
        try db.execute(sql: "INSERT INTO meta (key, value) VALUES (?, 'v')", arguments: ["k\(n)"])
      }
    }
    return Date().timeIntervalSince(start)
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
    // A later commit's call is the first one made.
    #expect(try await watched.callsThroughSentinel() == 1)
    #expect(calls.value == 1)
  }
}
