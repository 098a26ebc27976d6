import Foundation
import GRDB
import Testing

@testable import OpenEventKit

/// `alarmFirings(from:to:calendars:)`: when each alarm of the store fires, against a real
/// database file.
@Suite struct AlarmFiringTests {
  let fixture: StoreFixture
  var store: EKEventStore { fixture.store }

  init() throws { fixture = try StoreFixture() }

  func firings(_ start: String, _ end: String, in store: EKEventStore? = nil) -> [AlarmFiring] {
    (store ?? self.store).alarmFirings(
      from: StoreFixture.date(start), to: StoreFixture.date(end))
  }

  func times(_ firings: [AlarmFiring]) -> [String] {
    let format = ISO8601DateFormatter()
    return firings.map { format.string(from: $0.fireDate) }
  }

  @Test func aRelativeAlarmFiresBeforeItsEventsStartInTheWindowOnly() throws {
    let event = try fixture.event("Dentist", start: "2026-03-02T10:00:00Z", commit: false)
    event.addAlarm(EKAlarm(relativeOffset: -15 * 60))
    try store.save(event, span: .thisEvent)
    let found = firings("2026-03-02T09:00:00Z", "2026-03-02T10:00:00Z")
    #expect(times(found) == ["2026-03-02T09:45:00Z"])
    let firing = try #require(found.first)
    #expect(firing.title == "Dentist" && firing.entityType == .event)
    #expect(firing.trigger == .relative(-900))
    #expect(firing.calendarItemIdentifier == event.calendarItemIdentifier)
    #expect(firing.occurrenceDate == StoreFixture.date("2026-03-02T10:00:00Z"))
    #expect(firing.calendarTitle == fixture.calendar.title)
    // The window's end is excluded, its start included.
    #expect(firings("2026-03-02T09:00:00Z", "2026-03-02T09:45:00Z").isEmpty)
    #expect(firings("2026-03-02T09:45:00Z", "2026-03-02T09:46:00Z").count == 1)
    // An alarm after the start fires after it.
    event.alarms = [EKAlarm(relativeOffset: 30 * 60)]
    try store.save(event, span: .thisEvent)
    #expect(
      times(firings("2026-03-02T00:00:00Z", "2026-03-03T00:00:00Z")) == ["2026-03-02T10:30:00Z"])
  }

  @Test func eachOccurrenceFiresAndADetachedOneFiresByItsOwnTimeAndARemovedOneNot() throws {
    let rule = EKRecurrenceRule(recurrenceWith: .daily, interval: 1, end: nil)
    let series = try fixture.event(
      "Stand-up", start: "2026-03-02T09:00:00Z", minutes: 15, rule: rule, commit: false)
    series.addAlarm(EKAlarm(relativeOffset: -600))
    try store.save(series, span: .futureEvents)
    let week = {
      store.events(
        matching: store.predicateForEvents(
          withStart: StoreFixture.date("2026-03-02T00:00:00Z"),
          end: StoreFixture.date("2026-03-07T00:00:00Z"), calendars: nil))
    }
    // The third moves to 11:00; the fourth is removed.
    let third = week()[2]
    third.startDate = StoreFixture.date("2026-03-04T11:00:00Z")
    third.endDate = StoreFixture.date("2026-03-04T11:15:00Z")
    try store.save(third, span: .thisEvent)
    try store.remove(week()[3], span: .thisEvent)
    #expect(
      times(firings("2026-03-02T00:00:00Z", "2026-03-07T00:00:00Z")) == [
        "2026-03-02T08:50:00Z", "2026-03-03T08:50:00Z", "2026-03-04T10:50:00Z",
        "2026-03-06T08:50:00Z",
      ])
    let moved = firings("2026-03-04T00:00:00Z", "2026-03-05T00:00:00Z")
    #expect(moved.first?.occurrenceDate == StoreFixture.date("2026-03-04T09:00:00Z"))
    #expect(moved.first?.startDate == StoreFixture.date("2026-03-04T11:00:00Z"))
  }

  @Test func anAbsoluteAlarmOfARepeatingEventFiresOnce() throws {
    let rule = EKRecurrenceRule(recurrenceWith: .weekly, interval: 1, end: nil)
    let series = try fixture.event(
      "Review", start: "2026-03-02T14:00:00Z", rule: rule, commit: false)
    let moment = StoreFixture.date("2026-03-01T18:00:00Z")
    series.addAlarm(EKAlarm(absoluteDate: moment))
    try store.save(series, span: .futureEvents)
    let found = firings("2026-02-01T00:00:00Z", "2026-06-01T00:00:00Z")
    #expect(times(found) == ["2026-03-01T18:00:00Z"])
    #expect(found.first?.trigger == .absolute(moment))
    #expect(found.first?.occurrenceDate == StoreFixture.date("2026-03-02T14:00:00Z"))
  }

  @Test func aZonedSeriesFiresOnItsOwnClockAcrossADaylightSavingChange() throws {
    let rule = EKRecurrenceRule(recurrenceWith: .weekly, interval: 1, end: nil)
    let series = try fixture.event(
      "Choir", start: "2026-03-23T18:00:00Z", rule: rule, commit: false)  // 19:00 in Berlin
    series.timeZone = TimeZone(identifier: "Europe/Berlin")
    series.addAlarm(EKAlarm(relativeOffset: -3600))
    try store.save(series, span: .futureEvents)
    // Berlin moves to summer time on 29 March 2026: 19:00 is 18:00 UTC before, 17:00 after.
    #expect(
      times(firings("2026-03-20T00:00:00Z", "2026-04-08T00:00:00Z")) == [
        "2026-03-23T17:00:00Z", "2026-03-30T16:00:00Z", "2026-04-06T16:00:00Z",
      ])
  }

  @Test func anAllDayEventFiresByTheCurrentClocksMidnight() throws {
    let event = EKEvent(eventStore: store)
    event.title = "Birthday"
    event.calendar = fixture.calendar
    event.isAllDay = true
    var day = Calendar(identifier: .gregorian)
    day.timeZone = .current
    let midnight = try #require(day.date(from: DateComponents(year: 2026, month: 5, day: 14)))
    event.startDate = midnight
    event.endDate = midnight
    event.addAlarm(EKAlarm(relativeOffset: 9 * 3600))
    try store.save(event, span: .thisEvent)
    let found = store.alarmFirings(
      from: midnight.addingTimeInterval(-86_400), to: midnight.addingTimeInterval(2 * 86_400))
    #expect(found.map(\.fireDate) == [midnight.addingTimeInterval(9 * 3600)])
    #expect(found.first?.isAllDay == true)
  }

  @Test func remindersFireFromTheirDueDateUnlessCompleted() throws {
    @discardableResult
    func reminder(_ title: String, due: DateComponents?, alarm: EKAlarm) throws -> EKReminder {
      let reminder = EKReminder(eventStore: store)
      reminder.title = title
      reminder.calendar = fixture.reminders
      reminder.dueDateComponents = due
      reminder.addAlarm(alarm)
      try store.save(reminder, commit: true)
      return reminder
    }
    let utc = TimeZone(identifier: "UTC")
    let due = DateComponents(timeZone: utc, year: 2026, month: 4, day: 1, hour: 17)
    try reminder("Pay rent", due: due, alarm: EKAlarm(relativeOffset: -1800))
    let done = try reminder("Renew passport", due: due, alarm: EKAlarm(relativeOffset: -1800))
    done.isCompleted = true
    try store.save(done, commit: true)
    // A relative alarm without a due date has nothing to be relative to.
    try reminder("Someday", due: nil, alarm: EKAlarm(relativeOffset: -60))
    try reminder(
      "Call the bank", due: nil,
      alarm: EKAlarm(absoluteDate: StoreFixture.date("2026-04-01T08:00:00Z")))
    let found = firings("2026-04-01T00:00:00Z", "2026-04-02T00:00:00Z")
    #expect(found.map(\.title) == ["Call the bank", "Pay rent"])
    #expect(times(found) == ["2026-04-01T08:00:00Z", "2026-04-01T16:30:00Z"])
    #expect(found.allSatisfy { $0.entityType == .reminder && $0.occurrenceDate == nil })
    #expect(found.last?.startDate == StoreFixture.date("2026-04-01T17:00:00Z"))
  }

  @Test func locationAlarmsDoNotFireByTimeAndAreListedApart() throws {
    let event = try fixture.event("Groceries", start: "2026-03-02T10:00:00Z", commit: false)
    let alarm = EKAlarm(relativeOffset: 0)
    let place = EKStructuredLocation(title: "Market")
    alarm.structuredLocation = place
    alarm.proximity = .enter
    event.addAlarm(alarm)
    try store.save(event, span: .thisEvent)
    #expect(firings("2026-03-01T00:00:00Z", "2026-03-04T00:00:00Z").isEmpty)
    #expect(store.locationAlarmItems().map(\.title) == ["Groceries"])
  }

  @Test func anEditFromAnotherStoreIsSeenAndGivesAnotherIdentifier() throws {
    let event = try fixture.event("Flight", start: "2026-03-02T10:00:00Z", commit: false)
    event.addAlarm(EKAlarm(relativeOffset: -7200))
    try store.save(event, span: .thisEvent)
    let before = try #require(firings("2026-03-02T00:00:00Z", "2026-03-03T00:00:00Z").first)
    #expect(firings("2026-03-02T00:00:00Z", "2026-03-03T00:00:00Z").first?.id == before.id)
    #expect(before.id.count == 16)
    // Another app moves the alarm earlier.
    let other = fixture.secondStore()
    let theirs = try #require(other.event(withIdentifier: event.eventIdentifier))
    theirs.alarms = [EKAlarm(relativeOffset: -3 * 3600)]
    try other.save(theirs, span: .thisEvent)
    let after = firings("2026-03-02T00:00:00Z", "2026-03-03T00:00:00Z")
    #expect(times(after) == ["2026-03-02T07:00:00Z"])
    #expect(after.first?.id != before.id)
  }

  @Test func withoutAccessNothingIsFound() throws {
    let event = try fixture.event("Secret", start: "2026-03-02T10:00:00Z", commit: false)
    event.addAlarm(EKAlarm(relativeOffset: -60))
    try store.save(event, span: .thisEvent)
    let settings = try PrivacySettings(folder: fixture.folder.url)
    try settings.set(.denied, for: PrivacySettings.currentAppIdentifier, entityType: .event)
    #expect(
      firings("2026-03-02T00:00:00Z", "2026-03-03T00:00:00Z", in: fixture.secondStore()).isEmpty)
  }

  /// A database from before the "v3 alarms" migration, whose events already have alarms:
  /// opening it adds the index and the offset bounds, and the alarms are found.
  @Test func aDatabaseFromBeforeAlarmsWereSearchedFindsItsAlarms() throws {
    let early = try fixture.event("Early", start: "2026-03-02T10:00:00Z", commit: false)
    early.addAlarm(EKAlarm(relativeOffset: -2 * 86_400))
    try store.save(early, span: .thisEvent)
    let fixed = try fixture.event("Fixed", start: "2026-03-05T10:00:00Z", commit: false)
    fixed.addAlarm(EKAlarm(absoluteDate: StoreFixture.date("2026-03-01T07:00:00Z")))
    try store.save(fixed, span: .thisEvent)
    // Back to the schema before "v3 alarms".
    let file = fixture.folder.url.appendingPathComponent("Calendar.sqlite")
    let queue = try DatabaseQueue(path: file.path)
    try queue.write { db in
      try db.execute(sql: "DROP INDEX item_absolute_alarm")
      try db.execute(sql: "DELETE FROM meta WHERE key LIKE '%AlarmOffset'")
      try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v3 alarms'")
    }
    try queue.close()
    let reopened = EKEventStore(folder: fixture.folder.url)
    let found = firings("2026-02-28T00:00:00Z", "2026-03-02T00:00:00Z", in: reopened)
    #expect(found.map(\.title) == ["Early", "Fixed"])
    #expect(times(found) == ["2026-02-28T10:00:00Z", "2026-03-01T07:00:00Z"])
  }

  /// The window of a search widens by the widest offsets ever saved: an alarm two weeks
  /// before its event is found in a window two weeks before.
  @Test func anAlarmLongBeforeItsEventIsFound() throws {
    let event = try fixture.event("Exam", start: "2026-06-15T08:00:00Z", commit: false)
    event.addAlarm(EKAlarm(relativeOffset: -14 * 86_400))
    try store.save(event, span: .thisEvent)
    #expect(
      times(firings("2026-06-01T00:00:00Z", "2026-06-02T00:00:00Z")) == ["2026-06-01T08:00:00Z"])
  }

  /// A floating event (no time zone) fires at its wall-clock time on the current clock.
  @Test func aFloatingEventFiresOnTheCurrentClock() throws {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = .current
    let nine = try #require(
      calendar.date(from: DateComponents(year: 2026, month: 7, day: 1, hour: 9)))
    let event = EKEvent(eventStore: store)
    event.title = "Floating"
    event.calendar = fixture.calendar
    event.timeZone = nil
    event.startDate = nine
    event.endDate = nine.addingTimeInterval(3600)
    event.addAlarm(EKAlarm(relativeOffset: -15 * 60))
    try store.save(event, span: .thisEvent)
    let found = store.alarmFirings(
      from: nine.addingTimeInterval(-86_400), to: nine.addingTimeInterval(86_400))
    #expect(found.map(\.fireDate) == [nine.addingTimeInterval(-15 * 60)])
  }

  /// A repeating reminder's alarm fires for its current due date only: EKReminder does not
  /// repeat its occurrences in a fetch, and completing it moves the due date on.
  @Test func aRepeatingRemindersAlarmFiresForItsCurrentDueDate() throws {
    let reminder = EKReminder(eventStore: store)
    reminder.title = "Water plants"
    reminder.calendar = fixture.reminders
    reminder.dueDateComponents = DateComponents(
      timeZone: TimeZone(identifier: "UTC"), year: 2026, month: 4, day: 4, hour: 9)
    reminder.recurrenceRules = [EKRecurrenceRule(recurrenceWith: .weekly, interval: 1, end: nil)]
    reminder.addAlarm(EKAlarm(relativeOffset: -600))
    try store.save(reminder, commit: true)
    #expect(
      times(firings("2026-04-01T00:00:00Z", "2026-05-01T00:00:00Z")) == ["2026-04-04T08:50:00Z"])
  }
}
