import Foundation
import TestSupport
import Testing

@testable import OpenEventKit

/// Two stores ("two machines") syncing through a real CalDAV server on 127.0.0.1, Radicale and
/// Xandikos in turn: every kind of change made on either side reaches the other.
@Suite struct TwoMachineTests {
  let march = ("2026-03-01T00:00:00Z", "2026-04-01T00:00:00Z")

  @Test(arguments: CalDAVServerKind.allCases)
  func anAccountIsACalDAVSourceWithTheServersCalendars(_ server: CalDAVServerKind) async throws {
    let fixture = try await SyncFixture(server)
    let laptop = try await fixture.machine("laptop")
    let account = try laptop.accounts.account(named: "home")
    #expect(account.user == SyncFixture.user)
    #expect(
      account.calendars.map { "\($0.title) \($0.entityType == .event ? "events" : "reminders")" }
        .sorted() == ["Home events", "Home reminders"])
    let source = try #require(laptop.store.sources.first { $0.sourceType == .calDAV })
    #expect(source.title == "home")
    #expect(try laptop.events.type == .calDAV)
    #expect(try laptop.events.cgColor.hexString == "#FF2968")
    // The password is beside the database, 0600, and not in it.
    let passwordFile = laptop.folder.appendingPathComponent(
      "Accounts/\(source.sourceIdentifier).password")
    let mode =
      try FileManager.default.attributesOfItem(atPath: passwordFile.path)[.posixPermissions] as? Int
    #expect(mode == 0o600)
    let database = try Data(contentsOf: laptop.databaseFile)
    #expect(database.range(of: Data(SyncFixture.password.utf8)) == nil)
  }

  @Test(arguments: CalDAVServerKind.allCases)
  func eventsCreatedEditedAndRemovedOnEitherSideReachTheOther(_ server: CalDAVServerKind)
    async throws
  {
    let fixture = try await SyncFixture(server)
    let laptop = try await fixture.machine("laptop")
    let phone = try await fixture.machine("phone")

    let dinner = try laptop.event("Dinner", start: "2026-03-02T19:00:00Z")
    let sent = try await laptop.sync()
    #expect(sent.sent == 1)
    let received = try await phone.sync()
    #expect(received.received == 1)
    #expect(try phone.occurrences(march.0, march.1) == ["Dinner@2026-03-02T19:00:00Z"])

    // Edited on the phone, seen on the laptop, in the same object's identifier there.
    let onPhone = try #require(
      phone.store.calendarItems(withExternalIdentifier: dinner.calendarItemExternalIdentifier)
        .first as? EKEvent)
    onPhone.title = "Dinner with Sam"
    onPhone.location = "Bistro"
    try phone.store.save(onPhone, span: .thisEvent)
    try await phone.sync()
    try await laptop.sync()
    let again = try #require(laptop.store.event(withIdentifier: dinner.eventIdentifier))
    #expect(again.title == "Dinner with Sam" && again.location == "Bistro")

    // Removed on the laptop, gone on the phone.
    try laptop.store.remove(again, span: .thisEvent)
    let removal = try await laptop.sync()
    #expect(removal.sentRemovals == 1)
    let gone = try await phone.sync()
    #expect(gone.receivedRemovals == 1)
    #expect(try phone.occurrences(march.0, march.1).isEmpty)
    #expect(try laptop.pendingChanges() == 0 && phone.pendingChanges() == 0)
  }

  @Test(arguments: CalDAVServerKind.allCases)
  func detachedOccurrencesAndSplitsRoundTrip(_ server: CalDAVServerKind) async throws {
    let fixture = try await SyncFixture(server)
    let laptop = try await fixture.machine("laptop")
    let phone = try await fixture.machine("phone")
    let daily = EKRecurrenceRule(
      recurrenceWith: .daily, interval: 1, end: EKRecurrenceEnd(occurrenceCount: 6))
    try laptop.event("Stand-up", start: "2026-03-02T09:00:00Z", minutes: 15, rule: daily)
    try await laptop.sync()
    try await phone.sync()
    #expect(try phone.occurrences(march.0, march.1).count == 6)

    // The phone moves the third occurrence and removes the fourth.
    let predicate = { (day: String) in
      phone.store.predicateForEvents(
        withStart: Machine.date("\(day)T00:00:00Z"), end: Machine.date("\(day)T23:59:59Z"),
        calendars: [try! phone.events])
    }
    let third = try #require(phone.store.events(matching: predicate("2026-03-04")).first)
    third.startDate = Machine.date("2026-03-04T11:00:00Z")
    third.endDate = Machine.date("2026-03-04T11:15:00Z")
    try phone.store.save(third, span: .thisEvent)
    let fourth = try #require(phone.store.events(matching: predicate("2026-03-05")).first)
    try phone.store.remove(fourth, span: .thisEvent)
    try await phone.sync()
    try await laptop.sync()
    #expect(
      try laptop.occurrences(march.0, march.1) == [
        "Stand-up@2026-03-02T09:00:00Z", "Stand-up@2026-03-03T09:00:00Z",
        "Stand-up@2026-03-04T11:00:00Z", "Stand-up@2026-03-06T09:00:00Z",
        "Stand-up@2026-03-07T09:00:00Z",
      ])

    // The laptop renames from the sixth on: a split into a second series, on both sides.
    let laptopPredicate = laptop.store.predicateForEvents(
      withStart: Machine.date("2026-03-06T00:00:00Z"), end: Machine.date("2026-03-06T23:00:00Z"),
      calendars: [try laptop.events])
    let fifth = try #require(laptop.store.events(matching: laptopPredicate).first)
    fifth.title = "Retro"
    try laptop.store.save(fifth, span: .futureEvents)
    try await laptop.sync()
    try await phone.sync()
    let expected = [
      "Retro@2026-03-06T09:00:00Z", "Retro@2026-03-07T09:00:00Z",
      "Stand-up@2026-03-02T09:00:00Z", "Stand-up@2026-03-03T09:00:00Z",
      "Stand-up@2026-03-04T11:00:00Z",
    ]
    #expect(try phone.occurrences(march.0, march.1) == expected)
    #expect(try laptop.occurrences(march.0, march.1) == expected)
  }

  @Test(arguments: CalDAVServerKind.allCases)
  func remindersSyncToo(_ server: CalDAVServerKind) async throws {
    let fixture = try await SyncFixture(server)
    let laptop = try await fixture.machine("laptop")
    let phone = try await fixture.machine("phone")
    let reminder = EKReminder(eventStore: laptop.store)
    reminder.title = "Buy bread"
    reminder.calendar = try laptop.reminders
    reminder.dueDateComponents = DateComponents(year: 2026, month: 3, day: 3)
    try laptop.store.save(reminder, commit: true)
    try await laptop.sync()
    try await phone.sync()
    let onPhone = try #require(
      phone.store.calendarItems(withExternalIdentifier: reminder.calendarItemExternalIdentifier)
        .first as? EKReminder)
    #expect(onPhone.title == "Buy bread" && onPhone.dueDateComponents?.day == 3)
    #expect(onPhone.calendar.calendarIdentifier == (try phone.reminders).calendarIdentifier)
    onPhone.isCompleted = true
    try phone.store.save(onPhone, commit: true)
    try await phone.sync()
    try await laptop.sync()
    let back = try #require(
      laptop.store.calendarItem(withIdentifier: reminder.calendarItemIdentifier) as? EKReminder)
    #expect(back.isCompleted)
  }

  @Test(arguments: CalDAVServerKind.allCases)
  func aCalendarMadeInTheSourceIsMadeOnTheServer(_ server: CalDAVServerKind) async throws {
    let fixture = try await SyncFixture(server)
    let laptop = try await fixture.machine("laptop")
    let phone = try await fixture.machine("phone")
    let work = EKCalendar(for: .event, eventStore: laptop.store)
    work.title = "Work"
    work.source = try laptop.events.source
    try laptop.store.saveCalendar(work, commit: true)
    try laptop.event("Review", start: "2026-03-03T10:00:00Z", in: work)
    let report = try await laptop.sync()
    #expect(report.calendarChanges.contains { $0.contains("Work") })
    try await phone.sync()
    let onPhone = try #require(phone.store.calendars(for: .event).first { $0.title == "Work" })
    #expect(onPhone.type == .calDAV)
    #expect(try phone.occurrences(march.0, march.1, in: onPhone) == ["Review@2026-03-03T10:00:00Z"])
    // Removed on the phone: gone from the server and the laptop.
    try phone.store.removeCalendar(onPhone, commit: true)
    try await phone.sync()
    try await laptop.sync()
    #expect(!laptop.store.calendars(for: .event).contains { $0.title == "Work" })
  }
}
