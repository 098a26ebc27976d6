import Foundation
import Synchronization
import TestSupport
import Testing

@testable import OpenEventKitSync

/// The lock that lets one sync of an account run at a time.
@Suite struct SyncLockTests {
  /// A sync that follows another at once in a program whose other threads start processes
  /// is not refused as busy: a child being started holds a copy of the lock's descriptor
  /// until its exec. Before `FileLock`, 50 of the 2,000 takes were refused here; the CI saw
  /// it once as "the account "home" is being synced by another process" between two syncs
  /// of one machine in ConflictTests.
  @Test func aLockLetGoIsTakenAgainWhileOtherThreadsStartProcesses() throws {
    let folder = try TemporaryFolder(prefix: "SyncLock")
    let file = folder.url.appendingPathComponent("Accounts/home.lock")
    let stop = Atomic<Bool>(false)
    let started = Atomic<Int>(0)
    let starters = (0..<4).map { _ in
      Thread {
        while !stop.load(ordering: .relaxed) {
          let child = Process()
          child.executableURL = URL(fileURLWithPath: "/bin/true")
          guard (try? child.run()) != nil else { continue }
          child.waitUntilExit()
          started.add(1, ordering: .relaxed)
        }
      }
    }
    for starter in starters { starter.start() }
    defer { stop.store(true, ordering: .relaxed) }
    // The children must be starting while the lock is taken: wait for the first of them.
    let deadline = Date(timeIntervalSinceNow: 60)
    while started.load(ordering: .relaxed) == 0 && Date() < deadline { usleep(1_000) }
    try #require(started.load(ordering: .relaxed) > 0, "no process was started in 60 s")
    var refused = 0
    for _ in 0..<2_000 {
      do {
        let lock = try SyncLock(file: file, account: "home")
        lock.release()
      } catch {
        refused += 1
      }
    }
    print("sync lock: 2000 takes while \(started.load(ordering: .relaxed)) processes started")
    #expect(refused == 0)
  }

  /// Another process's lock is still refused, and named.
  @Test func aLockAnotherProcessHoldsIsRefused() throws {
    let folder = try TemporaryFolder(prefix: "SyncLock")
    let file = folder.url.appendingPathComponent("Accounts/home.lock")
    let holder = try SyncLock(file: file, account: "home")
    defer { holder.release() }
    let other = Process()
    other.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
    other.arguments = ["--nonblock", file.path, "true"]
    try other.run()
    other.waitUntilExit()
    #expect(other.terminationStatus == 1)
    do {
      _ = try SyncLock(file: file, account: "home")
      Issue.record("a second lock was taken while the first was held")
    } catch {
      #expect(error.code == .busy)
      #expect(error.message == "the account \"home\" is being synced by another process")
    }
  }
}
