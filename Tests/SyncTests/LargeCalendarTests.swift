import CalDAV
import Foundation
import TestSupport
import Testing

@testable import OpenEventKit
@testable import OpenEventKitSync

#if canImport(Glibc)
  import Glibc
#endif

/// Large calendars (issue 42): a first sync of many events from a real Radicale, more changes
/// than a page from a real Xandikos, and from the crafted server of Tests/Fixtures/caldav,
/// sync reports in pages and resources fetched in batches, a sync stopped half way that
/// resumes, a resource holding many UIDs.
@Suite struct LargeCalendarTests {
  /// 3,000 events in `swift test`; 100,000 in the reliability suite's full form
  /// (`OPENEVENTKIT_RELIABILITY=full`, scripts/reliability).
  static let radicaleEvents =
    ProcessInfo.processInfo.environment["OPENEVENTKIT_RELIABILITY"] == "full" ? 100_000 : 3_000

  /// A first sync of a calendar of ``radicaleEvents`` events from Radicale, whose storage is
  /// filled directly (as an administrator restoring a backup would) before it starts. The
  /// listing of 100,000 is about 23 MB, over the 10 MB the XML parser took: such a calendar
  /// could never finish its first sync. Prints the time and the process's peak memory.
  @Test(.timeLimit(.minutes(60)))
  func aFirstSyncOfALargeCalendarFromRadicale() async throws {
    let count = Self.radicaleEvents
    let server = try RadicaleServer(users: ["alice": "alice"])
    server.stop()
    let collection = try server.makeCalendar(
      user: "alice", name: "big", displayName: "Big", components: ["VEVENT"])
    let folder = server.storage.appendingPathComponent("collection-root/alice/big")
    let seeding = ContinuousClock.now
    for number in 1...count {
      try Self.event(number).write(to: folder.appendingPathComponent("big-\(number).ics"))
    }
    print("seeded Radicale with \(count) events in \(ContinuousClock.now - seeding)")
    try server.start()
    let warming = ContinuousClock.now
    try Self.warm(collection)
    print("Radicale made its cache of \(count) events in \(ContinuousClock.now - warming)")

    let home = try TemporaryFolder(prefix: "LargeSync")
    let machine = try Machine(folder: home.url.appendingPathComponent("laptop"))
    _ = try await machine.accounts.add(
      url: server.url, user: "alice", password: "alice", name: "home")
    let start = ContinuousClock.now
    let report = try await machine.sync()
    let took = ContinuousClock.now - start
    print(
      "first sync of \(count) events from Radicale: \(took), "
        + "peak memory of the test process \(Self.peakMemoryMB()) MB")
    #expect(report.received == count, "\(report.unreadable.prefix(3))")
    #expect(report.unreadable.isEmpty)
    let calendar = try Self.calendar("Big", machine)
    #expect(try Self.uids(machine, calendar, year: 2024).count == count)

    // Nothing changed: the next sync fetches nothing.
    let again = try await machine.sync()
    #expect(again.received == 0 && again.receivedRemovals == 0)
  }

  /// A first and an incremental sync of more changes than a page of the sync report
  /// (``CalDAVClient/syncPageSize``) from Xandikos, whose storage is filled with git. Xandikos
  /// 0.4 answers a DAV:limit with that many members, not marked truncated, under its newest
  /// token: a first sync took 1,000 of 1,500 events, and an incremental sync of 1,200
  /// changes 1,000 of them, the rest lost for good.
  @Test func moreChangesThanAPageFromXandikosAllComeIn() async throws {
    let count = CalDAVClient.syncPageSize + 100
    let fixture = try await SyncFixture(.xandikos)
    let xandikos = try #require(fixture.server as? XandikosServer)
    let client = try CalDAVClient(
      baseURL: xandikos.url, user: SyncFixture.user, password: SyncFixture.password)
    let collection: URL
    do {
      collection = try await client.makeCalendar(
        home: xandikos.home(user: SyncFixture.user), displayName: "Big", color: nil,
        components: ["VEVENT"])
    } catch {
      await client.shutdown()
      throw error
    }
    await client.shutdown()
    var files: [String: Data] = [:]
    for number in 1...count { files["big-\(number).ics"] = Self.event(number) }
    try xandikos.commit(files, to: collection)

    let laptop = try await fixture.machine("laptop")
    var start = ContinuousClock.now
    let first = try await laptop.sync()
    print("first sync of \(count) events from Xandikos: \(ContinuousClock.now - start)")
    #expect(first.received == count)
    let calendar = try Self.calendar("Big", laptop)
    #expect(try Self.uids(laptop, calendar, year: 2024).count == count)

    // Every one changed on the server: every change comes in.
    let changed = count
    files = [:]
    for number in 1...changed {
      files["big-\(number).ics"] = Self.event(number, summary: "Moved \(number)")
    }
    try xandikos.commit(files, to: collection)
    start = ContinuousClock.now
    let again = try await laptop.sync()
    print("sync of \(changed) changes from Xandikos: \(ContinuousClock.now - start)")
    #expect(again.received == changed)
    laptop.store.dropCatalog()
    let predicate = laptop.store.predicateForEvents(
      withStart: Machine.date("2024-01-01T00:00:00Z"), end: Machine.date("2025-01-01T00:00:00Z"),
      calendars: [try Self.calendar("Big", laptop)])
    let moved = laptop.store.events(matching: predicate).filter {
      $0.title?.hasPrefix("Moved ") ?? false
    }
    #expect(moved.count == changed)
  }

  /// A whole sync from the crafted server, which pages its report by the limit asked: three
  /// pages of the report, then multiget in batches, every event in once.
  @Test func aFirstSyncComesInPagesAndBatches() async throws {
    let batch = CalDAVClient.multigetBatchSize
    let server = try CraftedServer(events: 2_500, limit: .honour)
    let (machine, home) = try await Self.machine(of: server)
    let report = try await machine.sync()
    #expect(report.received == 2_500)
    #expect(try Self.uids(machine, Self.calendar("Big", machine), year: 2024).count == 2_500)
    let requests = server.requests
    #expect(requests.filter { $0.hasPrefix("SYNC") }.count == 3, "\(requests)")
    let multigets = requests.filter { $0.hasPrefix("MULTIGET") }
    #expect(
      multigets == Array(repeating: "MULTIGET \(batch)", count: 2_500 / batch)
        + (2_500 % batch == 0 ? [] : ["MULTIGET \(2_500 % batch)"]), "\(requests)")
    _ = home
  }

  /// A first sync from a server whose sync report brings the calendar data asked for
  /// (Radicale and sabre/dav do): no multiget at all, the pages' members written in batches,
  /// every event in once. The crafted server of ``aFirstSyncComesInPagesAndBatches()``
  /// answers 404 for the data (as Xandikos does), and the same sync fetches it by multiget.
  @Test func aFirstSyncTakesTheDataTheSyncReportBrings() async throws {
    let server = try CraftedServer(events: 2_500, limit: .honour, syncData: true)
    let (machine, home) = try await Self.machine(of: server)
    let report = try await machine.sync()
    #expect(report.received == 2_500)
    let uids = try Self.uids(machine, Self.calendar("Big", machine), year: 2024)
    #expect(uids.count == 2_500 && Set(uids).count == 2_500)
    let requests = server.requests
    #expect(
      requests.filter { $0.hasPrefix("SYNC") }.allSatisfy { $0.contains(" data -> ") }
        && requests.filter { $0.hasPrefix("SYNC") }.count == 3, "\(requests)")
    #expect(!requests.contains { $0.hasPrefix("MULTIGET") }, "\(requests)")
    // Nothing changed: the next sync, from the token, fetches nothing.
    let again = try await machine.sync()
    #expect(again.received == 0 && again.receivedRemovals == 0)
    _ = home
  }

  /// A sync stopped half way (the fourth multiget refused) keeps the batches it wrote; the
  /// next fetches only the rest, and no event is in twice or missing.
  @Test func aSyncStoppedHalfWayResumesWithoutDuplicatesOrLosses() async throws {
    let batch = CalDAVClient.multigetBatchSize
    let events = 5 * batch
    let server = try CraftedServer(events: events, failMultiget: 4)
    let (machine, home) = try await Self.machine(of: server)
    await #expect(throws: SyncError.self) { try await machine.sync() }
    let calendar = try Self.calendar("Big", machine)
    #expect(try Self.uids(machine, calendar, year: 2024).count == 3 * batch)
    // The next batch is asked for while one is written, and no further: the fourth failed
    // as the third was written, and the fifth was never asked.
    #expect(
      server.requests.filter { $0.hasPrefix("MULTIGET") }
        == Array(repeating: "MULTIGET \(batch)", count: 3) + ["MULTIGET \(batch) -> 503"],
      "\(server.requests)")

    let before = server.requests.count
    let report = try await machine.sync()
    #expect(report.received == 2 * batch)
    let asked = server.requests[before...].filter { $0.hasPrefix("MULTIGET") }
      .compactMap { Int($0.split(separator: " ")[1]) }.reduce(0, +)
    #expect(asked == 2 * batch)
    let uids = try Self.uids(machine, calendar, year: 2024)
    #expect(uids.count == events && Set(uids).count == events)
    _ = home
  }

  /// One resource holding 50 events of 50 UIDs (RFC 4791 §4.1 allows one): it is left out
  /// and said in the report, naming it and the count, and the other events come in. It was
  /// taken as its first event alone, the rest dropped without a word ("1 in").
  @Test func aResourceOfManyUIDsIsRefusedAndSaid() async throws {
    let server = try CraftedServer(events: 5, multiUID: 50)
    let (machine, home) = try await Self.machine(of: server)
    let report = try await machine.sync()
    #expect(report.received == 5)
    #expect(report.unreadable.count == 1)
    let said = try #require(report.unreadable.first)
    #expect(said.hasPrefix("/dav/alice/big/many.ics: it holds 50 items of 50 different UIDs"))
    #expect(said.contains("RFC 4791"))
    let uids = try Self.uids(machine, Self.calendar("Big", machine), year: 2024)
    #expect(uids.count == 5 && !uids.contains { $0.hasPrefix("many-") })
    _ = home
  }

  // MARK: Helpers

  /// A machine with the crafted server's account added, and the folder that holds it.
  static func machine(of server: CraftedServer) async throws -> (Machine, TemporaryFolder) {
    let home = try TemporaryFolder(prefix: "LargeSync")
    let machine = try Machine(folder: home.url.appendingPathComponent("laptop"))
    _ = try await machine.accounts.add(
      url: server.url, user: "alice", password: "alice", name: "home")
    return (machine, home)
  }

  static func calendar(_ title: String, _ machine: Machine) throws -> EKCalendar {
    machine.store.dropCatalog()
    return try #require(machine.store.calendars(for: .event).first { $0.title == title })
  }

  /// The UIDs of the events of `calendar` in a year, one per event.
  static func uids(_ machine: Machine, _ calendar: EKCalendar, year: Int) throws -> [String] {
    machine.store.dropCatalog()
    let predicate = machine.store.predicateForEvents(
      withStart: Machine.date("\(year)-01-01T00:00:00Z"),
      end: Machine.date("\(year + 1)-01-01T00:00:00Z"), calendars: [calendar])
    return machine.store.events(matching: predicate).map(\.calendarItemExternalIdentifier)
  }

  /// Event `number` of the seeded calendar: an hour on a day of 2024.
  static func event(_ number: Int, summary: String? = nil) -> Data {
    let day = number % 365
    let start = "2024\(two(1 + day / 31 % 12))\(two(1 + day % 28))T\(two(number % 24))0000Z"
    let lines = [
      "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//OpenEventKit//Tests//EN", "BEGIN:VEVENT",
      "UID:big-\(number)", "DTSTAMP:20240101T000000Z", "DTSTART:\(start)",
      "DURATION:PT30M", "SUMMARY:\(summary ?? "Event \(number)")", "END:VEVENT", "END:VCALENDAR",
    ]
    return Data((lines.joined(separator: "\r\n") + "\r\n").utf8)
  }

  /// 7 as "07".
  static func two(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }

  /// Has Radicale read every item of `collection` once, with no timeout. Radicale keeps a
  /// cache of each item (its ETag, its parsed form), made as items are uploaded; items
  /// written to its folder directly have none, and the first request that lists them makes
  /// it, for 100,000 events in more than the client's two minutes of silence allowed (its
  /// read timeout). A listing asked first, as the uploads would have, makes it.
  static func warm(_ collection: URL) throws {
    let script = """
      import sys, urllib.request
      body = b'<propfind xmlns="DAV:"><prop><getetag/></prop></propfind>'
      request = urllib.request.Request(sys.argv[1], data=body, method="PROPFIND",
          headers={"Depth": "1", "Authorization": "Basic YWxpY2U6YWxpY2U="})
      urllib.request.urlopen(request, timeout=3600).read()
      """
    let process = Process()
    process.executableURL = try Python.executable()
    process.arguments = ["-c", script, collection.absoluteString]
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
  }

  /// The process's peak resident memory so far, in megabytes.
  static func peakMemoryMB() -> Int {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return usage.ru_maxrss / 1024
  }
}
