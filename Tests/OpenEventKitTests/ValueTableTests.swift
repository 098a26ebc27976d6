import Foundation
import ICalendar
import TestSupport
import Testing

@testable import OpenEventKit

/// The iCalendar words for EventKit's values: each table read and written the same way.
@Suite struct ValueTableTests {
  func roundTrips<Value: Hashable & Sendable>(_ table: ICalendarValueTable<Value>) -> [Value] {
    table.writtenValues.filter { table.value(for: table.text(for: $0)) != $0 }
  }

  @Test func everyValueWithAWordReadsBackAsItself() {
    let tables = ICalendarValueTables.self
    #expect(roundTrips(tables.eventStatus).isEmpty)
    #expect(roundTrips(tables.role).isEmpty)
    #expect(roundTrips(tables.participationStatus).isEmpty)
    #expect(roundTrips(tables.userType).isEmpty)
    // Availabilities iCalendar has no word for are written as the nearest one.
    #expect(tables.transparency.text(for: .tentative) == "OPAQUE")
    #expect(tables.busyStatus.text(for: .notSupported) == "BUSY")
    for availability in [EKEventAvailability.free, .busy, .tentative, .unavailable] {
      #expect(
        tables.busyStatus.value(for: tables.busyStatus.text(for: availability)) == availability)
    }
    // Reading ignores case (§3.2); an unknown word is nothing.
    #expect(tables.eventStatus.value(for: "cancelled") == .canceled)
    #expect(tables.eventStatus.value(for: "X-POSTPONED") == nil)
  }

  @Test func participantsWithoutTheirLineKeepEveryField() throws {
    // A participant the store has no imported line for (as a merge may leave it) is written
    // from its fields, and reads back the same: CUTYPE was read and never written.
    for type in [EKParticipantType.person, .room, .resource, .group] {
      var participant = ParticipantValues(url: URL(string: "mailto:room1@example.com")!)
      participant.name = "Room 1"
      participant.role = .optional
      participant.status = .tentative
      participant.type = type
      let line = ICalendarItemWriter.participant(participant)
      let back = try #require(ICalendarItemReader.participant(line))
      #expect(back.type == type && back.role == .optional && back.status == .tentative)
      #expect(line.contentLine.contains("CUTYPE") == (type != .person))
    }
  }

  @Test func busyStatusOverridesTransparencyBothWays() throws {
    let file = """
      BEGIN:VCALENDAR\r
      VERSION:2.0\r
      PRODID:-//Test//EN\r
      BEGIN:VEVENT\r
      UID:busy-1\r
      DTSTAMP:20260101T000000Z\r
      DTSTART:20260302T090000Z\r
      DTEND:20260302T100000Z\r
      TRANSP:OPAQUE\r
      X-MICROSOFT-CDO-BUSYSTATUS:OOF\r
      SUMMARY:Away\r
      END:VEVENT\r
      END:VCALENDAR\r

      """
    let folder = try TemporaryFolder()
    let store = try EKEventStore(
      ownerOf: folder.url.appendingPathComponent("Calendar.sqlite"), create: true)
    _ = try store.importICalendar(Data(file.utf8), calendarTitle: "Imported")
    let event = try #require(
      store.calendarItems(withExternalIdentifier: "busy-1").first as? EKEvent)
    #expect(event.availability == .unavailable)
    let exported = String(
      decoding: try store.exportICalendar(calendars: [event.calendar]), as: UTF8.self)
    #expect(
      exported.contains("TRANSP:OPAQUE") && exported.contains("X-MICROSOFT-CDO-BUSYSTATUS:OOF"))
  }
}
