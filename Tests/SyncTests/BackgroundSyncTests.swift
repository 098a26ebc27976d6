import Foundation
import TestSupport
import Testing

@testable import OpenEventKit

/// Syncs nobody starts by hand: `refreshSourcesIfNecessary()` in an app, and `ekctl sync
/// --watch` running beside it.
@Suite struct BackgroundSyncTests {
  /// Waits up to `seconds` for `condition`.
  func eventually(_ seconds: Double = 20, _ condition: () throws -> Bool) async throws -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if try condition() { return true }
      try await Task.sleep(for: .milliseconds(100))
    }
    return try condition()
  }

  @Test func refreshSourcesIfNecessarySyncsInTheBackground() async throws {
    let fixture = try await SyncFixture()
    let laptop = try await fixture.machine("laptop")
    let phone = try await fixture.machine("phone")
    try phone.event("Dinner", start: "2026-03-02T19:00:00Z")
    try await phone.sync()
    // The laptop has never synced: its data is out of date, and the call starts a sync.
    laptop.store.refreshSourcesIfNecessary()
    #expect(
      try await eventually {
        // The sync is over once it has recorded its time, just after the items.
        try (try? laptop.occurrences("2026-03-01T00:00:00Z", "2026-04-01T00:00:00Z"))
          == ["Dinner@2026-03-02T19:00:00Z"]
          && laptop.accounts.account(named: "home").lastSync != nil
      })
    // Synced a moment ago: a second call does not sync again.
    let synced = try laptop.accounts.account(named: "home").lastSync
    laptop.store.refreshSourcesIfNecessary()
    try await Task.sleep(for: .milliseconds(500))
    #expect(try laptop.accounts.account(named: "home").lastSync == synced)
  }

  @Test func syncWatchSendsLocalChangesAndFetchesTheServers() async throws {
    let fixture = try await SyncFixture()
    let laptop = try await fixture.machine("laptop")
    let phone = try await fixture.machine("phone")
    let watch = Process()
    watch.executableURL = BuildProducts.executable("ekctl")
    watch.arguments = ["sync", "--watch", "--interval", "1", "--db", laptop.databaseFile.path]
    let output = Pipe()
    watch.standardOutput = output
    watch.standardError = output
    try watch.run()
    defer {
      // SIGKILL: a process the test runner starts inherits its blocked SIGTERM.
      kill(watch.processIdentifier, SIGKILL)
      watch.waitUntilExit()
    }
    // A change here is sent without waiting for the interval's poll of the server.
    try laptop.event("Lunch", start: "2026-03-03T12:00:00Z")
    #expect(try await eventually { try laptop.pendingChanges() == 0 })
    try await phone.sync()
    #expect(
      try phone.occurrences("2026-03-01T00:00:00Z", "2026-04-01T00:00:00Z") == [
        "Lunch@2026-03-03T12:00:00Z"
      ])
    // A change on the server arrives with the next poll.
    try phone.event("Tea", start: "2026-03-04T16:00:00Z")
    try await phone.sync()
    #expect(
      try await eventually {
        (try? laptop.occurrences("2026-03-01T00:00:00Z", "2026-04-01T00:00:00Z"))
          == ["Lunch@2026-03-03T12:00:00Z", "Tea@2026-03-04T16:00:00Z"]
      })
  }
}
