import Foundation
import TestSupport
import Testing

@testable import OpenEventKit

/// Both machines change the same event before syncing: different fields merge, the same
/// field goes the server's way with the local version kept in "Conflicts"; on Radicale and
/// Xandikos in turn, each with its own ETags and 412s.
@Suite struct ConflictTests {
  /// An event both machines have, synced.
  func shared(_ fixture: SyncFixture) async throws -> (Machine, Machine, EKEvent, EKEvent) {
    let laptop = try await fixture.machine("laptop")
    let phone = try await fixture.machine("phone")
    let event = try laptop.event("Dinner", start: "2026-03-02T19:00:00Z")
    event.location = "Home"
    try laptop.store.save(event, span: .thisEvent)
    try await laptop.sync()
    try await phone.sync()
    let onPhone = try #require(
      phone.store.calendarItems(withExternalIdentifier: event.calendarItemExternalIdentifier)
        .first as? EKEvent)
    return (laptop, phone, event, onPhone)
  }

  @Test(arguments: CalDAVServerKind.allCases)
  func differentFieldsMerge(_ server: CalDAVServerKind) async throws {
    let fixture = try await SyncFixture(server)
    let (laptop, phone, onLaptop, onPhone) = try await shared(fixture)
    onPhone.location = "Bistro"
    try phone.store.save(onPhone, span: .thisEvent)
    try await phone.sync()
    onLaptop.title = "Dinner with Sam"
    try laptop.store.save(onLaptop, span: .thisEvent)
    let report = try await laptop.sync()
    #expect(report.conflicts.map(\.resolution) == [.merged])
    try await phone.sync()
    for machine in [laptop, phone] {
      let event = try #require(
        machine.store.calendarItems(withExternalIdentifier: onLaptop.calendarItemExternalIdentifier)
          .first as? EKEvent)
      #expect(event.title == "Dinner with Sam" && event.location == "Bistro")
      #expect(machine.conflictCopies().isEmpty)
    }
  }

  @Test(arguments: CalDAVServerKind.allCases)
  func theSameFieldGoesTheServersWayAndTheLocalVersionIsKept(_ server: CalDAVServerKind)
    async throws
  {
    let fixture = try await SyncFixture(server)
    let (laptop, phone, onLaptop, onPhone) = try await shared(fixture)
    onPhone.title = "Supper"
    try phone.store.save(onPhone, span: .thisEvent)
    try await phone.sync()
    onLaptop.title = "Dinner at eight"
    try laptop.store.save(onLaptop, span: .thisEvent)
    let report = try await laptop.sync()
    let conflict = try #require(report.conflicts.first)
    #expect(conflict.properties == ["VEVENT SUMMARY"])
    guard case .serverWon(let copy?) = conflict.resolution else {
      Issue.record("expected the server's version to win with a copy: \(conflict)")
      return
    }
    #expect(laptop.store.calendarItem(withIdentifier: copy)?.title == "Dinner at eight")
    #expect(laptop.conflictCopies() == ["Dinner at eight"])
    #expect(laptop.store.event(withIdentifier: onLaptop.eventIdentifier)?.title == "Supper")
    // The copy is in the Local source: it goes nowhere.
    #expect(try laptop.pendingChanges() == 0)
    try await phone.sync()
    #expect(phone.store.event(withIdentifier: onPhone.eventIdentifier)?.title == "Supper")
  }

  @Test(arguments: CalDAVServerKind.allCases)
  func aRemovalAgainstAChangeKeepsTheChange(_ server: CalDAVServerKind) async throws {
    let fixture = try await SyncFixture(server)
    let (laptop, phone, onLaptop, onPhone) = try await shared(fixture)
    onPhone.title = "Supper"
    try phone.store.save(onPhone, span: .thisEvent)
    try await phone.sync()
    try laptop.store.remove(onLaptop, span: .thisEvent)
    let report = try await laptop.sync()
    #expect(report.conflicts.count == 1)
    // The server's changed version comes back (a new item here: the removed one is gone).
    let back = laptop.store.calendarItems(
      withExternalIdentifier: onLaptop.calendarItemExternalIdentifier)
    #expect(back.map(\.title) == ["Supper"])
    #expect(try laptop.pendingChanges() == 0)
  }
}
