import Foundation
import Synchronization
import TestSupport
import Testing

@testable import OpenEventKit

/// `EKEventStoreChanged` and the `changes` sequence, within a process and across processes,
/// and several processes writing one database at once.
@Suite struct ChangeNotificationTests {
  /// Saves and commits an event of no duration titled `title` in `store`'s default calendar.
  static func commitEvent(_ title: String, at start: Date, in store: EKEventStore) throws {
    let event = EKEvent(eventStore: store)
    event.calendar = store.defaultCalendarForNewEvents
    event.title = title
    event.startDate = start
    event.endDate = start
    try store.save(event, span: .thisEvent)
  }

  @Test func aCommitByAnotherStoreIsPostedOncePerBurst() async throws {
    let fixture = try StoreFixture()
    let notices = StoreNotices(fixture.store)
    let other = fixture.secondStore()
    for index in 0..<5 {
      try Self.commitEvent(
        "Burst \(index)", at: StoreFixture.date("2026-03-02T09:00:00Z"), in: other)
    }
    #expect(try await Latency.eventually("the burst's notice") { notices.count >= 1 })
    // Whatever the burst was going to post has come once a later commit's notice has.
    let sentinel = try await notices.commitSentinel(from: other, readBy: fixture.secondStore())
    let burst = try #require(sentinel).notices - 1
    #expect(burst <= 2, "coalesced: five commits, one or two notifications, not \(burst)")
  }

  /// Apple's typed message (iOS 26): `addObserver(of:for: .changed)` is called on the main
  /// actor after a commit of another store.
  @Test func theTypedMessageArrivesOnTheMainActor() async throws {
    let fixture = try StoreFixture()
    let received = Mutex(0)
    let observation = NotificationCenter.default.addObserver(of: fixture.store, for: .changed) {
      _ in
      MainActor.assertIsolated()
      received.withLock { $0 += 1 }
    }
    let other = fixture.secondStore()
    try Self.commitEvent("Message", at: StoreFixture.date("2026-03-02T09:00:00Z"), in: other)
    #expect(
      try await Latency.eventually("the typed message") { received.withLock { $0 } >= 1 })
    NotificationCenter.default.removeObserver(observation)
  }

  @Test func staging_postsNothing_andCommitPosts() async throws {
    let fixture = try StoreFixture()
    let notices = StoreNotices(fixture.store)
    try fixture.event("Staged", start: "2026-03-02T09:00:00Z", commit: false)
    // Staging posts nothing: by the notice of another app's later commit, only that one came.
    let sentinel = try await notices.commitSentinel(
      from: fixture.secondStore(), readBy: fixture.secondStore())
    #expect(try #require(sentinel).notices == 1)
    #expect(notices.count == 1)
    try fixture.store.commit()
    #expect(try await Latency.eventually("the commit's notice") { notices.count >= 2 })
    // Nothing more than the commit's own: a second sentinel's notice is the next one.
    let second = try await notices.commitSentinel(
      from: fixture.secondStore(), readBy: fixture.secondStore())
    #expect(try #require(second).notices == 3)
  }

  @Test func theChangesSequenceYieldsOnCommit() async throws {
    let fixture = try StoreFixture()
    // The sequence listens from the moment it is made and keeps the latest change, so the
    // commit may come before the task starts waiting.
    let changes = fixture.store.changes
    let other = fixture.secondStore()
    let task = Task {
      var iterator = changes.makeAsyncIterator()
      return await iterator.next() != nil
    }
    try Self.commitEvent("Seen", at: Date(), in: other)
    #expect(await task.value)
  }

  @Test func anotherProcessSeesACommit() async throws {
    let fixture = try StoreFixture()
    let watcher = try HelperProcess(["watch", fixture.folder.url.path, "5"])
    try watcher.waitForLine("watching")
    try fixture.event("Hello", start: "2026-03-02T09:00:00Z")
    try watcher.waitForLine("changed")
    watcher.stop()
  }

  /// An app as Apple's sample code writes it: `queue: .main`, a running main run loop, and a
  /// fetch in the block. Each commit is told once, on the main thread, after it is visible;
  /// and the run loop ends when asked (nothing hangs).
  @Test func aMainQueueObserverIsToldOncePerCommitWhileTheMainLoopRuns() async throws {
    let fixture = try StoreFixture()
    let watcher = try HelperProcess(["watch-main", fixture.folder.url.path, "60"])
    try watcher.waitForLine("watching")
    try fixture.event("First", start: "2026-03-02T09:00:00Z")
    try watcher.waitForLine("changed 1 events=1 main=true")
    try fixture.event("Second", start: "2026-03-03T09:00:00Z")
    try watcher.waitForLine("changed 2 events=2 main=true")
    #expect(
      FileManager.default.createFile(
        atPath: fixture.folder.url.appendingPathComponent("stop-watching").path, contents: nil))
    try watcher.waitForLine("done")
    let rest = try watcher.readAll()
    #expect(!rest.contains("changed"), "a notice told twice: \(rest)")
  }

  @Test func aCommitInAnotherProcessIsPostedHere() async throws {
    let fixture = try StoreFixture()
    let notices = StoreNotices(fixture.store)
    try HelperProcess.run(["add", fixture.folder.url.path, "Remote", "1", "2026-03-02T09:00:00Z"])
    #expect(try await Latency.eventually("another process's commit") { notices.count >= 1 })
    #expect(fixture.titles("2026-03-02T00:00:00Z", "2026-03-03T00:00:00Z") == ["Remote 0"])
  }

  @Test func severalProcessesWriteAtOnceWithoutLockErrors() async throws {
    let fixture = try StoreFixture()
    let start = "2026-01-01T00:00:00Z"
    let writers = try (0..<3).map { index in
      try HelperProcess([
        index == 2 ? "batch" : "add", fixture.folder.url.path, "P\(index)", "150", start,
      ])
    }
    // Meanwhile this process writes and reads too.
    for index in 0..<50 {
      try fixture.event("Here \(index)", start: start)
      _ = fixture.titles(start, "2026-02-01T00:00:00Z")
    }
    for writer in writers {
      let (status, errors) = writer.finish()
      #expect(status == 0, "\(errors)")
    }
    let titles = fixture.titles(start, "2026-02-01T00:00:00Z", in: fixture.secondStore())
      .filter { $0 != "New Year's Day" }
    #expect(titles.count == 3 * 150 + 50)
    #expect(Set(titles).count == titles.count)
  }
}

/// `oek-store-helper` running as a separate process.
final class HelperProcess {
  let process = Process()
  private let output = Pipe()
  private let errors = Pipe()
  private var buffered = ""

  /// Starts the helper with `arguments`, `input` on its standard input, and `environment`
  /// over this process's.
  init(_ arguments: [String], input: String? = nil, environment: [String: String] = [:]) throws {
    process.executableURL = BuildProducts.executable("oek-store-helper")
    process.arguments = arguments
    if !environment.isEmpty {
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    process.standardOutput = output
    process.standardError = errors
    let standardInput = Pipe()
    process.standardInput = standardInput
    try process.run()
    if let input { standardInput.fileHandleForWriting.write(Data(input.utf8)) }
    try standardInput.fileHandleForWriting.close()
  }

  /// Everything the helper writes to standard output until it ends.
  func readAll() throws -> String {
    buffered + String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  }

  /// Runs the helper to the end and fails when it fails.
  static func run(_ arguments: [String]) throws {
    let helper = try HelperProcess(arguments)
    let (status, errors) = helper.finish()
    guard status == 0 else { throw EKError(.internalFailure, "helper failed: \(errors)") }
  }

  /// Reads output until a line equal to `line` arrives (within the helper's lifetime).
  func waitForLine(_ line: String) throws {
    while true {
      if let range = buffered.range(of: line + "\n") {
        buffered.removeSubrange(buffered.startIndex..<range.upperBound)
        return
      }
      let data = output.fileHandleForReading.availableData
      guard !data.isEmpty else { throw EKError(.internalFailure, "helper ended before \(line)") }
      buffered += String(decoding: data, as: UTF8.self)
    }
  }

  func finish() -> (Int32, String) {
    let text = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: text, as: UTF8.self))
  }

  func stop() {
    process.terminate()
    process.waitUntilExit()
  }
}
