import Foundation
import TestSupport
import Testing

@testable import OpenEventKit
@testable import OpenEventKitSync

/// What goes wrong: a wrong password, an unreachable or stopped server, a sync killed at any
/// moment. Each says so plainly and loses nothing: the outbox keeps what was not sent.
@Suite struct FailureTests {
  @Test func aWrongPasswordIsSaidAndTheOutboxKept() async throws {
    let fixture = try await SyncFixture()
    let laptop = try Machine(folder: fixture.folder.url.appendingPathComponent("laptop"))
    await #expect(throws: SyncError.self) {
      _ = try await laptop.accounts.add(
        url: fixture.server.url, user: SyncFixture.user, password: "wrong", name: "home")
    }
    do {
      _ = try await laptop.accounts.add(
        url: fixture.server.url, user: SyncFixture.user, password: "wrong", name: "home")
    } catch let error as SyncError {
      #expect(error.code == .unauthorized)
      #expect(error.message.contains("password"))
    }
    #expect(try laptop.accounts.accounts().isEmpty)

    // An account whose password changed on the server since.
    let phone = try await fixture.machine("phone")
    try phone.event("Dinner", start: "2026-03-02T19:00:00Z")
    let source = try #require(phone.store.sources.first { $0.sourceType == .calDAV })
    try Data("wrong".utf8).write(
      to: phone.folder.appendingPathComponent("Accounts/\(source.sourceIdentifier).password"))
    await #expect(throws: SyncError.self) { try await phone.sync() }
    #expect(try phone.pendingChanges() == 1)
    #expect(try phone.accounts.account(named: "home").lastError?.contains("password") == true)
  }

  @Test func anUnreachableServerIsSaidAndTheOutboxKept() async throws {
    let fixture = try await SyncFixture()
    let laptop = try await fixture.machine("laptop")
    try laptop.event("Dinner", start: "2026-03-02T19:00:00Z")
    fixture.server.stop()
    let started = Date()
    do {
      try await laptop.sync()
      Issue.record("the sync should fail with the server stopped")
    } catch let error as SyncError {
      #expect(error.code == .unreachable)
    }
    #expect(Date().timeIntervalSince(started) < 30)
    #expect(try laptop.pendingChanges() == 1)
    // Back up: the next sync sends it.
    try fixture.server.start()
    let report = try await laptop.sync()
    #expect(report.sent == 1)
    #expect(try laptop.pendingChanges() == 0)
  }

  /// A server answering slowly without end: each request has ten minutes for its whole
  /// answer, and the sync has a deadline of its own that ends it sooner, lets go of the
  /// account's lock and keeps the outbox (issue 42). The trickling server of the tests
  /// (Tests/Fixtures/caldav) takes Radicale's port once the account is added.
  @Test(.timeLimit(.minutes(3)))
  func aSyncEndsAtItsOwnDeadline() async throws {
    let fixture = try await SyncFixture()
    let laptop = try await fixture.machine("laptop")
    try laptop.event("Dinner", start: "2026-03-02T19:00:00Z")
    fixture.server.stop()
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Fixtures/caldav/trickle-server.py")
    let trickle = ServerProcess(
      executable: try Python.executable(),
      arguments: [script.path, "--port", String(fixture.server.port)],
      port: fixture.server.port, log: fixture.folder.url.appendingPathComponent("trickle.log"))
    try trickle.start()
    defer { trickle.stop() }
    let start = ContinuousClock.now
    do {
      _ = try await laptop.accounts.sync(named: "home", deadline: .seconds(3))
      Issue.record("the sync finished against a server that never ends its answers")
    } catch let error as SyncError {
      #expect(error.code == .unreachable)
      #expect(error.message.contains("did not finish within 3 s"), "\(error.message)")
    }
    print("hostile: a sync against a trickling server ended after \(ContinuousClock.now - start)")
    #expect(trickle.output.contains("PROPFIND"), "\(trickle.output)")
    #expect(try laptop.pendingChanges() == 1)
    // The lock is free: the next sync is not refused as busy.
    do {
      _ = try await laptop.accounts.sync(named: "home", deadline: .seconds(1))
    } catch let error as SyncError {
      #expect(error.code == .unreachable, "\(error.message)")
    }
  }

  /// A full disk while a sync writes what it fetched: the person reads "the disk is full"
  /// and what to do, not SQLite's text and its INSERT; nothing is half-written, and once
  /// there is room the next sync brings everything (issue 42). The disk is a ``SmallDisk`` of
  /// 1 MB under `ekctl sync`, which needs no right to mount one.
  @Test func aFullDiskIsSaidInWordsAndTheNextSyncBringsEverything() async throws {
    let fixture = try await SyncFixture()
    let phone = try await fixture.machine("phone")
    let notes = String(repeating: "A long note that takes room. ", count: 200)
    for index in 0..<150 {
      let event = try phone.event(
        "Meeting \(index)", start: "2026-03-\(10 + index % 18)T09:00:00Z")
      event.notes = notes
      try phone.store.save(event, span: .thisEvent)
    }
    try await phone.sync()

    let disk = try SmallDisk(bytes: 1 << 20)
    let laptop = try Machine(folder: disk.folder.url)
    _ = try await laptop.accounts.add(
      url: fixture.server.url, user: SyncFixture.user, password: SyncFixture.password,
      name: "home")
    print("full disk: \(disk.used) of \(disk.bytes) bytes used before the sync")
    let sync = Process()
    sync.executableURL = BuildProducts.executable("ekctl")
    sync.arguments = ["sync", "--db", laptop.databaseFile.path]
    sync.environment = ProcessInfo.processInfo.environment.merging(disk.environment) { $1 }
    let errors = Pipe()
    sync.standardError = errors
    sync.standardOutput = FileHandle.nullDevice
    try sync.run()
    let said = String(
      decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    sync.waitUntilExit()
    #expect(sync.terminationStatus != 0, "the sync wrote 150 events of 6 KB on a full disk")
    #expect(said.contains("the disk is full"), "\(said)")
    #expect(said.contains("free some space"), "\(said)")
    #expect(!said.contains("INSERT") && !said.contains("SQLite"), "\(said)")
    #expect(try laptop.occurrences("2026-03-01T00:00:00Z", "2026-04-01T00:00:00Z").count < 150)

    // Room again: the next sync, with no limit, brings everything.
    let report = try await laptop.sync()
    print("after the disk had room again: \(report.received) in")
    #expect(
      try laptop.occurrences("2026-03-01T00:00:00Z", "2026-04-01T00:00:00Z").count == 150)
  }

  @Test func plainHTTPToAnotherHostIsRefused() async throws {
    let folder = try TemporaryFolder(prefix: "SyncTests")
    let machine = try Machine(folder: folder.url.appendingPathComponent("m"))
    do {
      _ = try await machine.accounts.add(
        url: URL(string: "http://caldav.example.com/")!, user: "alice", password: "x")
      Issue.record("plain http to another host must be refused")
    } catch let error as SyncError {
      #expect(error.code == .insecure)
    }
  }
}
