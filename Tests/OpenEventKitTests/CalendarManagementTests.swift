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

  /// A series that never ends counts once, and its detached occurrence once more; reminders
  /// count in their list; each calendar counts its own.
  @Test func calendarItemCountCountsEachEventOnce() throws {
    let fixture = try StoreFixture()
    #expect(fixture.store.calendarItemCount(in: fixture.calendar) == 0)
    try fixture.event("Lunch", start: "2026-03-02T12:00:00Z")
    let daily = try fixture.event(
      "Stand-up", start: "2026-03-02T09:00:00Z",
      rule: EKRecurrenceRule(recurrenceWith: .daily, interval: 1, end: nil))
    let predicate = fixture.store.predicateForEvents(
      withStart: StoreFixture.date("2026-03-04T00:00:00Z"),
      end: StoreFixture.date("2026-03-05T00:00:00Z"), calendars: [fixture.calendar])
    let third = try #require(
      fixture.store.events(matching: predicate).first { $0.title == daily.title })
    third.title = "Stand-up (late)"
    try fixture.store.save(third, span: .thisEvent)
    let reminder = EKReminder(eventStore: fixture.store)
    reminder.title = "Milk"
    reminder.calendar = fixture.reminders
    try fixture.store.save(reminder, commit: true)

    #expect(fixture.store.calendarItemCount(in: fixture.calendar) == 3)
    #expect(fixture.store.calendarItemCount(in: fixture.reminders) == 1)
    let holidays = try #require(
      fixture.store.calendars(for: .event).first { $0.title == "Holidays" })
    #expect(fixture.store.calendarItemCount(in: holidays) == 3)
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
