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
      let changes = tracker.changes()
      if !changes.isEmpty { return changes }
      Thread.sleep(forTimeInterval: 0.05)
    }
    return []
  }

  @Test func anotherStoresChangesAreToldOnceWithTheirKind() throws {
    let fixture = try StoreFixture()
    let tracker = ChangeTracker<String, Date> { $0.calendarItemStamps() }
    tracker.start(with: fixture.store)
    #expect(tracker.changes().isEmpty)  // nothing posted yet: no snapshot made

    let other = fixture.secondStore()
    let event = EKEvent(eventStore: other)
    event.title = "Standup"
    event.startDate = StoreFixture.date("2026-03-02T09:00:00Z")
    event.endDate = StoreFixture.date("2026-03-02T09:15:00Z")
    event.calendar = other.defaultCalendarForNewEvents
    try other.save(event, span: .thisEvent)
    let added = nextChanges(tracker)
    #expect(added.map(\.key) == [event.calendarItemIdentifier])
    #expect(added.first?.before == nil && added.first?.after != nil)
    #expect(tracker.changes().isEmpty)  // told once

    try other.remove(event, span: .thisEvent)
    let removed = nextChanges(tracker)
    #expect(removed.map(\.key) == [event.calendarItemIdentifier])
    #expect(removed.first?.before != nil && removed.first?.after == nil)
  }

  @Test func settleKeepsQuietAboutWhatTheCommandClaimed() throws {
    let fixture = try StoreFixture()
    let tracker = ChangeTracker<String, Date> { $0.calendarItemStamps() }
    tracker.start(with: fixture.store)
    let mine = try fixture.event("Mine", start: "2026-03-02T09:00:00Z")
    let other = fixture.secondStore()
    let theirs = EKEvent(eventStore: other)
    theirs.title = "Theirs"
    theirs.startDate = StoreFixture.date("2026-03-03T09:00:00Z")
    theirs.endDate = StoreFixture.date("2026-03-03T10:00:00Z")
    theirs.calendar = other.defaultCalendarForNewEvents
    try other.save(theirs, span: .thisEvent)

    tracker.claim { $0 == mine.calendarItemIdentifier }
    let told = tracker.settle()
    #expect(told.map(\.key) == [theirs.calendarItemIdentifier])
    // The reference is now what the app saw: the notifications still to come tell nothing.
    Thread.sleep(forTimeInterval: 0.5)
    #expect(tracker.changes().isEmpty)
    // Claims last one command. (Stamps are whole seconds: the change falls in the next one.)
    Thread.sleep(forTimeInterval: 1)
    mine.title = "Mine, moved"
    mine.startDate = StoreFixture.date("2026-03-04T09:00:00Z")
    mine.endDate = StoreFixture.date("2026-03-04T10:00:00Z")
    try fixture.store.save(mine, span: .thisEvent)
    #expect(tracker.settle().map(\.key) == [mine.calendarItemIdentifier])
  }
}
