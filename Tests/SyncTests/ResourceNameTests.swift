import CalDAV
import Foundation
import TestSupport
import Testing

@testable import OpenEventKit
@testable import OpenEventKitSync

/// The names new resources take on a real Radicale: one per item, so that UIDs that make the
/// same safe name, or a name another client took, are neither lost nor false conflicts; and
/// nothing made here stays unsent while a sync says "up to date" (issue 42).
@Suite struct ResourceNameTests {
  /// A calendar file of events at 09:00 on successive days from 2 March 2026.
  static func calendar(_ events: [(uid: String, summary: String)]) -> Data {
    var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Tests//EN"]
    for (index, event) in events.enumerated() {
      lines += [
        "BEGIN:VEVENT", "UID:\(event.uid)", "DTSTAMP:20260101T000000Z",
        "DTSTART:2026030\(2 + index)T090000Z", "DTEND:2026030\(2 + index)T100000Z",
        "SUMMARY:\(event.summary)", "END:VEVENT",
      ]
    }
    lines.append("END:VCALENDAR")
    return Data((lines.joined(separator: "\r\n") + "\r\n").utf8)
  }

  /// The UIDs of every resource alice has on the server, from its storage.
  static func serverUIDs(_ fixture: SyncFixture) throws -> [String] {
    let radicale = try #require(fixture.server as? RadicaleServer)
    let home = radicale.storage.appendingPathComponent("collection-root/\(SyncFixture.user)")
    var uids: [String] = []
    for collection in try FileManager.default.contentsOfDirectory(atPath: home.path) {
      let folder = home.appendingPathComponent(collection)
      for file in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
      where file.hasSuffix(".ics") {
        let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
        uids += text.components(separatedBy: "\r\n").filter { $0.hasPrefix("UID:") }
          .map { String($0.dropFirst(4)) }
      }
    }
    return uids.sorted()
  }

  static let window = ("2026-03-01T00:00:00Z", "2026-04-01T00:00:00Z")

  /// The UID when it is a safe name; else its safe form and a hash of it, the same each time.
  @Test func namesOfUIDs() {
    #expect(ResourceNames.candidates(uid: "team_meeting").first == "team_meeting")
    #expect(ResourceNames.candidates(uid: "team/meeting").first == "team_meeting-ad430250")
    let names = ResourceNames.candidates(uid: "team/meeting")
    #expect(
      names.count == 2 && names[1].hasPrefix(names[0]) && names[1].count == names[0].count + 8)
    #expect(ResourceNames.candidates(uid: "team/meeting") == names)
    let long = String(repeating: "x", count: 200)
    #expect(
      ResourceNames.candidates(uid: long).first == String(repeating: "x", count: 100) + "-"
        + "aa20c23e")
    #expect(ResourceNames.candidates(uid: "../../etc").allSatisfy { !$0.contains("/") })
  }

  /// `team/meeting` and `team_meeting` make one safe name: both reach the server, under names
  /// of their own, with no conflict and no copy in "Conflicts".
  @Test func twoUIDsOfOneSafeNameBothReachTheServer() async throws {
    let fixture = try await SyncFixture()
    let laptop = try await fixture.machine("laptop")
    try await laptop.sync()
    _ = try laptop.store.importICalendar(
      Self.calendar([("team/meeting", "Slash"), ("team_meeting", "Underscore")]),
      calendarTitle: "Home")
    let report = try await laptop.sync()
    #expect(report.sent == 2)
    #expect(report.conflicts.isEmpty, "\(report.conflicts)")
    #expect(laptop.conflictCopies().isEmpty)
    #expect(try laptop.pendingChanges() == 0)
    #expect(try Self.serverUIDs(fixture) == ["team/meeting", "team_meeting"])
    #expect(try await laptop.sync().isEmpty)

    let phone = try await fixture.machine("phone")
    try await phone.sync()
    #expect(
      try phone.occurrences(Self.window.0, Self.window.1) == [
        "Slash@2026-03-02T09:00:00Z", "Underscore@2026-03-03T09:00:00Z",
      ])
  }

  /// Another client's resource of another UID at the name a new item would take: the item
  /// goes under its next name, and both are here and there after the sync.
  @Test func aNameTakenOnTheServerByAnotherUIDIsNoConflict() async throws {
    let fixture = try await SyncFixture()
    let laptop = try await fixture.machine("laptop")
    try await laptop.sync()
    let collection = try #require(
      try laptop.accounts.account(named: "home").calendars.first { $0.entityType == .event }?.url)
    let other = try CalDAVClient(
      baseURL: fixture.server.url, user: SyncFixture.user, password: SyncFixture.password)
    do {
      _ = try await other.put(
        collection.appendingPathComponent("standup.ics"),
        data: Self.calendar([("someone-else", "Theirs")]), ifMatch: nil)
    } catch {
      await other.shutdown()
      throw error
    }
    await other.shutdown()

    _ = try laptop.store.importICalendar(
      Self.calendar([("standup", "Ours")]), calendarTitle: "Home")
    let report = try await laptop.sync()
    #expect(report.sent == 1)
    #expect(report.received == 1)
    #expect(report.conflicts.isEmpty, "\(report.conflicts)")
    #expect(laptop.conflictCopies().isEmpty)
    #expect(try Self.serverUIDs(fixture) == ["someone-else", "standup"])
    #expect(
      try laptop.occurrences(Self.window.0, Self.window.1) == [
        "Ours@2026-03-02T09:00:00Z", "Theirs@2026-03-02T09:00:00Z",
      ])
  }

  /// Another client's resource holding a new item's UID under a name of its own: the server
  /// refuses the item (CALDAV:no-uid-conflict, Radicale with 409, Xandikos with 412) and names
  /// no resource. The server's version wins and comes in, the local one is kept in
  /// "Conflicts", and nothing waits to be sent. Radicale's 409 failed every sync after; the
  /// 412 of Xandikos was taken for a removal on the server.
  @Test(arguments: CalDAVServerKind.allCases)
  func aUIDHeldByAnotherResourceOnTheServerIsAConflict(_ server: CalDAVServerKind) async throws {
    let fixture = try await SyncFixture(server)
    let laptop = try await fixture.machine("laptop")
    try await laptop.sync()
    let collection = try #require(
      try laptop.accounts.account(named: "home").calendars.first { $0.entityType == .event }?.url)
    let other = try CalDAVClient(
      baseURL: fixture.server.url, user: SyncFixture.user, password: SyncFixture.password)
    do {
      _ = try await other.put(
        collection.appendingPathComponent("theirs.ics"),
        data: Self.calendar([("standup", "Theirs")]), ifMatch: nil)
    } catch {
      await other.shutdown()
      throw error
    }
    await other.shutdown()

    _ = try laptop.store.importICalendar(
      Self.calendar([("standup", "Ours")]), calendarTitle: "Home")
    let report = try await laptop.sync()
    #expect(report.conflicts.map(\.properties) == [["UID held by another resource on the server"]])
    #expect(laptop.conflictCopies() == ["Ours"])
    #expect(try laptop.pendingChanges() == 0)
    #expect(try laptop.occurrences(Self.window.0, Self.window.1) == ["Theirs@2026-03-02T09:00:00Z"])
    #expect(try await laptop.sync().isEmpty)
  }

  /// An item an older version left with neither a resource nor an outbox entry (dropped as a
  /// false conflict) is sent by the next sync, which does not say "up to date" before.
  @Test func anItemLeftUnsentIsSent() async throws {
    let fixture = try await SyncFixture()
    let laptop = try await fixture.machine("laptop")
    try await laptop.sync()
    _ = try laptop.store.importICalendar(
      Self.calendar([("left-behind", "Left behind")]), calendarTitle: "Home")
    let sqlite = try runProgram(
      try Programs.path("sqlite3"),
      [laptop.databaseFile.path, "DELETE FROM outbox WHERE uid = 'left-behind'"], input: nil,
      environment: ProcessInfo.processInfo.environment)
    #expect(sqlite.status == 0, "\(sqlite.stderr)")
    #expect(try laptop.pendingChanges() == 0)

    let report = try await laptop.sync()
    #expect(report.sent == 1)
    #expect(try Self.serverUIDs(fixture) == ["left-behind"])
    #expect(try await laptop.sync().isEmpty)
  }
}
