import Foundation
import Testing

@testable import OpenEventKit

/// Creating, changing and removing calendars.
@Suite struct CalendarManagementTests {
  @Test func aNewCalendarIsSavedInItsSourceAndSeenByOtherStores() throws {
    let fixture = try StoreFixture()
    let calendar = EKCalendar(for: .event, eventStore: fixture.store)
    #expect(calendar.isNew && calendar.allowedEntityTypes == .event)
    calendar.title = "Poker nights"
    calendar.source = fixture.store.sources.first { $0.sourceType == .local }
    calendar.cgColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    try fixture.store.saveCalendar(calendar, commit: true)
    #expect(!calendar.isNew && !calendar.hasChanges && calendar.type == .local)

    let other = fixture.secondStore()
    let copy = try #require(other.calendar(withIdentifier: calendar.calendarIdentifier))
    #expect(copy.title == "Poker nights" && copy.allowsContentModifications)
    #expect(copy.cgColor.components == [1, 0, 0, 1])
    #expect(other.calendars(for: .event).map(\.title) == ["Calendar", "Holidays", "Poker nights"])
    #expect(copy.source.calendars(for: .event).contains(copy))

    copy.title = "Poker"
    try other.saveCalendar(copy, commit: true)
    #expect(calendar.refresh() && calendar.title == "Poker")

    let list = EKCalendar(for: .reminder, eventStore: fixture.store)
    list.title = "Groceries"
    list.source = calendar.source
    try fixture.store.saveCalendar(list, commit: true)
    #expect(other.calendars(for: .reminder).map(\.title) == ["Reminders", "Groceries"])
  }

  @Test func removingACalendarRemovesItsItems() throws {
    let fixture = try StoreFixture()
    let calendar = EKCalendar(for: .event, eventStore: fixture.store)
    calendar.title = "Trip"
    calendar.source = fixture.calendar.source
    try fixture.store.saveCalendar(calendar, commit: true)
    let event = EKEvent(eventStore: fixture.store)
    event.calendar = calendar
    event.title = "Flight"
    event.startDate = StoreFixture.date("2026-08-01T06:00:00Z")
    event.endDate = StoreFixture.date("2026-08-01T09:00:00Z")
    try fixture.store.save(event, span: .thisEvent)
    let before = try fixture.itemCount()

    try fixture.store.removeCalendar(calendar, commit: false)
    #expect(fixture.store.calendar(withIdentifier: calendar.calendarIdentifier) == nil)
    #expect(fixture.store.event(withIdentifier: event.eventIdentifier) == nil)
    #expect(fixture.secondStore().event(withIdentifier: event.eventIdentifier) != nil)
    try fixture.store.commit()
    #expect(fixture.secondStore().calendar(withIdentifier: calendar.calendarIdentifier) == nil)
    #expect(fixture.secondStore().event(withIdentifier: event.eventIdentifier) == nil)
    #expect(try fixture.itemCount() == before - 1)
    #expect(!calendar.refresh())
  }

  @Test func theDefaultCalendarFallsBackWhenRemoved() throws {
    let fixture = try StoreFixture()
    let spare = EKCalendar(for: .event, eventStore: fixture.store)
    spare.title = "Spare"
    spare.source = fixture.calendar.source
    try fixture.store.saveCalendar(spare, commit: true)
    try fixture.store.removeCalendar(fixture.calendar, commit: true)
    #expect(fixture.store.defaultCalendarForNewEvents?.title == "Spare")
  }
}
