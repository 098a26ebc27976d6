import Foundation
import TestSupport
import Testing

@testable import OpenEventKit

/// What a store shows of a new database, and how items are found by their identifiers.
@Suite struct EventStoreTests {
  @Test func aNewStoreHasTheDefaultSourcesAndCalendars() throws {
    let fixture = try StoreFixture()
    let store = fixture.store
    #expect(store.sources.map(\.title) == ["Local", "Subscribed Calendars"])
    #expect(store.sources.map(\.sourceType) == [.local, .subscribed])
    #expect(store.calendars(for: .event).map(\.title) == ["Calendar", "Holidays"])
    #expect(store.calendars(for: .reminder).map(\.title) == ["Reminders"])
    #expect(store.defaultCalendarForNewEvents?.title == "Calendar")
    #expect(store.defaultCalendarForNewReminders()?.title == "Reminders")
    let holidays = try #require(store.calendars(for: .event).first { $0.title == "Holidays" })
    #expect(!holidays.allowsContentModifications)
    #expect(holidays.isSubscribed && holidays.isImmutable && holidays.type == .subscription)
    #expect(holidays.source.sourceType == .subscribed)
    let local = try #require(store.sources.first)
    #expect(local.calendars(for: .event).map(\.title) == ["Calendar"])
    #expect(store.source(withIdentifier: local.sourceIdentifier) == local)
    #expect(store.source(withIdentifier: "nope") == nil)
    #expect(store.calendar(withIdentifier: holidays.calendarIdentifier) == holidays)
    #expect(fixture.calendar.cgColor.components?.count == 4)
  }

  @Test func everyStoreOnOneFileSharesItsIdentifier() throws {
    let fixture = try StoreFixture()
    let identifier = fixture.store.eventStoreIdentifier
    #expect(identifier.count == 36)
    #expect(fixture.secondStore().eventStoreIdentifier == identifier)
    let elsewhere = try StoreFixture()
    #expect(elsewhere.store.eventStoreIdentifier != identifier)
  }

  @Test func aStoreLimitedToSourcesShowsOnlyTheirCalendars() throws {
    let fixture = try StoreFixture()
    let local = try #require(fixture.store.sources.first { $0.sourceType == .local })
    let limited = EKEventStore(sources: [local])
    #expect(limited.sources.map(\.title) == ["Local"])
    #expect(limited.calendars(for: .event).map(\.title) == ["Calendar"])
    // Holidays live in the subscribed source: this store does not see them.
    let predicate = limited.predicateForEvents(
      withStart: StoreFixture.date("2026-12-01T00:00:00Z"),
      end: StoreFixture.date("2027-01-02T00:00:00Z"), calendars: nil)
    #expect(limited.events(matching: predicate).isEmpty)
    #expect(!fixture.store.events(matching: predicate).isEmpty)
  }

  @Test func identifiersFindItemsFromAnyStoreUntilTheyAreDeleted() throws {
    let fixture = try StoreFixture()
    let event = try fixture.event("Dentist", start: "2026-03-02T08:00:00Z")
    let other = fixture.secondStore()
    let found = try #require(other.event(withIdentifier: event.eventIdentifier))
    #expect(found.title == "Dentist")
    #expect(found.calendarItemIdentifier == event.calendarItemIdentifier)
    #expect(found.eventIdentifier == event.eventIdentifier)
    #expect(found.startDate == event.startDate)
    #expect(found.calendar == fixture.calendar)
    #expect(other.calendarItem(withIdentifier: event.calendarItemIdentifier) is EKEvent)
    let byUID = other.calendarItems(withExternalIdentifier: event.calendarItemExternalIdentifier)
    #expect(byUID.map(\.calendarItemIdentifier) == [event.calendarItemIdentifier])
    #expect(found.creationDate != nil && found.lastModifiedDate != nil)

    try other.remove(found, span: .thisEvent)
    #expect(fixture.store.event(withIdentifier: event.eventIdentifier) == nil)
    #expect(fixture.store.calendarItem(withIdentifier: event.calendarItemIdentifier) == nil)
    #expect(
      fixture.store.calendarItems(withExternalIdentifier: event.calendarItemExternalIdentifier)
        .isEmpty)
  }

  @Test func aNewEventHasNoEventIdentifierUntilSaved() throws {
    let fixture = try StoreFixture()
    let event = EKEvent(eventStore: fixture.store)
    #expect(event.eventIdentifier == nil)
    #expect(event.isNew && event.calendar == nil)
    #expect(event.timeZone == TimeZone.current)
    #expect(!event.calendarItemIdentifier.isEmpty)
    event.calendar = fixture.calendar
    event.title = "Call"
    event.startDate = StoreFixture.date("2026-03-02T08:00:00Z")
    event.endDate = StoreFixture.date("2026-03-02T08:30:00Z")
    try fixture.store.save(event, span: .thisEvent)
    #expect(event.eventIdentifier != nil && !event.isNew && !event.hasChanges)
    #expect(fixture.store.calendarItem(withIdentifier: event.calendarItemIdentifier) != nil)
  }

  @Test func aRepeatingEventIsFoundByIdentifierAsItsFirstOccurrence() throws {
    let fixture = try StoreFixture()
    let rule = EKRecurrenceRule(
      recurrenceWith: .daily, interval: 2, end: EKRecurrenceEnd(occurrenceCount: 4))
    let event = try fixture.event("Run", start: "2026-03-02T07:00:00Z", rule: rule)
    let found = try #require(fixture.secondStore().event(withIdentifier: event.eventIdentifier))
    #expect(found.startDate == StoreFixture.date("2026-03-02T07:00:00Z"))
    #expect(found.occurrenceDate == found.startDate)
    #expect(found.recurrenceRules?.first?.frequency == .daily)
    #expect(found.recurrenceRules?.first?.interval == 2)
    #expect(found.recurrenceRules?.first?.recurrenceEnd?.occurrenceCount == 4)
    #expect(found.recurrenceRules?.first?.description == "RRULE FREQ=DAILY;INTERVAL=2;COUNT=4")
  }

  @Test func objectsOfAnotherStoreAreRefused() throws {
    let fixture = try StoreFixture()
    let other = fixture.secondStore()
    let event = EKEvent(eventStore: other)
    event.calendar = other.defaultCalendarForNewEvents
    event.startDate = Date()
    event.endDate = Date()
    expectEKError(.objectBelongsToDifferentStore) {
      try fixture.store.save(event, span: .thisEvent)
    }
    expectEKError(.objectBelongsToDifferentStore) {
      try fixture.store.save(EKReminder(eventStore: other), commit: true)
    }
    expectEKError(.objectBelongsToDifferentStore) {
      try fixture.store.saveCalendar(EKCalendar(for: .event, eventStore: other), commit: true)
    }
  }
}

/// A subclass as test code writes one for Apple's store: its initializer and an override.
final class CountingStore: EKEventStore, @unchecked Sendable {
  var fetches = 0

  override init(folder: URL) {
    super.init(folder: folder)
  }

  override func events(matching predicate: NSPredicate) -> [EKEvent] {
    fetches += 1
    return super.events(matching: predicate)
  }
}

@Suite struct EventStoreSubclassTests {
  @Test func aSubclassCanOverrideTheStoresMethods() throws {
    let folder = try TemporaryFolder()
    let store = CountingStore(folder: folder.url)
    let predicate = store.predicateForEvents(
      withStart: Date(), end: Date().addingTimeInterval(3600), calendars: nil)
    _ = store.events(matching: predicate)
    #expect(store.fetches == 1)
    let alarm = EKAlarm()
    alarm.structuredLocation = EKStructuredLocation(title: "Office")
    alarm.proximity = .enter
    #expect(alarm.relativeOffset == 0 && alarm.structuredLocation?.title == "Office")
  }
}
