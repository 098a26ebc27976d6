import Foundation
import TestSupport
import Testing

@testable import OpenEventKit

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
