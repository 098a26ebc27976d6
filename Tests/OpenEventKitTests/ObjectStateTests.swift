import Foundation
import Testing

@testable import OpenEventKit

/// `hasChanges`, `isNew`, `rollback()`, `reset()` and `refresh()`, and the values objects keep.
@Suite struct ObjectStateTests {
  @Test func changesAreTrackedAndRolledBack() throws {
    let fixture = try StoreFixture()
    let event = try fixture.event("Review", start: "2026-03-02T09:00:00Z")
    #expect(!event.hasChanges && !event.isNew)
    event.title = "Code review"
    event.location = "Room 4"
    #expect(event.hasChanges)
    event.rollback()
    #expect(event.title == "Review" && event.location == nil && !event.hasChanges)
    // Objects handed out count too: changing an alarm in place changes the event.
    event.addAlarm(EKAlarm(relativeOffset: -600))
    try fixture.store.save(event, span: .thisEvent)
    event.alarms?.first?.relativeOffset = -900
    #expect(event.hasChanges)
    event.reset()
    #expect(event.alarms?.map(\.relativeOffset) == [-600] && !event.hasChanges)
    // An alarm held across a save still belongs to the event.
    let held = try #require(event.alarms?.first)
    try fixture.store.save(event, span: .thisEvent)
    held.relativeOffset = -1200
    #expect(event.hasChanges && event.alarms?.first?.relativeOffset == -1200)
  }

  @Test func refreshSeesOtherStoresAndKeepsLocalChanges() throws {
    let fixture = try StoreFixture()
    let mine = try fixture.event("Lunch", start: "2026-03-02T12:00:00Z")
    let other = fixture.secondStore()
    let theirs = try #require(other.event(withIdentifier: mine.eventIdentifier))
    theirs.title = "Team lunch"
    theirs.notes = "Booked"
    try other.save(theirs, span: .thisEvent)

    #expect(mine.title == "Lunch")
    #expect(mine.refresh())
    #expect(mine.title == "Team lunch" && mine.notes == "Booked" && !mine.hasChanges)

    mine.location = "Cafe"  // an unsaved change survives a refresh…
    theirs.notes = "Moved to Friday"
    try other.save(theirs, span: .thisEvent)
    #expect(mine.refresh())
    // …while the fields not changed here take the latest saved values.
    #expect(mine.location == "Cafe" && mine.notes == "Moved to Friday" && mine.hasChanges)

    try other.remove(theirs, span: .thisEvent)
    #expect(!mine.refresh())
  }

  /// The check an app on Apple's EventKit makes before saving an item others edit too (poker-vote's
  /// conflict-safe pattern): `refresh()`, then compare `lastModifiedDate` with the one read.
  @Test func refreshBringsAnotherStoresLastModifiedDateAndKeepsTheEditBeingMade() throws {
    let fixture = try StoreFixture()
    let mine = try fixture.event("Poker", start: "2026-03-06T19:00:00Z")
    let read = try #require(mine.lastModifiedDate)
    mine.notes = "ann: yes"  // an edit in progress

    #expect(mine.refresh())
    #expect(mine.lastModifiedDate == read, "nobody saved: the date is the one read")

    // The store keeps whole seconds, as Apple's does: the other save comes in a later second.
    while Date().timeIntervalSince1970.rounded(.down) <= read.timeIntervalSince1970 {
      Thread.sleep(forTimeInterval: 0.01)
    }
    let other = fixture.secondStore()
    let theirs = try #require(other.event(withIdentifier: mine.eventIdentifier))
    theirs.notes = "bob: yes"
    try other.save(theirs, span: .thisEvent)
    let theirDate = try #require(theirs.lastModifiedDate)
    #expect(theirDate > read)
    #expect(mine.refresh())
    #expect(mine.lastModifiedDate == theirDate, "another store's save is seen")
    #expect(mine.notes == "ann: yes" && mine.hasChanges, "the edit in progress is kept")
    mine.rollback()
    #expect(mine.notes == "bob: yes")
  }

  /// Each save stamps `lastModifiedDate` anew, on the object that saved and in the database,
  /// so that the conflict-safe check of the next writer sees it; a removed event refreshes false.
  @Test func eachSaveStampsLastModifiedDateAndARemovedEventRefreshesFalse() throws {
    let fixture = try StoreFixture()
    let event = try fixture.event("Poker", start: "2026-03-06T19:00:00Z")
    let first = try #require(event.lastModifiedDate)
    // The store keeps whole seconds, as Apple's does: the next save comes in a later second.
    while Date().timeIntervalSince1970.rounded(.down) <= first.timeIntervalSince1970 {
      Thread.sleep(forTimeInterval: 0.01)
    }
    event.notes = "ann: yes"
    try fixture.store.save(event, span: .thisEvent, commit: true)
    let second = try #require(event.lastModifiedDate)
    #expect(second > first, "the object that saved has the new date")
    let other = fixture.secondStore()
    let theirs = try #require(other.event(withIdentifier: event.eventIdentifier))
    #expect(theirs.lastModifiedDate == second, "the database has it too")
    try other.remove(theirs, span: .thisEvent)
    #expect(!event.refresh(), "removed meanwhile: refresh() says so")
  }

  @Test func everyFieldSurvivesTheDatabase() throws {
    let fixture = try StoreFixture()
    let event = EKEvent(eventStore: fixture.store)
    event.calendar = fixture.calendar
    event.title = "Concert"
    event.location = "Hall"
    event.notes = "Row 5"
    event.url = URL(string: "https://example.com/tickets")
    event.timeZone = TimeZone(identifier: "Europe/Paris")
    event.startDate = StoreFixture.date("2026-06-21T18:30:00Z")
    event.endDate = StoreFixture.date("2026-06-21T21:00:00Z")
    event.availability = .tentative
    let place = EKStructuredLocation(title: "Salle Pleyel")
    place.geoLocation = CLLocation(latitude: 48.8777, longitude: 2.3009)
    place.radius = 150
    event.structuredLocation = place
    event.addAlarm(EKAlarm(relativeOffset: -3600))
    event.addAlarm(EKAlarm(absoluteDate: StoreFixture.date("2026-06-20T09:00:00Z")))
    let arriving = EKAlarm(relativeOffset: 0)
    arriving.structuredLocation = EKStructuredLocation(title: "Home")
    arriving.proximity = .leave
    event.addAlarm(arriving)
    let rule = EKRecurrenceRule(
      recurrenceWith: .yearly, interval: 1,
      end: EKRecurrenceEnd(end: StoreFixture.date("2030-01-01T00:00:00Z")))
    event.addRecurrenceRule(rule)
    try fixture.store.save(event, span: .futureEvents)

    let copy = try #require(fixture.secondStore().event(withIdentifier: event.eventIdentifier))
    #expect(copy.title == "Concert" && copy.location == "Hall" && copy.notes == "Row 5")
    #expect(copy.url?.absoluteString == "https://example.com/tickets")
    #expect(copy.timeZone?.identifier == "Europe/Paris")
    #expect(copy.startDate == event.startDate && copy.endDate == event.endDate)
    #expect(copy.availability == .tentative && copy.status == .none)
    #expect(copy.structuredLocation?.title == "Salle Pleyel")
    #expect(copy.structuredLocation?.geoLocation?.coordinate.latitude == 48.8777)
    #expect(copy.structuredLocation?.radius == 150)
    #expect(copy.alarms?.count == 3)
    #expect(copy.alarms?[0].relativeOffset == -3600)
    #expect(copy.alarms?[1].absoluteDate == StoreFixture.date("2026-06-20T09:00:00Z"))
    #expect(copy.alarms?[2].proximity == .leave)
    #expect(copy.alarms?[2].structuredLocation?.title == "Home")
    #expect(
      copy.recurrenceRules?.first?.recurrenceEnd?.endDate
        == StoreFixture.date("2030-01-01T00:00:00Z"))
    #expect(copy.hasRecurrenceRules && copy.hasAlarms && copy.hasNotes && !copy.hasAttendees)
    #expect(copy.attendees == nil && copy.organizer == nil)
    #expect(!copy.hasChanges)
  }

  @Test func complexRulesKeepEveryPart() throws {
    let fixture = try StoreFixture()
    // The last weekday of every month, three times.
    let weekdays: [EKWeekday] = [.monday, .tuesday, .wednesday, .thursday, .friday]
    let rule = EKRecurrenceRule(
      recurrenceWith: .monthly, interval: 1,
      daysOfTheWeek: weekdays.map { EKRecurrenceDayOfWeek($0) },
      daysOfTheMonth: nil, monthsOfTheYear: nil, weeksOfTheYear: nil, daysOfTheYear: nil,
      setPositions: [-1], end: EKRecurrenceEnd(occurrenceCount: 3))
    #expect(rule.description == "RRULE FREQ=MONTHLY;COUNT=3;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1")
    let event = try fixture.event("Payroll", start: "2026-01-30T09:00:00Z", rule: rule)
    let copy = try #require(fixture.secondStore().event(withIdentifier: event.eventIdentifier))
    let copied = try #require(copy.recurrenceRules?.first)
    #expect(copied.setPositions == [-1])
    #expect(copied.daysOfTheWeek?.map(\.dayOfTheWeek) == weekdays)
    #expect(copied.frequency == .monthly && copied.daysOfTheMonth == nil)
    let starts = fixture.store.events(
      matching: fixture.store.predicateForEvents(
        withStart: StoreFixture.date("2026-01-01T00:00:00Z"),
        end: StoreFixture.date("2026-12-31T00:00:00Z"), calendars: nil)
    ).filter { $0.title == "Payroll" }.map { ISO8601DateFormatter().string(from: $0.startDate) }
    #expect(starts == ["2026-01-30T09:00:00Z", "2026-02-27T09:00:00Z", "2026-03-31T09:00:00Z"])
  }
}
