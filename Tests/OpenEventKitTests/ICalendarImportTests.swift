import Foundation
import ICalendar
import Testing

@testable import OpenEventKit

/// Files in the shapes Google Calendar, Outlook/Exchange and Apple Calendar export, imported
/// into a real store, read through the EventKit API, exported and imported again.
@Suite struct ICalendarImportTests {
  static func fixture(_ name: String) throws -> Data {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Fixtures/ics/\(name)")
    return try Data(contentsOf: url)
  }

  func occurrences(_ store: EKEventStore, _ calendar: EKCalendar, _ start: String, _ end: String)
    -> [EKEvent]
  {
    let predicate = store.predicateForEvents(
      withStart: StoreFixture.date(start), end: StoreFixture.date(end), calendars: [calendar])
    return store.events(matching: predicate).sorted {
      $0.compareStartDate(with: $1) == .orderedAscending
    }
  }

  @Test func googleExport() throws {
    let fixture = try StoreFixture()
    let store = fixture.store
    let summary = try store.importICalendar(try Self.fixture("google.ics"))
    #expect(summary.eventsAdded == 4)  // three series or events, one detached occurrence
    #expect(summary.calendarsCreated == 1)
    let calendar = try #require(store.calendar(withIdentifier: summary.eventCalendarIdentifier!))
    #expect(calendar.title == "Team Google")

    // Weekly on Mondays at 09:00 Berlin (08:00Z in winter, 07:00Z in summer: X-WR-TIMEZONE),
    // until 5 May, without 17 and 24 March; 7 April moved to 10:00.
    let standUps = occurrences(store, calendar, "2025-03-01T00:00:00Z", "2025-06-01T00:00:00Z")
      .filter { $0.title.hasPrefix("Stand-up") }
    #expect(
      standUps.map { ISO8601DateFormatter().string(from: $0.startDate) } == [
        "2025-03-03T08:00:00Z", "2025-03-10T08:00:00Z", "2025-03-31T07:00:00Z",
        "2025-04-07T08:00:00Z", "2025-04-14T07:00:00Z", "2025-04-21T07:00:00Z",
        "2025-04-28T07:00:00Z", "2025-05-05T07:00:00Z",
      ])
    let moved = try #require(standUps.first { $0.title == "Stand-up (moved)" })
    #expect(moved.isDetached)
    #expect(moved.occurrenceDate == StoreFixture.date("2025-04-07T07:00:00Z"))
    #expect(moved.calendarItemExternalIdentifier == "standup-7f3a@google.com")
    let first = standUps[0]
    #expect(first.timeZone?.identifier == "Europe/Berlin")
    #expect(first.notes == "Daily sync, short.\nBring blockers.")
    #expect(first.location == "Room 4; 2nd floor")
    #expect(first.status == .confirmed)
    #expect(first.alarms?.map(\.relativeOffset) == [-600])
    #expect(first.attendees?.map(\.name) == ["Ana Lopez", "Bo Chen"])
    #expect(first.attendees?.map(\.participantStatus) == [.accepted, .pending])
    #expect(first.attendees?.map(\.participantRole) == [.required, .optional])
    #expect(first.organizer?.name == "Ana Lopez")

    let offsite = try #require(
      occurrences(store, calendar, "2025-04-01T00:00:00Z", "2025-05-01T00:00:00Z")
        .first { $0.title == "Team offsite" })
    #expect(offsite.isAllDay)
    #expect(offsite.availability == .free)
  }

  @Test func outlookExport() throws {
    let fixture = try StoreFixture()
    let store = fixture.store
    let summary = try store.importICalendar(try Self.fixture("outlook.ics"))
    let calendar = try #require(store.calendar(withIdentifier: summary.eventCalendarIdentifier!))
    let events = occurrences(store, calendar, "2025-01-01T00:00:00Z", "2026-06-01T00:00:00Z")
    let planning = events.filter { $0.title.hasPrefix("Quarterly planning") }
    // Every three months on the 15th, four times, less July; October moved by an hour.
    #expect(
      planning.map { ISO8601DateFormatter().string(from: $0.startDate) } == [
        "2025-04-15T12:00:00Z", "2025-10-15T13:00:00Z", "2026-01-15T13:00:00Z",
      ])
    #expect(planning[0].timeZone?.identifier == "Europe/Berlin")
    #expect(planning[1].availability == .tentative)
    #expect(planning[0].alarms?.map(\.relativeOffset) == [-900])
    // A custom VTIMEZONE with the rules of US Eastern time.
    let call = try #require(events.first { $0.title == "Call with New York" })
    #expect(call.startDate == StoreFixture.date("2025-03-12T13:00:00Z"))
    #expect(call.availability == .unavailable)
    // An Outlook display name as TZID.
    let pacific = try #require(events.first { $0.title == "Pacific sync" })
    #expect(pacific.startDate == StoreFixture.date("2025-03-20T15:00:00Z"))
    #expect(pacific.timeZone?.identifier == "America/Los_Angeles")
    // DTEND equal to DTSTART on a DATE: one day.
    let holiday = try #require(events.first { $0.title == "Public holiday" })
    #expect(holiday.isAllDay)
    let length = holiday.endDate.timeIntervalSince(holiday.startDate)
    #expect(length == 86_399)
  }

  @Test func appleExport() throws {
    let fixture = try StoreFixture()
    let store = fixture.store
    let summary = try store.importICalendar(try Self.fixture("apple.ics"))
    // Three events, and the RDATE PERIOD of another length as a detached occurrence.
    #expect(summary.eventsAdded == 4)
    #expect(summary.remindersAdded == 2)
    let calendar = try #require(store.calendar(withIdentifier: summary.eventCalendarIdentifier!))
    let events = occurrences(store, calendar, "2025-01-01T00:00:00Z", "2025-03-01T00:00:00Z")
    let runs = events.filter { $0.title == "Run 🏃 in the park" }
    #expect(runs.count == 24)  // Mondays, Wednesdays and Fridays, 6 January to 28 February
    #expect(runs[0].structuredLocation?.geoLocation?.coordinate.latitude == 40.782864)
    #expect(runs[0].alarms?.map(\.relativeOffset) == [-1800])
    // DTSTART and RDATEs, 45 minutes each but the PERIOD of an hour.
    let lessons = events.filter { $0.title == "Piano lessons" }
    #expect(
      lessons.map { ISO8601DateFormatter().string(from: $0.startDate) } == [
        "2025-01-08T22:00:00Z", "2025-01-15T22:00:00Z", "2025-01-29T22:00:00Z",
        "2025-02-05T22:00:00Z",
      ])
    #expect(
      lessons.map { $0.endDate.timeIntervalSince($0.startDate) } == [2700, 2700, 2700, 3600])
    #expect(lessons.map(\.isDetached) == [false, false, false, true])
    // An alarm at the end is an offset from the start.
    #expect(lessons[0].alarms?.map(\.relativeOffset) == [2700])
    let breakfast = try #require(events.first { $0.title == "Floating breakfast" })
    #expect(breakfast.timeZone == nil)

    let list = try #require(store.calendar(withIdentifier: summary.reminderCalendarIdentifier!))
    #expect(list.title == "Home")
    #expect(list.allowedEntityTypes == .reminder)
    let reminders = try fetchReminders(store, in: list)
    let passport = try #require(reminders.first { $0.title == "Renew passport" })
    #expect(passport.dueDateComponents == DateComponents(year: 2025, month: 4, day: 1))
    #expect(passport.priority == 1)
    #expect(!passport.isCompleted)
    let plants = try #require(reminders.first { $0.title == "Water plants" })
    #expect(plants.isCompleted)
    #expect(plants.completionDate == StoreFixture.date("2025-01-04T15:00:00Z"))
    #expect(plants.hasRecurrenceRules)
    #expect(plants.dueDateComponents?.timeZone?.identifier == "America/New_York")
  }

  func fetchReminders(_ store: EKEventStore, in calendar: EKCalendar) throws -> [EKReminder] {
    let box = ReminderBox()
    let done = DispatchSemaphore(value: 0)
    _ = store.fetchReminders(matching: store.predicateForReminders(in: [calendar])) { reminders in
      box.reminders = reminders ?? []
      done.signal()
    }
    done.wait()
    return box.reminders
  }

  @Test(arguments: ["google.ics", "outlook.ics", "apple.ics"])
  func importingAgainUpdatesInsteadOfDuplicating(name: String) throws {
    let fixture = try StoreFixture()
    let first = try fixture.store.importICalendar(try Self.fixture(name))
    let count = try fixture.itemCount()
    let second = try fixture.store.importICalendar(try Self.fixture(name))
    #expect(try fixture.itemCount() == count)
    #expect(second.eventsAdded == 0 && second.remindersAdded == 0)
    #expect(second.eventsUpdated == first.eventsAdded)
    #expect(second.remindersUpdated == first.remindersAdded)
    #expect(second.calendarsCreated == 0)
    #expect(second.eventCalendarIdentifier == first.eventCalendarIdentifier)
  }

  @Test(arguments: ["google.ics", "outlook.ics", "apple.ics"])
  func exportThenImportLosesNothing(name: String) throws {
    let fixture = try StoreFixture()
    let summary = try fixture.store.importICalendar(try Self.fixture(name))
    var calendars = [summary.eventCalendarIdentifier, summary.reminderCalendarIdentifier]
      .compactMap { $0.flatMap(fixture.store.calendar(withIdentifier:)) }
    let exported = try fixture.store.exportICalendar(calendars: calendars)
    // Into a second store, then out again: the same file.
    let other = try StoreFixture()
    let again = try other.store.importICalendar(exported)
    calendars = [again.eventCalendarIdentifier, again.reminderCalendarIdentifier]
      .compactMap { $0.flatMap(other.store.calendar(withIdentifier:)) }
    let reexported = try other.store.exportICalendar(calendars: calendars)
    #expect(
      String(decoding: reexported, as: UTF8.self) == String(decoding: exported, as: UTF8.self))
    // Every property of the original's items is in the export, by name.
    let original = try ICalendarDocument(parsing: [UInt8](try Self.fixture(name)))
    let written = try ICalendarDocument(parsing: [UInt8](exported))
    for component in original.calendars[0].components where component.name != "VTIMEZONE" {
      let uid = component.property("UID")?.value
      let recurrenceId = component.property("RECURRENCE-ID") != nil
      let match = try #require(
        written.calendars[0].components.first {
          $0.property("UID")?.value == uid && ($0.property("RECURRENCE-ID") != nil) == recurrenceId
        })
      let names = Set(match.properties.map(\.name))
      for property in component.properties where !["DURATION"].contains(property.name) {
        #expect(names.contains(property.name), "\(name): \(uid ?? ""): \(property.name)")
      }
      #expect(match.components.count == component.components.count)
    }
  }

  @Test func aBadFileNamesTheLineAndChangesNothing() throws {
    let fixture = try StoreFixture()
    let before = try fixture.itemCount()
    let calendars = fixture.store.calendars(for: .event).count
    var text = String(decoding: try Self.fixture("google.ics"), as: UTF8.self)
    text = text.replacingOccurrences(
      of: "DTSTART;VALUE=DATE:20250418", with: "DTSTART;VALUE=DATE:2025-04-18")
    do {
      _ = try fixture.store.importICalendar(Data(text.utf8))
      Issue.record("no error")
    } catch let error as ICalendarParseError {
      #expect(error.line == 47)
      #expect(error.property == "DTSTART")
    }
    #expect(try fixture.itemCount() == before)
    #expect(fixture.store.calendars(for: .event).count == calendars)
  }

  @Test func importIntoANamedCalendarAndRefuseReadOnlyOnes() throws {
    let fixture = try StoreFixture()
    let summary = try fixture.store.importICalendar(
      try Self.fixture("google.ics"), calendarTitle: "Calendar")
    #expect(summary.eventCalendarIdentifier == fixture.calendar.calendarIdentifier)
    #expect(summary.calendarsCreated == 0)
    expectEKError(.calendarReadOnly) {
      _ = try fixture.store.importICalendar(
        try Self.fixture("google.ics"), calendarTitle: "Holidays")
    }
  }
}

private final class ReminderBox: @unchecked Sendable {
  var reminders: [EKReminder] = []
}

/// What real producers write that the RFC does not quite allow, read as they mean it
/// (OpenEventKit.docc/ICalendarFiles.md, "Leniencies" and "Versions").
@Suite struct ICalendarQuirksTests {
  @Test func quirksOfRealProducers() throws {
    let fixture = try StoreFixture()
    let store = fixture.store
    let summary = try store.importICalendar(try ICalendarImportTests.fixture("quirks.ics"))
    let calendar = try #require(store.calendar(withIdentifier: summary.eventCalendarIdentifier!))
    let predicate = store.predicateForEvents(
      withStart: StoreFixture.date("2024-01-01T00:00:00Z"),
      end: StoreFixture.date("2024-06-01T00:00:00Z"), calendars: [calendar])
    let events = store.events(matching: predicate).sorted {
      $0.compareStartDate(with: $1) == .orderedAscending
    }
    func starts(_ title: String) -> [String] {
      events.filter { $0.title.hasPrefix(title) }.map {
        ISO8601DateFormatter().string(from: $0.startDate)
      }
    }
    // An UNTIL before DTSTART: the series was cancelled.
    #expect(starts("Cancelled").isEmpty)
    // COUNT=-1 beside UNTIL: the UNTIL counts. Every four weeks from 8 January.
    #expect(starts("Planning").count == 3)
    // The newest version of the series excludes 15 January, whose older override goes; the
    // 22 January override is kept.
    let sync = events.filter { $0.title.hasPrefix("Weekly sync") }
    #expect(sync.count == 7)
    #expect(!sync.contains { $0.title == "Weekly sync (moved, then deleted)" })
    #expect(
      sync.first { $0.title == "Weekly sync (afternoon)" }?.startDate
        == StoreFixture.date("2024-01-22T13:00:00Z"))
    // Two overrides of a series that is not in the file: two events.
    #expect(starts("One instance").count == 1 && starts("Another instance").count == 1)
    // Start and end swapped; an empty RRULE is no rule; an alarm without trigger is kept,
    // not made an alarm.
    let swapped = try #require(events.first { $0.title == "Swapped start and end" })
    #expect(swapped.startDate == StoreFixture.date("2024-01-12T22:30:00Z"))
    #expect(swapped.endDate == StoreFixture.date("2024-01-12T22:45:00Z"))
    #expect(!swapped.hasRecurrenceRules && !swapped.hasAlarms)
    let exported = String(
      decoding: try store.exportICalendar(calendars: [calendar]), as: UTF8.self)
    #expect(exported.contains("DESCRIPTION:An alarm without a trigger\r\n"))
    // A line folded without its leading space is joined back.
    #expect(exported.contains("ORGANIZER;X-WIKI-USER-KEY=8a4a;CN=Dana Reyes;CUTYPE=INDIVIDUAL:"))
    #expect(summary.eventsAdded == 7)

    // Importing again changes nothing and adds nothing.
    let again = try store.importICalendar(try ICalendarImportTests.fixture("quirks.ics"))
    #expect(again.eventsAdded == 0 && again.eventsUpdated == 7)
  }

  // Found by fuzz-import: a UID holding a raw CR was kept with it, but written back with a
  // line break (\n) instead, so importing the export added the event a second time.
  @Test func aUIDWithACarriageReturnIsTheSameUIDInTheExport() throws {
    let fixture = try StoreFixture()
    let file = Data(
      [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//EN", "BEGIN:VEVENT",
        "UID:one\rtwo@example.com", "DTSTART:20240922T142200Z", "SUMMARY:Odd UID", "END:VEVENT",
        "END:VCALENDAR", "",
      ].joined(separator: "\r\n").utf8)
    let first = try fixture.store.importICalendar(file, calendarTitle: "Odd")
    let calendarId = try #require(first.eventCalendarIdentifier)
    let calendar = try #require(fixture.store.calendar(withIdentifier: calendarId))
    let exported = try fixture.store.exportICalendar(calendars: [calendar])
    let again = try fixture.store.importICalendar(exported, calendarTitle: "Odd")
    #expect(again.eventsAdded == 0 && again.eventsUpdated == 1)
    #expect(fixture.store.calendarItems(withExternalIdentifier: "one\ntwo@example.com").count == 1)
  }

  // Found by fuzz-import: an override repeating RDATEs with a PERIOD kept them twice, and
  // every import of its export doubled them again.
  @Test func anOverridesRecurrenceDatesAreKeptOnce() throws {
    let fixture = try StoreFixture()
    let file = Data(
      [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//EN", "BEGIN:VEVENT", "UID:lessons",
        "DTSTART:20250101T170000Z", "DURATION:PT45M", "RRULE:FREQ=WEEKLY;COUNT=8",
        "SUMMARY:Lesson", "END:VEVENT", "BEGIN:VEVENT", "UID:lessons",
        "RECURRENCE-ID:20250108T170000Z", "DTSTART:20250108T180000Z", "DURATION:PT45M",
        "RDATE;VALUE=PERIOD:20250205T220000Z/PT1H", "SUMMARY:Lesson, an hour later",
        "END:VEVENT", "END:VCALENDAR", "",
      ].joined(separator: "\r\n").utf8)
    let summary = try fixture.store.importICalendar(file, calendarTitle: "Lessons")
    let calendarId = try #require(summary.eventCalendarIdentifier)
    let calendar = try #require(fixture.store.calendar(withIdentifier: calendarId))
    let exported = try fixture.store.exportICalendar(calendars: [calendar])
    let text = String(decoding: exported, as: UTF8.self)
    #expect(text.components(separatedBy: "RDATE;VALUE=PERIOD:20250205T220000Z/PT1H").count == 2)
    _ = try fixture.store.importICalendar(exported, calendarTitle: "Lessons")
    #expect(try fixture.store.exportICalendar(calendars: [calendar]) == exported)
  }

  // Found by fuzz-import: an event keeping an unknown property whose name begins with
  // RECURRENCE-ID was taken for an override without its series, and added again by every
  // import of the file.
  @Test func aPropertyNamedLikeRecurrenceIdDoesNotMakeAnOverride() throws {
    let fixture = try StoreFixture()
    let file = Data(
      [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//EN", "BEGIN:VEVENT",
        "UID:plain@example.com", "DTSTART:20240922T142200Z", "SUMMARY:Plain",
        "RECURRENCE-IDS:20240921T120000Z", "END:VEVENT", "END:VCALENDAR", "",
      ].joined(separator: "\r\n").utf8)
    let first = try fixture.store.importICalendar(file, calendarTitle: "Plain")
    #expect(first.eventsAdded == 1)
    let again = try fixture.store.importICalendar(file, calendarTitle: "Plain")
    #expect(again.eventsAdded == 0 && again.eventsUpdated == 1)
    #expect(fixture.store.calendarItems(withExternalIdentifier: "plain@example.com").count == 1)
  }

  // Found by fuzz-import: an override of a series not in the file, with RANGE=THISANDFUTURE,
  // was added again by every import of the file (and of its export): its RECURRENCE-ID line,
  // kept with the RANGE, was not the line it was looked up by.
  @Test func anOverrideWithARangeWithoutItsSeriesIsImportedOnce() throws {
    let fixture = try StoreFixture()
    let file = Data(
      [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//EN", "BEGIN:VEVENT",
        "UID:elsewhere@example.com", "RECURRENCE-ID;RANGE=THISANDFUTURE:20240921T120000Z",
        "DTSTART:20240922T142200Z", "DTEND:20240922T161300Z", "SUMMARY:Moved from here on",
        "END:VEVENT", "END:VCALENDAR", "",
      ].joined(separator: "\r\n").utf8)
    let first = try fixture.store.importICalendar(file, calendarTitle: "Shared")
    #expect(first.eventsAdded == 1)
    let again = try fixture.store.importICalendar(file, calendarTitle: "Shared")
    #expect(again.eventsAdded == 0 && again.eventsUpdated == 1)
    let calendarId = try #require(first.eventCalendarIdentifier)
    let calendar = try #require(fixture.store.calendar(withIdentifier: calendarId))
    let exported = try fixture.store.exportICalendar(calendars: [calendar])
    #expect(String(decoding: exported, as: UTF8.self).contains("RANGE=THISANDFUTURE"))
    let fromExport = try fixture.store.importICalendar(exported, calendarTitle: "Shared")
    #expect(fromExport.eventsAdded == 0 && fromExport.eventsUpdated == 1)
    #expect(fixture.store.calendarItems(withExternalIdentifier: "elsewhere@example.com").count == 1)
  }

  // Found by fuzz-import (a mutation of apple.ics): a to-do's RECURRENCE-ID, kept as written,
  // made its reminder look like an override without its series, so that an import of the
  // export no longer found it by its UID and added it again. Its value was no date at all.
  @Test func aToDoWhoseRecurrenceIdIsNoDateIsRefused() throws {
    let fixture = try StoreFixture()
    let file = Data(
      [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//EN", "BEGIN:VTODO",
        "UID:TODO-0001-APPLE", "SUMMARY:Renew passport", "DUE;VALUE=DATE:20250401",
        "RECURRENCE-ID;RANGE=THISANDFUTURE:PPLE-SORT-ORDER:12", "END:VTODO", "END:VCALENDAR",
        "",
      ].joined(separator: "\r\n").utf8)
    let error = #expect(throws: ICalendarParseError.self) {
      try fixture.store.importICalendar(file, calendarTitle: "Errands")
    }
    #expect(error?.line == 8 && error?.property == "RECURRENCE-ID")
    #expect(fixture.store.calendars(for: .reminder).allSatisfy { $0.title != "Errands" })
  }

  // A repeating to-do with one instance overridden: EKReminder has no detached occurrences,
  // so the override is a reminder of its own beside the series, and both are found again by
  // an import of the file or of its export.
  @Test func anOverriddenInstanceOfAToDoIsKeptBesideItsSeries() throws {
    let fixture = try StoreFixture()
    let store = fixture.store
    let file = Data(
      [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//EN", "BEGIN:VTODO",
        "UID:plants@example.com", "SUMMARY:Water plants", "DUE:20250104T090000Z",
        "RRULE:FREQ=WEEKLY;COUNT=4", "END:VTODO", "BEGIN:VTODO", "UID:plants@example.com",
        "RECURRENCE-ID:20250111T090000Z", "SUMMARY:Water plants and the cactus",
        "DUE:20250111T100000Z", "END:VTODO", "END:VCALENDAR", "",
      ].joined(separator: "\r\n").utf8)
    let first = try store.importICalendar(file, calendarTitle: "Home")
    #expect(first.remindersAdded == 2)
    let titles = store.calendarItems(withExternalIdentifier: "plants@example.com").compactMap(
      \.title)
    #expect(titles.sorted() == ["Water plants", "Water plants and the cactus"])
    let again = try store.importICalendar(file, calendarTitle: "Home")
    #expect(again.remindersAdded == 0 && again.remindersUpdated == 2)

    let calendarId = try #require(first.reminderCalendarIdentifier)
    let calendar = try #require(store.calendar(withIdentifier: calendarId))
    let exported = try store.exportICalendar(calendars: [calendar])
    #expect(String(decoding: exported, as: UTF8.self).contains("RECURRENCE-ID:20250111T090000Z"))
    let fromExport = try store.importICalendar(exported, calendarTitle: "Home")
    #expect(fromExport.remindersAdded == 0 && fromExport.remindersUpdated == 2)
    #expect(try store.exportICalendar(calendars: [calendar]) == exported)
  }
}

/// Every value error an import reports: the line, the property, and what is wrong, with the
/// store left as it was.
@Suite struct ICalendarValueErrorTests {
  static let cases: [(lines: [String], line: Int, property: String?, reason: String)] = [
    (["DTSTART:20250301T090000", "DTEND:tomorrow"], 6, "DTEND", "'tomorrow' is not a DATE"),
    (["DTSTART:20250301T090000", "DURATION:-PT1H"], 6, "DURATION", "a negative DURATION"),
    (["DTSTART:20250301T090000", "DURATION:1H"], 6, "DURATION", "'1H' is not a DURATION"),
    (["SUMMARY:No start"], 3, nil, "VEVENT has no DTSTART"),
    (
      ["DTSTART;TZID=Mars/Olympus:20250301T090000"], 5, "DTSTART",
      "unknown time zone 'Mars/Olympus'"
    ),
    (["DTSTART;VALUE=DATE:20250301T090000"], 5, "DTSTART", "VALUE=DATE, but"),
    (["DTSTART:20250301T090000", "RRULE:FREQ=FORTNIGHTLY"], 6, "RRULE", "FREQ"),
    (["DTSTART:20250301T090000", "RRULE:FREQ=DAILY;BYMONTHDAY=40"], 6, "RRULE", "BYMONTHDAY"),
    (["DTSTART:20250301T090000", "EXDATE:2025-03-02"], 6, "EXDATE", "is not a DATE"),
    (["DTSTART:20250301T090000", "RDATE;VALUE=PERIOD:20250302T090000/soon"], 6, "RDATE", "soon"),
    (["DTSTART:20250301T090000", "GEO:north;east"], 6, "GEO", "is not latitude;longitude"),
    (["DTSTART:20250301T090000", "GEO:95;10"], 6, "GEO", "is not latitude;longitude"),
    (["DTSTART:20250301T090000", "SEQUENCE:first"], 6, "SEQUENCE", "is not a whole number"),
    (["DTSTART:20250301T090000", "CREATED:yesterday"], 6, "CREATED", "is not a DATE"),
    (["DTSTART:20250301T090000", "RECURRENCE-ID:someday"], 6, "RECURRENCE-ID", "is not a DATE"),
    // What the store would keep wrong or where no query finds it is refused, not cut.
    (
      ["DTSTART:20250301T090000", "SUMMARY:Lunch\u{0} with Ann"], 6, "SUMMARY",
      "holds a NUL character (U+0000)"
    ),
    (
      ["DTSTART:00000101T090000"], 5, "DTSTART", "a start of 00000101T090000 lies outside the years"
    ),
    (
      ["DTSTART;TZID=Asia/Tokyo:00010101T000000"], 5, "DTSTART",
      "lies outside the years 1 to 9999, the dates the store keeps and its queries find"
    ),
    (["DTSTART;VALUE=DATE:99991231", "DURATION:P2D"], 6, "DURATION", "an end of 100000102"),
    (
      ["DTSTART:20250301T090000", "RDATE:20250302T090000,00000302T090000"], 6, "RDATE",
      "a start of 00000302T090000 lies outside the years"
    ),
    (
      ["DTSTART:20250301T090000", "RRULE:FREQ=DAILY;COUNT=9999999999"], 6, "RRULE",
      "COUNT=9999999999 is out of range (1 to 2147483647)"
    ),
  ]

  func file(_ lines: [String]) -> Data {
    let all =
      ["BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VEVENT", "UID:bad@example.org"] + lines
      + ["END:VEVENT", "END:VCALENDAR"]
    return Data((all.joined(separator: "\r\n") + "\r\n").utf8)
  }

  @Test(arguments: 0..<cases.count)
  func valueErrorsNameTheLineAndProperty(index: Int) throws {
    let fixture = try StoreFixture()
    let before = try fixture.itemCount()
    let calendars = fixture.store.calendars(for: .event).count
    let expected = Self.cases[index]
    do {
      _ = try fixture.store.importICalendar(file(expected.lines))
      Issue.record("no error for \(expected.lines)")
    } catch let error as ICalendarParseError {
      #expect(error.line == expected.line, "\(error)")
      #expect(error.property == expected.property, "\(error)")
      #expect(error.description.contains(expected.reason), "\(error)")
    }
    #expect(try fixture.itemCount() == before)
    #expect(fixture.store.calendars(for: .event).count == calendars)
  }

  /// A large file is read in chunks on several threads; the error reported is still the
  /// first in the file.
  @Test func theFirstErrorOfALargeFileIsReported() throws {
    var lines = ["BEGIN:VCALENDAR", "VERSION:2.0"]
    var badLines: [Int] = []
    for index in 0..<6_000 {
      lines += ["BEGIN:VEVENT", "UID:e\(index)@example.org", "DTSTART:20250301T090000"]
      if index == 3_100 || index == 5_500 {
        badLines.append(lines.count + 1)
        lines.append("DTEND:bad")
      }
      lines.append("END:VEVENT")
    }
    lines.append("END:VCALENDAR")
    let fixture = try StoreFixture()
    #expect {
      _ = try fixture.store.importICalendar(Data(lines.joined(separator: "\r\n").utf8))
    } throws: { error in
      (error as? ICalendarParseError)?.line == badLines[0]
    }
  }

  @Test func reminderErrors() throws {
    let fixture = try StoreFixture()
    let text = [
      "BEGIN:VCALENDAR", "BEGIN:VTODO", "UID:t@example.org", "SUMMARY:Pay", "PRIORITY:12",
      "END:VTODO", "END:VCALENDAR",
    ].joined(separator: "\r\n")
    #expect {
      _ = try fixture.store.importICalendar(Data(text.utf8))
    } throws: { error in
      (error as? ICalendarParseError)?.description
        == "line 5: PRIORITY: '12' is not a whole number in 0…9"
    }
    let yearZero = [
      "BEGIN:VCALENDAR", "BEGIN:VTODO", "UID:t@example.org", "SUMMARY:Pay", "DUE:00000101",
      "END:VTODO", "END:VCALENDAR",
    ].joined(separator: "\r\n")
    #expect {
      _ = try fixture.store.importICalendar(Data(yearZero.utf8))
    } throws: { error in
      (error as? ICalendarParseError)?.description
        == "line 5: DUE: 00000101 lies outside the years 1 to 9999, the dates the store keeps"
        + " and its queries find"
    }
  }

  /// The first and last days the store keeps are imported, and queries find them.
  @Test func theFirstAndLastYearsTheStoreKeepsAreImported() throws {
    let fixture = try StoreFixture()
    let text = [
      "BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:first@example.org", "SUMMARY:First",
      "DTSTART;VALUE=DATE:00010101", "END:VEVENT", "BEGIN:VEVENT", "UID:last@example.org",
      "SUMMARY:Last", "DTSTART;VALUE=DATE:99991231", "END:VEVENT", "END:VCALENDAR",
    ].joined(separator: "\r\n")
    let summary = try fixture.store.importICalendar(Data(text.utf8))
    #expect(summary.eventsAdded == 2)
    let calendar = try #require(
      fixture.store.calendar(withIdentifier: summary.eventCalendarIdentifier!))
    // Days of the proleptic Gregorian calendar, as RFC 5545 counts them (Foundation's
    // formatters switch to the Julian calendar before 1582).
    func titles(from year: Int, _ month: Int, _ day: Int, days: Int) -> [String] {
      let start = CivilDate(year: year, month: month, day: day)!.dayNumber * 86_400
      let predicate = fixture.store.predicateForEvents(
        withStart: Date(timeIntervalSince1970: TimeInterval(start)),
        end: Date(timeIntervalSince1970: TimeInterval(start + days * 86_400 - 1)),
        calendars: [calendar])
      return fixture.store.events(matching: predicate).map(\.title)
    }
    #expect(titles(from: 1, 1, 1, days: 2) == ["First"])
    #expect(titles(from: 9999, 12, 30, days: 2) == ["Last"])
  }

  /// COUNT up to 2,147,483,647 (what producers write for "no end") is imported, and a window
  /// years into such a rule, every minute in a zone with DST, is counted, not walked.
  @Test(.timeLimit(.minutes(1))) func theLargestCountIsImportedAndQueriedQuickly() throws {
    let fixture = try StoreFixture()
    let text = [
      "BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:often@example.org", "SUMMARY:Often",
      "DTSTART;TZID=Europe/Paris:20250101T000000", "DURATION:PT30S",
      "RRULE:FREQ=MINUTELY;COUNT=2147483647", "END:VEVENT", "END:VCALENDAR",
    ].joined(separator: "\r\n")
    let summary = try fixture.store.importICalendar(Data(text.utf8))
    let calendar = try #require(
      fixture.store.calendar(withIdentifier: summary.eventCalendarIdentifier!))
    let clock = ContinuousClock()
    let began = clock.now
    let predicate = fixture.store.predicateForEvents(
      withStart: StoreFixture.date("2480-06-01T00:00:00Z"),
      end: StoreFixture.date("2480-06-01T01:00:00Z"), calendars: [calendar])
    #expect(fixture.store.events(matching: predicate).count == 60)
    #expect(clock.now - began < .seconds(20))
    let rule = try #require(fixture.store.events(matching: predicate).first?.recurrenceRules?.first)
    #expect(rule.recurrenceEnd?.occurrenceCount == 2_147_483_647)
  }
}

@Suite struct KeptContentTests {
  /// The hand-written JSON of the `extra` column reads back through JSONDecoder exactly.
  @Test func columnTextRoundTrips() throws {
    let properties = [
      ICalendarProperty(name: "X-QUOTE", value: #"say "hi" \ back\slash"#),
      ICalendarProperty(name: "X-CONTROL", value: "tab\there\u{1}\u{1F}"),
      ICalendarProperty(
        name: "X-UNICODE", parameters: [ICalendarParameter(name: "CN", value: "Zoë, 日本")],
        value: "🏃"),
    ]
    let component = ICalendarComponent(name: "X-THING", properties: [properties[0]])
    let kept = KeptContent(properties: properties, components: [component])
    let text = try #require(kept.columnText)
    let back = KeptContent.from(column: text)
    #expect(back == kept)
    #expect(back.keptProperties == properties)
    #expect(back.keptComponents == [component])
    #expect(KeptContent(properties: [], components: []).columnText == nil)
  }
}
