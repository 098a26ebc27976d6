import Foundation
import GRDB
import TestSupport
import Testing

@testable import OpenEventKit

/// The defects SavePropertyTests found, one test each: saves that trapped (run in a helper
/// process, so that a trap fails only its test), saves that kept something other than what was
/// given, and the refusals that replace them.
@Suite struct SaveDefectTests {
  /// A valid event in the default calendar, not saved.
  func draft(_ fixture: StoreFixture) -> EKEvent {
    let event = EKEvent(eventStore: fixture.store)
    event.calendar = fixture.calendar
    event.title = "Draft"
    event.timeZone = TimeZone(identifier: "Europe/Paris")
    event.startDate = StoreFixture.date("2026-03-02T09:00:00Z")
    event.endDate = StoreFixture.date("2026-03-02T10:00:00Z")
    return event
  }

  /// A valid reminder in the default list, not saved.
  func draftReminder(_ fixture: StoreFixture) -> EKReminder {
    let reminder = EKReminder(eventStore: fixture.store)
    reminder.calendar = fixture.reminders
    reminder.title = "Draft"
    return reminder
  }

  /// Expects the save to be refused with `code`, writing nothing.
  func expectRefused(
    _ code: EKError.Code, _ fixture: StoreFixture,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ save: () throws -> Void
  ) throws {
    let before = try fixture.itemCount()
    expectEKError(code, sourceLocation: sourceLocation, save)
    #expect(try fixture.itemCount() == before, sourceLocation: sourceLocation)
  }

  /// What `oek-store-helper hostile FOLDER CASE` printed, after checking it ended normally.
  func hostile(
    _ name: String, in fixture: StoreFixture, environment: [String: String] = [:]
  ) throws -> String {
    let helper = try HelperProcess(
      ["hostile", fixture.folder.url.path, name], environment: environment)
    let output = try helper.readAll()
    let (status, errors) = helper.finish()
    #expect(
      helper.process.terminationReason == .exit && status == 0,
      "\(name) ended with \(status): \(errors.suffix(2_000))")
    return output.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  // MARK: Traps

  /// `Int(alarm.relativeOffset)` in the refusal's message (alarmGreaterThanRecurrence)
  /// trapped for an offset past Int's range. Such offsets are refused before that check now.
  @Test func anAlarmOffsetPastIntsRangeIsRefusedWithoutATrap() throws {
    let fixture = try StoreFixture()
    let before = try fixture.itemCount()
    let refused = "refused \(EKError.Code.internalFailure.rawValue)"
    #expect(try hostile("huge-alarm", in: fixture) == refused)
    #expect(try hostile("infinite-alarm", in: fixture) == refused)
    #expect(try fixture.itemCount() == before)
  }

  /// Due date components were turned into seconds with arithmetic that overflowed.
  @Test func dueDateComponentsPastAnyCalendarAreRefusedWithoutATrap() throws {
    let fixture = try StoreFixture()
    let before = try fixture.itemCount()
    let refused = "refused \(EKError.Code.internalFailure.rawValue)"
    #expect(try hostile("huge-due-year", in: fixture) == refused)
    #expect(try hostile("huge-due-hour", in: fixture) == refused)
    #expect(try fixture.itemCount() == before)
  }

  /// A row written by an older version (or another program) with such components trapped every
  /// query by due date.
  @Test func aStoredDueDatePastAnyCalendarDoesNotTrapAQueryByDueDate() throws {
    let fixture = try StoreFixture()
    let due = draftReminder(fixture)
    due.dueDateComponents = DateComponents(year: 2026, month: 3, day: 2)
    try fixture.store.save(due, commit: true)
    let odd = draftReminder(fixture)
    odd.dueDateComponents = DateComponents(year: 2026, month: 3, day: 3)
    try fixture.store.save(odd, commit: true)
    let components = DateComponents(year: 2026, month: 3, day: 3, hour: Int.max / 2)
    let database = try CalendarDatabase(location: StoreLocation(folder: fixture.folder.url))
    try database.pool.write { db in
      try db.execute(
        sql: "UPDATE item SET dueComponents = ? WHERE id = ?",
        arguments: [JSONColumn.text(components), odd.calendarItemIdentifier])
    }
    #expect(try hostile("due-query", in: fixture) == "reminders 1")
  }

  // MARK: Saves that kept something else

  /// SQLite binds and reads a text as a C string: a NUL cut the text there.
  @Test func aNULCharacterInATextIsRefusedRatherThanCut() throws {
    let fixture = try StoreFixture()
    let fields: [(EKEvent) -> Void] = [
      { $0.title = "Before\u{0}after" }, { $0.location = "\u{0}" }, { $0.notes = "end\u{0}" },
      { $0.structuredLocation = EKStructuredLocation(title: "a\u{0}b") },
      {
        let alarm = EKAlarm(relativeOffset: -600)
        alarm.soundName = "Bas\u{0}so"
        $0.alarms = [alarm]
      },
    ]
    for set in fields {
      let event = draft(fixture)
      set(event)
      try expectRefused(.internalFailure, fixture) {
        try fixture.store.save(event, span: .thisEvent)
      }
    }
    let reminder = draftReminder(fixture)
    reminder.title = "Buy\u{0}milk"
    try expectRefused(.internalFailure, fixture) { try fixture.store.save(reminder, commit: true) }
    let calendar = EKCalendar(for: .event, eventStore: fixture.store)
    calendar.title = "Work\u{0}"
    calendar.source = fixture.store.sources.first
    expectEKError(.internalFailure) { try fixture.store.saveCalendar(calendar, commit: true) }
    #expect(fixture.store.calendars(for: .event).allSatisfy { !$0.title.hasPrefix("Work") })
  }

  /// JSON has no NaN or infinity: an alarm or a place holding one was dropped without a word.
  @Test func numbersThatAreNoNumbersAreRefusedRatherThanDropped() throws {
    let fixture = try StoreFixture()
    let place = { (latitude: Double, radius: Double) -> EKStructuredLocation in
      let place = EKStructuredLocation(title: "Office")
      place.geoLocation = CLLocation(latitude: latitude, longitude: 2.35)
      place.radius = radius
      return place
    }
    let fields: [(EKEvent) -> Void] = [
      { $0.alarms = [EKAlarm(relativeOffset: .nan)] },
      { $0.alarms = [EKAlarm(absoluteDate: Date(timeIntervalSince1970: .infinity))] },
      { $0.structuredLocation = place(.nan, 0) },
      { $0.structuredLocation = place(48.85, .infinity) },
      {
        let alarm = EKAlarm()
        alarm.structuredLocation = place(48.85, -.nan)
        alarm.proximity = .enter
        $0.alarms = [alarm]
      },
    ]
    for set in fields {
      let event = draft(fixture)
      set(event)
      try expectRefused(.internalFailure, fixture) {
        try fixture.store.save(event, span: .thisEvent)
      }
    }
  }

  /// SQLite keeps a NaN REAL as NULL: the reminder read back completed, with no date.
  @Test func aCompletionDateThatIsNoDateIsRefused() throws {
    let fixture = try StoreFixture()
    let reminder = draftReminder(fixture)
    reminder.completionDate = Date(timeIntervalSince1970: .nan)
    try expectRefused(.internalFailure, fixture) { try fixture.store.save(reminder, commit: true) }
  }

  /// A zoned event at the second of two equal readings (clocks going back) was read back from
  /// its reading alone, at the first: an hour earlier than it was saved.
  @Test func aZonedEventInTheRepeatedHourKeepsItsInstant() throws {
    let fixture = try StoreFixture()
    let event = draft(fixture)
    event.timeZone = TimeZone(identifier: "America/New_York")
    event.startDate = StoreFixture.date("2026-11-01T06:30:00Z")  // 01:30 EST, the second one
    event.endDate = StoreFixture.date("2026-11-01T06:45:00Z")
    try fixture.store.save(event, span: .thisEvent)
    let fresh = try #require(fixture.secondStore().event(withIdentifier: event.eventIdentifier))
    #expect(fresh.startDate == StoreFixture.date("2026-11-01T06:30:00Z"))
    #expect(fresh.endDate == StoreFixture.date("2026-11-01T06:45:00Z"))
    #expect(event.startDate == fresh.startDate && event.endDate == fresh.endDate)
  }

  /// A series starting there starts at the first of the two (RFC 5545 §3.3.5, as every
  /// occurrence of it is found), and lasts as long as it was saved: the saved object showed an
  /// end an hour after the end its fetched occurrences have.
  @Test func aSeriesStartingInTheRepeatedHourShowsTheTimesItIsFoundAt() throws {
    let fixture = try StoreFixture()
    let event = draft(fixture)
    event.timeZone = TimeZone(identifier: "America/New_York")
    event.startDate = StoreFixture.date("2026-11-01T06:30:00Z")
    event.endDate = StoreFixture.date("2026-11-01T07:30:00Z")
    event.recurrenceRules = [
      EKRecurrenceRule(
        recurrenceWith: .daily, interval: 1, end: EKRecurrenceEnd(occurrenceCount: 2))
    ]
    try fixture.store.save(event, span: .futureEvents)
    let fresh = try #require(fixture.secondStore().event(withIdentifier: event.eventIdentifier))
    #expect(fresh.startDate == StoreFixture.date("2026-11-01T05:30:00Z"))
    #expect(fresh.endDate == StoreFixture.date("2026-11-01T06:30:00Z"))
    #expect(event.startDate == fresh.startDate && event.endDate == fresh.endDate)
  }

  /// The JSON keeps seconds since 1970, a Date seconds since 2001: a fraction came back a few
  /// hundred nanoseconds off. Alarm dates are kept in whole seconds, as every date.
  @Test func absoluteAlarmDatesAreKeptInWholeSeconds() throws {
    let fixture = try StoreFixture()
    let event = draft(fixture)
    let date = Date(timeIntervalSinceReferenceDate: 794_127_600.123_456_789)
    event.alarms = [EKAlarm(absoluteDate: date)]
    try fixture.store.save(event, span: .thisEvent)
    let fresh = try #require(fixture.secondStore().event(withIdentifier: event.eventIdentifier))
    let whole = Date(timeIntervalSinceReferenceDate: 794_127_600)
    #expect(fresh.alarms?.first?.absoluteDate == whole)
    #expect(event.alarms?.first?.absoluteDate == whole)
  }

  /// An end date that is no date, or past the years the store keeps, was clamped to the end of
  /// 9999 without a word.
  @Test func recurrenceEndDatesOutsideTheYearsAreRefused() throws {
    let fixture = try StoreFixture()
    for seconds in [Double.nan, .infinity, 253_402_300_800, -62_135_596_801] {
      let event = draft(fixture)
      event.recurrenceRules = [
        EKRecurrenceRule(
          recurrenceWith: .daily, interval: 1,
          end: EKRecurrenceEnd(end: Date(timeIntervalSince1970: seconds)))
      ]
      try expectRefused(.internalFailure, fixture) {
        try fixture.store.save(event, span: .futureEvents)
      }
    }
    let last = draft(fixture)
    last.recurrenceRules = [
      EKRecurrenceRule(
        recurrenceWith: .yearly, interval: 1,
        end: EKRecurrenceEnd(end: Date(timeIntervalSince1970: 253_402_300_799)))
    ]
    try fixture.store.save(last, span: .futureEvents)
  }

  /// An UNTIL in the years 1 to 9999 as an instant but not on the clock it is written on (the
  /// current one, for an all-day or date-only item) was written with a year of five digits: the
  /// rule could not be read again, and vanished from the item and its export.
  @Test func aRecurrenceEndPastTheYearsOnItsClockIsRefused() throws {
    let fixture = try StoreFixture()
    let before = try fixture.itemCount()
    let refused = "refused \(EKError.Code.internalFailure.rawValue)"
    let answers = try hostile(
      "until-past-years", in: fixture, environment: ["TZ": "Pacific/Kiritimati"])
    #expect(answers == "\(refused)\n\(refused)")
    #expect(try fixture.itemCount() == before)
  }

  /// An UNTIL before the start left a series with no occurrence, which no query finds.
  @Test func aSeriesEndingBeforeItStartsIsRefused() throws {
    let fixture = try StoreFixture()
    let event = draft(fixture)
    event.recurrenceRules = [
      EKRecurrenceRule(
        recurrenceWith: .weekly, interval: 1,
        end: EKRecurrenceEnd(end: event.startDate.addingTimeInterval(-86_400)))
    ]
    try expectRefused(.datesInverted, fixture) {
      try fixture.store.save(event, span: .futureEvents)
    }
  }

  /// A due date with a year, month and day that name no day, or a time of day that is none, or
  /// a zone the store cannot read, was kept with no place in the due-date keys (or keyed on
  /// the current zone), so that queries by due date missed it.
  @Test func dueDatesThatNameNoMomentAreRefused() throws {
    let fixture = try StoreFixture()
    let odd = [
      DateComponents(year: 2026, month: 13, day: 1), DateComponents(year: 2026, month: 2, day: 30),
      DateComponents(year: 0, month: 1, day: 1), DateComponents(year: 10_000, month: 1, day: 1),
      DateComponents(year: 2026, month: 1, day: 1, hour: 24),
      DateComponents(year: 2026, month: 1, day: 1, hour: 9, minute: -1),
      DateComponents(
        timeZone: TimeZone(secondsFromGMT: 3600), year: 2026, month: 1, day: 1, hour: 9),
    ]
    for components in odd {
      let reminder = draftReminder(fixture)
      reminder.dueDateComponents = components
      try expectRefused(.internalFailure, fixture) {
        try fixture.store.save(reminder, commit: true)
      }
    }
    // Components that are no date at all are no due date, as before.
    let undated = draftReminder(fixture)
    undated.dueDateComponents = DateComponents(month: 13)
    try fixture.store.save(undated, commit: true)
  }

  // MARK: What is saved exports to a file that imports

  /// Writes `json` into the `column` of the row `id`, as an older version or another program
  /// might have left it.
  func overwrite(_ column: String, of id: String, with json: String?, in fixture: StoreFixture)
    throws
  {
    let database = try CalendarDatabase(location: StoreLocation(folder: fixture.folder.url))
    try database.pool.write { db in
      try db.execute(sql: "UPDATE item SET \(column) = ? WHERE id = ?", arguments: [json, id])
    }
  }

  /// Export turned an alarm's offset and a reminder's start components into integers with
  /// arithmetic that trapped on rows holding huge ones.
  @Test func exportDoesNotTrapOnHugeOffsetsOrComponentsInARow() throws {
    let fixture = try StoreFixture()
    let event = draft(fixture)
    event.alarms = [EKAlarm(relativeOffset: -600)]
    try fixture.store.save(event, span: .thisEvent)
    try overwrite(
      "alarms", of: event.calendarItemIdentifier, with: #"[{"relativeOffset":-1e300}]"#,
      in: fixture)
    let reminder = draftReminder(fixture)
    reminder.startDateComponents = DateComponents(year: 2026, month: 3, day: 1)
    try fixture.store.save(reminder, commit: true)
    let huge = DateComponents(year: 2026, month: 3, day: 1, hour: Int.max / 2)
    try overwrite(
      "startComponents", of: reminder.calendarItemIdentifier, with: JSONColumn.text(huge),
      in: fixture)
    #expect(try hostile("export", in: fixture).hasPrefix("exported "))
  }

  /// A save now refuses such an offset: no alarm fires 31,700 years from its event.
  @Test func anAlarmOffsetLongerThanTheYearsIsRefused() throws {
    let fixture = try StoreFixture()
    for offset in [-1e12, 1e300] {
      let event = draft(fixture)
      event.alarms = [EKAlarm(relativeOffset: offset)]
      try expectRefused(.internalFailure, fixture) {
        try fixture.store.save(event, span: .thisEvent)
      }
    }
    let event = draft(fixture)
    event.alarms = [EKAlarm(relativeOffset: -1e9)]  // 31 years before: kept
    try fixture.store.save(event, span: .thisEvent)
  }

  /// A reminder's start components that name no moment are refused like its due date's.
  @Test func startDatesThatNameNoMomentAreRefused() throws {
    let fixture = try StoreFixture()
    for components in [
      DateComponents(year: 2026, month: 13, day: 1),
      DateComponents(year: 2026, month: 1, day: 1, hour: Int.max / 2),
    ] {
      let reminder = draftReminder(fixture)
      reminder.startDateComponents = components
      try expectRefused(.internalFailure, fixture) {
        try fixture.store.save(reminder, commit: true)
      }
    }
  }

  /// An all-day event on the store's last day ended, in the file, on 10000-01-01, which no
  /// DATE can say: the import refused the export.
  @Test func anAllDayEventOnTheLastDayExportsAsAFileThatImports() throws {
    let fixture = try StoreFixture()
    let event = draft(fixture)
    event.isAllDay = true
    event.startDate = Date(timeIntervalSince1970: 253_402_214_400)  // 9999-12-31 UTC
    event.endDate = event.startDate
    try fixture.store.save(event, span: .thisEvent)
    let file = try fixture.store.exportICalendar(calendars: [fixture.calendar])
    #expect(String(decoding: file, as: UTF8.self).contains("DURATION:P1D"))
    let other = try StoreFixture()
    let summary = try other.store.importICalendar(file)
    #expect(summary.eventsAdded == 1)
  }

  /// An event whose dates lie in the years 1 to 9999 in UTC but not on its own clock (9999-12-31
  /// 23:00 UTC is 10000-01-01 in Kiribati) was saved, and exported with a year of five digits.
  @Test func anEventPastTheYearsOnItsOwnClockIsRefused() throws {
    let fixture = try StoreFixture()
    for (zone, seconds) in [
      ("Pacific/Kiritimati", 253_402_297_200.0), ("Pacific/Kiritimati", -62_135_596_800),
    ] {
      let event = draft(fixture)
      event.timeZone = TimeZone(identifier: zone)
      event.startDate = Date(timeIntervalSince1970: seconds)
      event.endDate = event.startDate
      try expectRefused(.startDateTooFarInFuture, fixture) {
        try fixture.store.save(event, span: .thisEvent)
      }
    }
  }

  /// Coordinates off the globe were saved, and exported as a GEO the import refuses.
  @Test func coordinatesOffTheGlobeAreRefusedAndNeverExported() throws {
    let fixture = try StoreFixture()
    for (latitude, longitude) in [(90.5, 0.0), (0, 180.5), (-91, 0)] {
      let event = draft(fixture)
      let place = EKStructuredLocation(title: "Nowhere")
      place.geoLocation = CLLocation(latitude: latitude, longitude: longitude)
      event.structuredLocation = place
      try expectRefused(.internalFailure, fixture) {
        try fixture.store.save(event, span: .thisEvent)
      }
    }
    // A row that holds them anyway exports without GEO, as a file that imports.
    let event = draft(fixture)
    event.structuredLocation = EKStructuredLocation(title: "Somewhere")
    try fixture.store.save(event, span: .thisEvent)
    try overwrite(
      "structuredLocation", of: event.calendarItemIdentifier,
      with: #"{"latitude":180,"longitude":0,"radius":0,"title":"Somewhere"}"#, in: fixture)
    let file = try fixture.store.exportICalendar(calendars: [fixture.calendar])
    #expect(!String(decoding: file, as: UTF8.self).contains("GEO:"))
    _ = try StoreFixture().store.importICalendar(file)
  }
}
