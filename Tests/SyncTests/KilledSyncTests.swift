import CalDAV
import Foundation
import TestSupport
import Testing

@testable import OpenEventKit

/// `ekctl sync` stopped dead at named moments (`OPENEVENTKIT_CRASH_AFTER`, OpenEventKit's
/// `CrashPoint`: right after the Nth PUT the server accepted, before the store records it;
/// half way through writing a batch received), killed with SIGKILL at random moments (from
/// a printed seed), and the server stopped under it: each stop leaves what that moment must,
/// and the sync after completes with nothing lost and nothing doubled, here or on the server.
@Suite(.serialized) struct KilledSyncTests {
  /// The events a laptop makes and sends.
  static let count = 300
  /// The size of a batch the pull fetches and writes in one transaction.
  static let batch = CalDAVClient.multigetBatchSize
  /// The events a new machine receives in the tests that stop its first sync: three batches
  /// and a half, so that it is stopped in the middle of a pull of several batches, the count
  /// made up on the server beside what the laptop sent (``seed(_:count:)``).
  static let received = 3 * batch + batch / 2

  /// Runs `ekctl sync` on a machine's database, stopped at `crashPoint` when given; the
  /// process, started.
  static func startSync(_ machine: Machine, crashPoint: String? = nil) throws -> Process {
    let process = Process()
    process.executableURL = BuildProducts.executable("ekctl")
    process.arguments = ["sync", "--db", machine.databaseFile.path]
    if let crashPoint {
      process.environment = ProcessInfo.processInfo.environment.merging([
        CrashPoint.variable: crashPoint
      ]) { $1 }
    }
    process.standardOutput = FileHandle.nullDevice
    process.standardError = Pipe()
    process.standardInput = FileHandle.nullDevice
    try process.run()
    return process
  }

  /// `count` events in the machine's calendar of the account, committed at once.
  static func events(_ machine: Machine, count: Int) throws {
    let calendar = try machine.events
    for index in 0..<count {
      let event = EKEvent(eventStore: machine.store)
      event.title = "Event \(index)"
      event.calendar = calendar
      event.startDate = Machine.date("2026-03-01T08:00:00Z").addingTimeInterval(
        TimeInterval(index * 3600))
      event.endDate = event.startDate.addingTimeInterval(1800)
      try machine.store.save(event, span: .thisEvent, commit: false)
    }
    try machine.store.commit()
  }

  /// What the server holds in the collection: resource count and distinct UIDs.
  static func serverUIDs(_ fixture: SyncFixture) async throws -> [String] {
    let client = try CalDAVClient(
      baseURL: fixture.server.url, user: SyncFixture.user, password: SyncFixture.password)
    defer { Task { await client.shutdown() } }
    let discovery = try await client.discover()
    let collection = try #require(discovery.calendars.first { $0.displayName == "Home" })
    let listed = try await client.etags(collection.url)
    let fetched = try await client.multiget(collection.url, listed.map(\.url))
    return fetched.flatMap { resource in
      String(decoding: resource.data, as: UTF8.self).split(separator: "\r\n")
        .filter { $0.hasPrefix("UID:") }.map { String($0.dropFirst(4)) }
    }
  }

  /// `count` events more in the calendar "Home" on the server, beside those the laptop sent,
  /// written straight into Radicale's folder (as an administrator restoring a backup would,
  /// and faster than as many PUTs); Radicale reads its folder at each request.
  static func seed(_ fixture: SyncFixture, count: Int) async throws {
    let server = try #require(fixture.server as? RadicaleServer)
    let client = try CalDAVClient(
      baseURL: server.url, user: SyncFixture.user, password: SyncFixture.password)
    let discovery = try await client.discover()
    await client.shutdown()
    let collection = try #require(discovery.calendars.first { $0.displayName == "Home" })
    let folder = server.storage.appendingPathComponent("collection-root", isDirectory: true)
      .appendingPathComponent(collection.url.path(percentEncoded: false), isDirectory: true)
    for index in 0..<count {
      let uid = "seeded-\(index)"
      let start = ISO8601DateFormatter().string(
        from: Machine.date("2026-06-01T08:00:00Z").addingTimeInterval(TimeInterval(index * 3600))
      ).replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ":", with: "")
      let lines = [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//OpenEventKit//Tests//EN", "BEGIN:VEVENT",
        "UID:\(uid)", "DTSTAMP:20260101T000000Z", "DTSTART:\(start)", "DURATION:PT30M",
        "SUMMARY:Seeded \(index)", "END:VEVENT", "END:VCALENDAR",
      ]
      try Data((lines.joined(separator: "\r\n") + "\r\n").utf8).write(
        to: folder.appendingPathComponent("\(uid).ics"))
    }
  }

  func itemCount(_ machine: Machine) throws -> Int {
    let predicate = machine.store.predicateForEvents(
      withStart: Machine.date("2026-01-01T00:00:00Z"), end: Machine.date("2027-01-01T00:00:00Z"),
      calendars: [try machine.events])
    return machine.store.events(matching: predicate).count
  }

  /// Runs `ekctl sync` stopped at `point`; records an issue unless it was killed there.
  static func syncStopped(_ machine: Machine, at point: String) throws {
    let process = try startSync(machine, crashPoint: point)
    process.waitUntilExit()
    let stderr = String(
      decoding: (process.standardError as! Pipe).fileHandleForReading.readDataToEndOfFile(),
      as: UTF8.self)
    #expect(
      process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL,
      "\(point): exit \(process.terminationStatus) \(stderr)")
  }

  /// Stopped right after the server accepted its 1st PUT, then (the next sync) its 100th, each
  /// time before recording it as sent: the server has exactly the resources accepted, the
  /// outbox still holds every change the store has not recorded as sent (the one accepted
  /// last among them), and the sync after sends the rest, takes the server's copy of the one
  /// sent but not recorded as its own (no second resource, no conflict), and doubles nothing.
  @Test func aSyncStoppedRightAfterItsNthPutLosesAndDoublesNothing() async throws {
    let fixture = try await SyncFixture()
    let laptop = try await fixture.machine("laptop")
    try Self.events(laptop, count: Self.count)
    #expect(try laptop.pendingChanges() == Self.count)

    try Self.syncStopped(laptop, at: "put:1")
    var uids = try await Self.serverUIDs(fixture)
    #expect(uids.count == 1, "\(uids)")
    #expect(try laptop.pendingChanges() == Self.count, "the 1st was not recorded as sent")

    // The next one first finds the 1st on the server (a 412, not a PUT), then sends 100.
    try Self.syncStopped(laptop, at: "put:100")
    uids = try await Self.serverUIDs(fixture)
    #expect(uids.count == 101 && Set(uids).count == 101, "\(uids.count) on the server")
    #expect(try laptop.pendingChanges() == Self.count - 100, "1 + 99 recorded as sent")

    let report = try await laptop.sync()
    #expect(report.conflicts.isEmpty, "\(report.conflicts)")
    #expect(report.sent == Self.count - 101, "\(report.sent) sent")
    #expect(try laptop.pendingChanges() == 0)
    uids = try await Self.serverUIDs(fixture)
    #expect(uids.count == Self.count && Set(uids).count == Self.count)
    #expect(try itemCount(laptop) == Self.count)
  }

  /// A new machine's first sync stopped half way through writing its second batch of what it
  /// received (row 750 of batches of 500): exactly the first batch is in the store, nothing
  /// of the second; the sync after brings the rest once.
  @Test func aFirstSyncStoppedHalfWayThroughABatchKeepsTheBatchesBefore() async throws {
    let fixture = try await SyncFixture()
    let laptop = try await fixture.machine("laptop")
    try Self.events(laptop, count: Self.count)
    try await laptop.sync()
    try await Self.seed(fixture, count: Self.received - Self.count)
    let phone = try await fixture.machine("phone")
    try Self.syncStopped(phone, at: "row:\(Self.batch + Self.batch / 2)")
    #expect(try itemCount(phone) == Self.batch)
    try await phone.sync()
    #expect(try itemCount(phone) == Self.received)
    #expect(try phone.pendingChanges() == 0)
  }

  @Test func aSyncKilledAtRandomMomentsLosesAndDoublesNothing() async throws {
    var random = TestSeed("aSyncKilledAtRandomMomentsLosesAndDoublesNothing")
    let fixture = try await SyncFixture()
    let laptop = try await fixture.machine("laptop")
    try Self.events(laptop, count: Self.count)
    // Sending: killed three times part way — each time once it has sent some, at a random
    // moment after — then let finish.
    var killedAt: [Int] = []
    for _ in 0..<3 {
      let before = try laptop.pendingChanges()
      let process = try Self.startSync(laptop)
      while try laptop.pendingChanges() == before, process.isRunning {
        try await Task.sleep(for: .milliseconds(5))
      }
      let delay = Int.random(in: 0..<150, using: &random)
      print("sending: killed \(delay) ms after the first change was sent")
      try await Task.sleep(for: .milliseconds(delay))
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      killedAt.append(try laptop.pendingChanges())
    }
    // The kills came part way through: something sent, something left.
    #expect(killedAt.contains { $0 > 0 && $0 < Self.count }, "\(killedAt)")
    let report = try await laptop.sync()
    #expect(report.conflicts.isEmpty)
    #expect(try laptop.pendingChanges() == 0)
    let uids = try await Self.serverUIDs(fixture)
    #expect(uids.count == Self.count && Set(uids).count == Self.count)
    #expect(try itemCount(laptop) == Self.count)

    // Receiving: a new machine killed part way through its first sync, twice, then let finish.
    // Killed from inside, at a random row of its writes (`CrashPoint`): from outside, at a
    // random delay after the first item came, the whole pull (4 batches, their data in the
    // sync report or asked for one ahead) could be over before the kill.
    try await Self.seed(fixture, count: Self.received - Self.count)
    let phone = try await fixture.machine("phone")
    var received: [Int] = []
    let batch = Self.batch
    for rows in [batch + 1..<2 * batch, 1..<batch] {
      let row = Int.random(in: rows, using: &random)
      print("receiving: killed at row \(row) of this run's writes")
      try Self.syncStopped(phone, at: "row:\(row)")
      received.append(try itemCount(phone))
    }
    #expect(received.contains { $0 > 0 && $0 < Self.received }, "\(received)")
    try await phone.sync()
    #expect(try itemCount(phone) == Self.received)
    #expect(try phone.pendingChanges() == 0)
  }

  @Test func theServerStoppedAndRestartedMidSync() async throws {
    let fixture = try await SyncFixture()
    let laptop = try await fixture.machine("laptop")
    try Self.events(laptop, count: Self.count)
    let process = try Self.startSync(laptop)
    // Stopped once the sync has sent some, not all.
    while try laptop.pendingChanges() == Self.count, process.isRunning {
      try await Task.sleep(for: .milliseconds(10))
    }
    fixture.server.stop()
    process.waitUntilExit()
    let stderr = String(
      decoding: (process.standardError as! Pipe).fileHandleForReading.readDataToEndOfFile(),
      as: UTF8.self)
    #expect(process.terminationStatus != 0)
    #expect(stderr.contains("home:"))
    #expect(try laptop.pendingChanges() > 0)
    try fixture.server.start()
    try await laptop.sync()
    #expect(try laptop.pendingChanges() == 0)
    let uids = try await Self.serverUIDs(fixture)
    #expect(uids.count == Self.count && Set(uids).count == Self.count)
  }
}
