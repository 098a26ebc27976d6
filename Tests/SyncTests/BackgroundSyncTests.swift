import Foundation
import TestSupport
import Testing

@testable import OpenEventKit

/// Syncs nobody starts by hand: `refreshSourcesIfNecessary()` in an app, which asks the sync
/// agent (a one-shot `ekctl-sync sync --due` it starts, or a running `ekctl sync --watch` it
/// signals), and `ekctl sync --watch` running beside it.
@Suite struct BackgroundSyncTests {
  @Test func refreshSourcesIfNecessarySyncsInTheBackground() async throws {
    let fixture = try await SyncFixture()
    let laptop = try await fixture.machine("laptop")
    let phone = try await fixture.machine("phone")
    try phone.event("Dinner", start: "2026-03-02T19:00:00Z")
    try await phone.sync()
    // The laptop has never synced: its data is out of date, and the call starts a sync.
    laptop.store.refreshSourcesIfNecessary()
    #expect(
      try await Latency.eventually("the background sync", tight: 10) {
        // The sync is over once it has recorded its time, just after the items.
        try (try? laptop.occurrences("2026-03-01T00:00:00Z", "2026-04-01T00:00:00Z"))
          == ["Dinner@2026-03-02T19:00:00Z"]
          && laptop.accounts.account(named: "home").lastSync != nil
      })
    // Synced a moment ago: a second call asks for nothing (decided before it returns), and
    // starts nothing.
    #expect(laptop.store.askSyncAgent() == .nothingDue)
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
    #expect(
      try await Latency.eventually("the watch sending the change", tight: 10) {
        try laptop.pendingChanges() == 0
      })
    try await phone.sync()
    #expect(
      try phone.occurrences("2026-03-01T00:00:00Z", "2026-04-01T00:00:00Z") == [
        "Lunch@2026-03-03T12:00:00Z"
      ])
    // A change on the server arrives with the next poll.
    try phone.event("Tea", start: "2026-03-04T16:00:00Z")
    try await phone.sync()
    #expect(
      try await Latency.eventually("the next poll's fetch", tight: 10) {
        (try? laptop.occurrences("2026-03-01T00:00:00Z", "2026-04-01T00:00:00Z"))
          == ["Lunch@2026-03-03T12:00:00Z", "Tea@2026-03-04T16:00:00Z"]
      })
  }

  /// A running `ekctl sync --watch` holds the agent's lock: an app's request signals it, and
  /// it syncs the account at once, though its next poll of the server is an hour away. No
  /// second process is started.
  @Test func aRunningAgentIsSignalledAndSyncs() async throws {
    let fixture = try await SyncFixture()
    let phone = try await fixture.machine("phone")
    // The laptop's account is added while the agent runs, so that the agent's own first
    // sync (at its start) finds none and the account is due when the app asks.
    let laptop = try Machine(folder: fixture.folder.url.appendingPathComponent("laptop"))
    let watch = Process()
    watch.executableURL = BuildProducts.executable("ekctl")
    watch.arguments = ["sync", "--watch", "--interval", "3600", "--db", laptop.databaseFile.path]
    watch.standardOutput = FileHandle.nullDevice
    watch.standardError = FileHandle.nullDevice
    try watch.run()
    defer {
      kill(watch.processIdentifier, SIGKILL)
      watch.waitUntilExit()
    }
    // ekctl execs ekctl-sync: the agent has the pid that was started.
    #expect(
      try await Latency.eventually("the agent's lock", tight: 10) {
        SyncAgentLock.holder(databaseFile: laptop.databaseFile)
          == .running(watch.processIdentifier)
      })
    _ = try await laptop.accounts.add(
      url: fixture.server.url, user: SyncFixture.user, password: SyncFixture.password,
      name: "home")
    try phone.event("Dinner", start: "2026-03-02T19:00:00Z")
    try await phone.sync()

    let asked = Date()
    #expect(laptop.store.askSyncAgent() == .signalled(watch.processIdentifier))
    #expect(
      try await Latency.eventually("the signalled sync", tight: 10) {
        (try? laptop.occurrences("2026-03-01T00:00:00Z", "2026-04-01T00:00:00Z"))
          == ["Dinner@2026-03-02T19:00:00Z"]
      })
    print("signalled agent synced in \(Date().timeIntervalSince(asked)) s")
    #expect(watch.isRunning)
  }

  /// An account that keeps no password is synced by hand (its password is asked on the
  /// terminal): asking for a sync starts nothing and signals nobody.
  @Test func anAccountWithoutAKeptPasswordNeverStartsAnAgent() async throws {
    let fixture = try await SyncFixture()
    let laptop = try Machine(folder: fixture.folder.url.appendingPathComponent("laptop"))
    _ = try await laptop.accounts.add(
      url: fixture.server.url, user: SyncFixture.user, password: SyncFixture.password,
      name: "home", keepPassword: false)
    #expect(laptop.store.askSyncAgent() == .nothingDue)
    #expect(try laptop.accounts.account(named: "home").lastSync == nil)
  }

  /// With no agent running, `ekctl-sync sync --due --db FILE` is started, detached from the
  /// app: a session of its own, no signal blocked, /dev/null for its standard streams. A
  /// second request within the minute starts nothing more.
  @Test func anAgentIsStartedDetachedWhenNoneRuns() async throws {
    let fixture = try await SyncFixture()
    let laptop = try await fixture.machine("laptop")
    // A stand-in for ekctl-sync that writes down how it was started.
    let record = fixture.folder.url.appendingPathComponent("started")
    let program = fixture.folder.url.appendingPathComponent("agent.sh")
    try """
    #!/bin/sh
    # The shell's own mask, read by a builtin: the shell blocks signals while a child runs.
    while read -r key value; do [ "$key" = SigBlk: ] && blocked=$value; done < /proc/$$/status
    streams=$(readlink /proc/$$/fd/0 /proc/$$/fd/1 /proc/$$/fd/2)
    {
      echo "$@"
      cut -d' ' -f6 /proc/$$/stat
      echo "$streams"
      echo "blocked $blocked"
    } > "\(record.path).part"
    mv "\(record.path).part" "\(record.path)"

    """.write(to: program, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes(
      [.posixPermissions: 0o700], ofItemAtPath: program.path)
    let environment = ["OPENEVENTKIT_SYNC_AGENT": program.path]
    let request = StoreLocation.$taskEnvironment.withValue(environment) {
      laptop.store.askSyncAgent()
    }
    guard case .started(let pid) = request else {
      Issue.record("no agent started: \(request)")
      return
    }
    #expect(
      try await Latency.eventually("the started agent's record", tight: 10) {
        FileManager.default.fileExists(atPath: record.path)
      })
    let lines = try String(contentsOf: record, encoding: .utf8).split(separator: "\n")
    #expect(
      lines == [
        "sync --due --db \(laptop.databaseFile.path)", "\(pid)", "/dev/null", "/dev/null",
        "/dev/null", "blocked 0000000000000000",
      ])
    let again = StoreLocation.$taskEnvironment.withValue(environment) {
      laptop.store.askSyncAgent()
    }
    #expect(again == .tooSoon)
  }

  /// An app that finds no sync agent program says so once, on `org.openeventkit.sync`, and
  /// goes on: what other processes commit is still read.
  @Test func noAgentProgramIsANoticeNotACrash() async throws {
    let fixture = try await SyncFixture()
    let laptop = try await fixture.machine("laptop")
    let run = try runProgram(
      BuildProducts.executable("oek-store-helper"), ["refresh", laptop.folder.path, "2"],
      input: nil,
      environment: ProcessInfo.processInfo.environment.merging([
        "OPENEVENTKIT_SYNC_AGENT": "/nonexistent", "OPENEVENTKIT_PROMPT": "none",
      ]) { $1 })
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout == "refreshed\n")
    #expect(run.stderr.components(separatedBy: "no sync agent").count == 2, "\(run.stderr)")
    #expect(
      run.stderr.contains(
        "no sync agent (OPENEVENTKIT_SYNC_AGENT names /nonexistent, which is not a program)"),
      "\(run.stderr)")
    #expect(run.stderr.contains("ekctl sync --watch"))
    #expect(try laptop.accounts.account(named: "home").lastSync == nil)
  }

  /// The agent's lock names its database: an agent of another database in the same folder
  /// is not the one to signal.
  @Test func theAgentsLockNamesItsDatabase() throws {
    let folder = try TemporaryFolder(prefix: "SyncTests")
    let work = folder.url.appendingPathComponent("Work.sqlite")
    let home = folder.url.appendingPathComponent("Calendar.sqlite")
    var lock = try SyncAgentLock.take(databaseFile: work)
    #expect(lock != nil)
    #expect(SyncAgentLock.holder(databaseFile: work) == .running(getpid()))
    #expect(SyncAgentLock.holder(databaseFile: home) == .nobody)
    // flock's locks belong to the open file: this process's second take is refused too.
    let second = try SyncAgentLock.take(databaseFile: work)
    #expect(second == nil)
    // Held up to here.
    #expect(lock != nil)
    lock = nil
    #expect(SyncAgentLock.holder(databaseFile: work) == .nobody)
  }
}
