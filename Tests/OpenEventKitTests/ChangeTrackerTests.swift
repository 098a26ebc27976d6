import Foundation
import TestSupport
import Testing

@testable import OpenEventKit

/// `ChangeTracker`: what another store changed is told once, after `EKEventStoreChanged`;
/// what the app's own command claimed is not.
@Suite struct ChangeTrackerTests {
  /// Asks `changes()` until it has something, for up to five seconds (the notification comes
  /// about a tenth of a second after a commit).
  func nextChanges(_ tracker: ChangeTracker<String, Date>) -> [ChangeTracker<String, Date>.Change] {
    let deadline = Date().addingTimeInterval(5)
    while Date() < deadline {
      if let changes = tracker.changes(), !changes.isEmpty { return changes }
      Thread.sleep(forTimeInterval: 0.05)
    }
    return []
  }

  /// An hour-long event saved by `store`, as another app would save it.
  static func save(_ title: String, at start: String, in store: EKEventStore) throws -> EKEvent {
    let event = EKEvent(eventStore: store)
    event.title = title
    event.startDate = StoreFixture.date(start)
    event.endDate = event.startDate.addingTimeInterval(3600)
    event.calendar = store.defaultCalendarForNewEvents
    try store.save(event, span: .thisEvent)
    return event
  }

  @Test func anotherStoresChangesAreToldOnceWithTheirKind() throws {
    let fixture = try StoreFixture()
    let tracker = ChangeTracker<String, Date>(of: [.event]) { $0.calendarItemStamps() }
    tracker.start(with: fixture.store)
    #expect(tracker.changes() == nil)  // nothing posted yet: no snapshot made

    let other = fixture.secondStore()
    let event = try Self.save("Standup", at: "2026-03-02T09:00:00Z", in: other)
    let added = nextChanges(tracker)
    #expect(added.map(\.key) == [event.calendarItemIdentifier])
    #expect(added.first?.before == nil && added.first?.after != nil)
    #expect(tracker.changes() == nil)  // told once

    try other.remove(event, span: .thisEvent)
    let removed = nextChanges(tracker)
    #expect(removed.map(\.key) == [event.calendarItemIdentifier])
    #expect(removed.first?.before != nil && removed.first?.after == nil)
  }

  @Test func settleKeepsQuietAboutWhatTheCommandClaimed() async throws {
    let fixture = try StoreFixture()
    let tracker = ChangeTracker<String, Date>(of: [.event]) { $0.calendarItemStamps() }
    tracker.start(with: fixture.store)
    let notices = StoreNotices(fixture.store)  // after the tracker's: sees each notice after it
    let mine = try fixture.event("Mine", start: "2026-03-02T09:00:00Z")
    let theirs = try Self.save("Theirs", at: "2026-03-03T09:00:00Z", in: fixture.secondStore())

    tracker.claim { $0 == mine.calendarItemIdentifier }
    let told = tracker.settle()
    #expect(told?.map(\.key) == [theirs.calendarItemIdentifier])
    // The reference is now what the app saw: the notices still to come tell nothing of those
    // two. Another app's later commit brings its own notice after theirs; only it is told.
    let sentinel = try #require(
      try await notices.commitSentinel(from: fixture.secondStore(), readBy: fixture.secondStore()))
    #expect(tracker.changes()?.map(\.key) == [sentinel.identifier])
    // Claims last one command. (Stamps are whole seconds: the change falls in the next one.)
    try await Task.sleep(for: .seconds(1))
    mine.title = "Mine, moved"
    mine.startDate = StoreFixture.date("2026-03-04T09:00:00Z")
    mine.endDate = StoreFixture.date("2026-03-04T10:00:00Z")
    try fixture.store.save(mine, span: .thisEvent)
    #expect(tracker.settle()?.map(\.key) == [mine.calendarItemIdentifier])
  }

  @Test func withoutAccessNothingIsToldAndTheChangeWaitsForAccess() async throws {
    let fixture = try StoreFixture()
    let event = try fixture.event("Kept", start: "2026-03-02T09:00:00Z")
    let tracker = ChangeTracker<String, Date>(of: [.event]) { $0.calendarItemStamps() }
    tracker.start(with: fixture.store)
    let notices = StoreNotices(fixture.store)  // after the tracker's: sees each notice after it
    let settings = try PrivacySettings(folder: fixture.folder.url)
    let app = PrivacySettings.currentAppIdentifier
    try settings.set(.denied, for: app, entityType: .event)

    // Another app (the store's owner) removes the event meanwhile.
    let owner = try EKEventStore(
      ownerOf: fixture.folder.url.appendingPathComponent("Calendar.sqlite"))
    try owner.remove(
      try #require(owner.event(withIdentifier: event.eventIdentifier)), span: .thisEvent)
    // The owner's later commit: once its notice came, the removal's had (the owner reads it).
    let sentinel = try #require(try await notices.commitSentinel(from: owner, readBy: owner))
    // The app sees no items now, which is not their removal: nothing is told.
    #expect(tracker.changes() == nil)
    #expect(tracker.settle() == nil)

    try settings.set(.fullAccess, for: app, entityType: .event)
    let told = nextChanges(tracker)
    #expect(Set(told.map(\.key)) == [event.calendarItemIdentifier, sentinel.identifier])
    #expect(told.first { $0.key == event.calendarItemIdentifier }?.after == nil)
  }
}
