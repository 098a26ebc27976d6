import Foundation
import GRDB
import Testing

@testable import OpenEventKit

/// The outbox of CalDAV sources: every local change to a synced calendar is recorded in the
/// transaction that makes it, by resource (UID), and nothing else is.
@Suite struct OutboxTests {
  /// A store with a CalDAV account of one event calendar and one reminder list (a collection
  /// taking both), as `ekctl account add` leaves it.
  final class SyncedStore {
    let fixture: StoreFixture
    let database: CalendarDatabase
    let sourceId: String

    init() throws {
      fixture = try StoreFixture()
      database = try CalendarDatabase(location: StoreLocation(folder: fixture.folder.url))
      sourceId = try database.write { db in
        try AccountRows.add(
          db, name: "Home", url: "http://127.0.0.1:5232/", homeURL: "/alice/", user: "alice",
          calendars: [
            ServerCalendar(
              href: "/alice/home/", title: "Home", color: "#FF2968",
              components: ["VEVENT", "VTODO"], isReadOnly: false)
          ])
      }
      fixture.store.refreshSourcesIfNecessary()
    }

    var store: EKEventStore { fixture.store }

    var events: EKCalendar {
      store.calendars(for: .event).first { $0.source.sourceType == .calDAV }!
    }

    var reminders: EKCalendar {
      store.calendars(for: .reminder).first { $0.source.sourceType == .calDAV }!
    }

    /// The outbox as (change, UID or "calendar"), oldest first.
    func outbox() throws -> [String] {
      try database.pool.read { db in
        try OutboxEntry.pending(db, sourceId: sourceId).map {
          "\($0.change) \($0.uid ?? "calendar")"
        }
      }
    }

    func event(_ title: String, in calendar: EKCalendar, rule: EKRecurrenceRule? = nil) throws
      -> EKEvent
    {
      let event = EKEvent(eventStore: store)
      event.title = title
      event.calendar = calendar
      event.startDate = StoreFixture.date("2026-03-02T09:00:00Z")
      event.endDate = event.startDate.addingTimeInterval(3600)
      if let rule { event.recurrenceRules = [rule] }
      try store.save(event, span: .thisEvent)
      return event
    }
  }

  @Test func theAccountIsACalDAVSourceWithACalendarForEachEntity() throws {
    let synced = try SyncedStore()
    let source = try #require(synced.store.sources.first { $0.sourceType == .calDAV })
    #expect(source.title == "Home")
    #expect(source.calendars(for: .event).map(\.title) == ["Home"])
    #expect(source.calendars(for: .reminder).map(\.title) == ["Home"])
    #expect(synced.events.type == .calDAV && synced.events.allowsContentModifications)
    #expect(synced.events.cgColor.hexString == "#FF2968")
    // Written as the server's: nothing to send back.
    #expect(try synced.outbox().isEmpty)
  }

  @Test func savesAndRemovalsInASyncedCalendarAreRecordedByResource() throws {
    let synced = try SyncedStore()
    let event = try synced.event("Dinner", in: synced.events)
    let uid = try #require(event.calendarItemExternalIdentifier)
    event.title = "Dinner at eight"
    try synced.store.save(event, span: .thisEvent)
    try synced.store.remove(event, span: .thisEvent)
    #expect(try synced.outbox() == ["created \(uid)", "changed \(uid)", "removed \(uid)"])
  }

  @Test func aDetachedOccurrenceChangesItsSeriesResource() throws {
    let synced = try SyncedStore()
    let series = try synced.event(
      "Stand-up", in: synced.events,
      rule: EKRecurrenceRule(recurrenceWith: .daily, interval: 1, end: nil))
    let uid = try #require(series.calendarItemExternalIdentifier)
    let predicate = synced.store.predicateForEvents(
      withStart: StoreFixture.date("2026-03-04T00:00:00Z"),
      end: StoreFixture.date("2026-03-05T00:00:00Z"), calendars: [synced.events])
    let third = try #require(synced.store.events(matching: predicate).first)
    third.title = "Stand-up (moved)"
    try synced.store.save(third, span: .thisEvent)
    try synced.store.remove(third, span: .thisEvent)
    // Each commit records one change of the series' resource: the detach, then the removal
    // of the detached occurrence (an EXDATE in the same resource).
    #expect(try synced.outbox() == ["created \(uid)", "changed \(uid)", "changed \(uid)"])
  }

  @Test func movingAnEventOutOfASyncedCalendarRemovesItsResource() throws {
    let synced = try SyncedStore()
    let event = try synced.event("Lunch", in: synced.events)
    let uid = try #require(event.calendarItemExternalIdentifier)
    event.calendar = synced.fixture.calendar
    try synced.store.save(event, span: .thisEvent)
    event.title = "Lunch, locally"
    try synced.store.save(event, span: .thisEvent)
    #expect(try synced.outbox() == ["created \(uid)", "removed \(uid)"])
  }

  @Test func localCalendarsRecordNothing() throws {
    let synced = try SyncedStore()
    _ = try synced.event("Local", in: synced.fixture.calendar)
    let reminder = EKReminder(eventStore: synced.store)
    reminder.title = "Buy bread"
    reminder.calendar = synced.fixture.reminders
    try synced.store.save(reminder, commit: true)
    #expect(try synced.outbox().isEmpty)
  }

  @Test func remindersAndCalendarsOfTheSourceAreRecorded() throws {
    let synced = try SyncedStore()
    let reminder = EKReminder(eventStore: synced.store)
    reminder.title = "Buy bread"
    reminder.calendar = synced.reminders
    try synced.store.save(reminder, commit: true)
    let source = synced.events.source
    let calendar = EKCalendar(for: .event, eventStore: synced.store)
    calendar.title = "Work"
    calendar.source = source
    try synced.store.saveCalendar(calendar, commit: true)
    #expect(calendar.type == .calDAV)
    let event = try synced.event("Review", in: calendar)
    try synced.store.removeCalendar(calendar, commit: true)
    #expect(
      try synced.outbox() == [
        "created \(reminder.calendarItemExternalIdentifier!)", "created calendar",
        "created \(event.calendarItemExternalIdentifier!)", "removed calendar",
      ])
  }

  @Test func aBatchThatFailsRecordsNothing() throws {
    let synced = try SyncedStore()
    let event = try synced.event("Dinner", in: synced.events)
    let uid = try #require(event.calendarItemExternalIdentifier)
    // Another store removes the event; this store's batch with a conditional save of it
    // then fails whole.
    let other = synced.fixture.secondStore()
    try other.remove(other.event(withIdentifier: event.eventIdentifier)!, span: .thisEvent)
    let before = try synced.outbox()
    #expect(before == ["created \(uid)", "removed \(uid)"])
    let extra = EKEvent(eventStore: synced.store)
    extra.title = "Breakfast"
    extra.calendar = synced.events
    extra.startDate = StoreFixture.date("2026-03-03T08:00:00Z")
    extra.endDate = extra.startDate.addingTimeInterval(1800)
    try synced.store.save(extra, span: .thisEvent, commit: false)
    event.title = "Dinner, renamed"
    #expect(throws: SaveConflictError.self) {
      try synced.store.saveIfUnchanged(event, span: .thisEvent)
    }
    #expect(try synced.outbox() == before)
    // The failed save took its condition with it: the rest of the batch commits, recorded.
    try synced.store.commit()
    #expect(try synced.outbox() == before + ["created \(extra.calendarItemExternalIdentifier!)"])
  }

  @Test func theServersOwnWritesRecordNothing() throws {
    let synced = try SyncedStore()
    let local = try synced.event("Local", in: synced.fixture.calendar)
    let calendarId = synced.events.calendarIdentifier
    for origin in [RowWriter.Origin.server, .local] {
      try synced.database.write { db in
        var record = try #require(try ItemRows.item(db, id: local.calendarItemIdentifier))
        record.id = "\(origin)-row"
        record.calendarId = calendarId
        try RowWriter.writing(db, origin: origin) { rows in try rows.insert(record) }
      }
    }
    // Only the local write is recorded.
    #expect(try synced.outbox() == ["created local-row"])
  }
}
