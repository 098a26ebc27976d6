import Foundation
import Testing

@testable import OpenEventKit

/// Every refusal has Apple's code and a message naming the field, and leaves the database and
/// the object's unsaved values as they were.
@Suite struct ValidationTests {
  /// A valid event in the default calendar, not saved.
  func draft(_ fixture: StoreFixture) -> EKEvent {
    let event = EKEvent(eventStore: fixture.store)
    event.calendar = fixture.calendar
    event.title = "Draft"
    event.startDate = StoreFixture.date("2026-03-02T09:00:00Z")
    event.endDate = StoreFixture.date("2026-03-02T10:00:00Z")
    return event
  }

  /// Expects the save to fail with `code` and to change nothing.
  func expectRefusal(
    _ code: EKError.Code, _ fixture: StoreFixture,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ save: () throws -> Void
  ) throws {
    let before = try fixture.itemCount()
    let message = expectEKError(code, sourceLocation: sourceLocation, save)
    #expect(message?.isEmpty == false, sourceLocation: sourceLocation)
    #expect(try fixture.itemCount() == before, sourceLocation: sourceLocation)
  }

  @Test func eventsNeedACalendarAndDatesInOrder() throws {
    let fixture = try StoreFixture()
    let event = draft(fixture)
    event.calendar = nil
    try expectRefusal(.noCalendar, fixture) { try fixture.store.save(event, span: .thisEvent) }
    #expect(event.title == "Draft" && event.isNew && event.hasChanges)

    let noStart = draft(fixture)
    noStart.startDate = nil
    try expectRefusal(.noStartDate, fixture) { try fixture.store.save(noStart, span: .thisEvent) }
    let noEnd = draft(fixture)
    noEnd.endDate = nil
    try expectRefusal(.noEndDate, fixture) { try fixture.store.save(noEnd, span: .thisEvent) }
    let inverted = draft(fixture)
    inverted.endDate = inverted.startDate.addingTimeInterval(-1)
    let message = expectEKError(.datesInverted) {
      try fixture.store.save(inverted, span: .thisEvent)
    }
    #expect(message?.contains("end date") == true)
    let far = draft(fixture)
    far.startDate = Date(timeIntervalSince1970: 3e11)  // the year 11476
    far.endDate = far.startDate
    try expectRefusal(.startDateTooFarInFuture, fixture) {
      try fixture.store.save(far, span: .thisEvent)
    }
  }

  @Test func readOnlyCalendarsAndWrongKindsAreRefused() throws {
    let fixture = try StoreFixture()
    let holidays = try #require(fixture.store.calendars(for: .event).first { $0.isSubscribed })
    let event = draft(fixture)
    event.calendar = holidays
    try expectRefusal(.calendarReadOnly, fixture) {
      try fixture.store.save(event, span: .thisEvent)
    }
    event.calendar = fixture.reminders
    try expectRefusal(.calendarDoesNotAllowEvents, fixture) {
      try fixture.store.save(event, span: .thisEvent)
    }
    let reminder = EKReminder(eventStore: fixture.store)
    reminder.calendar = fixture.calendar
    try expectRefusal(.calendarDoesNotAllowReminders, fixture) {
      try fixture.store.save(reminder, commit: true)
    }
    // A holiday cannot be removed either.
    let predicate = fixture.store.predicateForEvents(
      withStart: StoreFixture.date("2026-12-25T00:00:00Z"),
      end: StoreFixture.date("2026-12-26T00:00:00Z"), calendars: [holidays])
    let christmas = try #require(fixture.store.events(matching: predicate).first)
    try expectRefusal(.calendarReadOnly, fixture) {
      try fixture.store.remove(christmas, span: .futureEvents)
    }
  }

  @Test func aSeriesMustFitBetweenItsOccurrences() throws {
    let fixture = try StoreFixture()
    let long = draft(fixture)
    long.endDate = long.startDate.addingTimeInterval(2 * 86_400)
    long.addRecurrenceRule(EKRecurrenceRule(recurrenceWith: .daily, interval: 1, end: nil))
    try expectRefusal(.durationGreaterThanRecurrence, fixture) {
      try fixture.store.save(long, span: .futureEvents)
    }
    let alarmed = draft(fixture)
    alarmed.addRecurrenceRule(EKRecurrenceRule(recurrenceWith: .daily, interval: 1, end: nil))
    alarmed.addAlarm(EKAlarm(relativeOffset: -600))  // fine; the next one is not
    alarmed.addAlarm(EKAlarm(relativeOffset: -3 * 86_400))
    try expectRefusal(.alarmGreaterThanRecurrence, fixture) {
      try fixture.store.save(alarmed, span: .futureEvents)
    }
    let badRule = draft(fixture)
    badRule.addRecurrenceRule(
      EKRecurrenceRule(
        recurrenceWith: .monthly, interval: 1, daysOfTheWeek: nil, daysOfTheMonth: [40],
        monthsOfTheYear: nil, weeksOfTheYear: nil, daysOfTheYear: nil, setPositions: nil,
        end: nil))
    let message = expectEKError(.internalFailure) {
      try fixture.store.save(badRule, span: .futureEvents)
    }
    #expect(message?.contains("BYMONTHDAY") == true)
  }

  @Test func remindersNeedAValidPriorityAndADueDateToRepeat() throws {
    let fixture = try StoreFixture()
    let reminder = EKReminder(eventStore: fixture.store)
    reminder.calendar = fixture.reminders
    reminder.title = "Water plants"
    reminder.priority = 10
    try expectRefusal(.priorityIsInvalid, fixture) {
      try fixture.store.save(reminder, commit: true)
    }
    reminder.priority = Int(EKReminderPriority.high.rawValue)
    reminder.addRecurrenceRule(EKRecurrenceRule(recurrenceWith: .weekly, interval: 1, end: nil))
    try expectRefusal(.recurringReminderRequiresDueDate, fixture) {
      try fixture.store.save(reminder, commit: true)
    }
    reminder.dueDateComponents = DateComponents(year: 2026, month: 3, day: 2)
    let email = EKAlarm(relativeOffset: 0)
    email.emailAddress = "me@example.com"
    reminder.addAlarm(email)
    try expectRefusal(.reminderAlarmContainsEmailOrUrl, fixture) {
      try fixture.store.save(reminder, commit: true)
    }
    reminder.alarms = nil
    try fixture.store.save(reminder, commit: true)
    #expect(!reminder.hasChanges)
  }

  @Test func calendarsNeedASourceThatAllowsThem() throws {
    let fixture = try StoreFixture()
    let calendar = EKCalendar(for: .event, eventStore: fixture.store)
    calendar.title = "Work"
    expectEKError(.calendarHasNoSource) { try fixture.store.saveCalendar(calendar, commit: true) }
    calendar.source = fixture.store.sources.first { $0.sourceType == .subscribed }
    expectEKError(.sourceDoesNotAllowCalendarAddDelete) {
      try fixture.store.saveCalendar(calendar, commit: true)
    }
    let holidays = try #require(fixture.store.calendars(for: .event).first { $0.isSubscribed })
    holidays.title = "Mine now"
    expectEKError(.calendarIsImmutable) { try fixture.store.saveCalendar(holidays, commit: true) }
    holidays.rollback()
    expectEKError(.calendarIsImmutable) { try fixture.store.removeCalendar(holidays, commit: true) }
    #expect(fixture.store.calendars(for: .event).count == 2)
  }
}
