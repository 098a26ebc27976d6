import Foundation
import GRDB
import ICalendar
import TestSupport
import Testing

@testable import OpenEventKit

/// Files of several thousand items, which an import reads in chunks while it writes the
/// events no other component names (``ImportReading``): versions, overrides and errors far
/// apart in the file must come out as a whole-file pass gives them.
@Suite struct LargeImportTests {
  /// Items beyond three chunks, so that the first and the last components are read apart.
  static let singles = 3 * ImportReading.chunkSize + 100

  /// A file with `singles` single events around: a weekly series first and an override of
  /// its third instance last; two versions of one event (the higher SEQUENCE first, the
  /// lower last) and two of another with equal SEQUENCEs; and `last` as the final VEVENT.
  static func file(last: String = "") -> String {
    var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//OpenEventKit//tests//EN\r\n"
    func event(_ uid: String, _ start: String, _ title: String, _ more: String = "") {
      text +=
        "BEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTART:\(start)\r\nDURATION:PT1H\r\n"
        + "SUMMARY:\(title)\r\n\(more)END:VEVENT\r\n"
    }
    event("series", "20250106T090000Z", "Stand-up", "RRULE:FREQ=WEEKLY;COUNT=5\r\n")
    event("versioned", "20250301T090000Z", "Second version", "SEQUENCE:2\r\n")
    event("tied", "20250302T090000Z", "Tie, first")
    for index in 0..<singles {
      event("single-\(index)", "20250401T090000Z", "Single \(index)")
    }
    event("tied", "20250302T090000Z", "Tie, last")
    event("versioned", "20250301T090000Z", "First version", "SEQUENCE:1\r\n")
    event(
      "series", "20250120T100000Z", "Stand-up (moved)", "RECURRENCE-ID:20250120T090000Z\r\n")
    return text + last + "END:VCALENDAR\r\n"
  }

  /// The titles of the occurrences in the calendar "Large", in order of their starts; none
  /// when there is no such calendar.
  func titles(_ store: EKEventStore, _ start: String, _ end: String) -> [String] {
    events(store, start, end).map(\.title)
  }

  func events(_ store: EKEventStore, _ start: String, _ end: String) -> [EKEvent] {
    let large = store.calendars(for: .event).filter { $0.title == "Large" }
    guard !large.isEmpty else { return [] }
    let predicate = store.predicateForEvents(
      withStart: StoreFixture.date(start), end: StoreFixture.date(end), calendars: large)
    return store.events(matching: predicate).sorted {
      $0.compareStartDate(with: $1) == .orderedAscending
    }
  }

  @Test func versionsAndOverridesFarApartComeOutAsInAWholeFilePass() throws {
    let fixture = try StoreFixture()
    let store = fixture.store
    let data = Data(Self.file().utf8)
    let summary = try store.importICalendar(data, calendarTitle: "Large")
    // Every single, the series, its override, one of each versioned event.
    #expect(summary.eventsAdded == Self.singles + 4)
    #expect(summary.eventsUpdated == 0 && summary.calendarsCreated == 1)
    #expect(
      titles(store, "2025-01-01T00:00:00Z", "2025-02-15T00:00:00Z") == [
        "Stand-up", "Stand-up", "Stand-up (moved)", "Stand-up", "Stand-up",
      ])
    // The higher SEQUENCE wins though it comes first; of equal ones, the last in the file.
    #expect(
      titles(store, "2025-03-01T00:00:00Z", "2025-03-03T00:00:00Z") == [
        "Second version", "Tie, last",
      ])
    #expect(titles(store, "2025-04-01T00:00:00Z", "2025-04-02T00:00:00Z").count == Self.singles)
    let ids = Set(
      events(store, "2025-04-01T00:00:00Z", "2025-04-02T00:00:00Z").map(\.calendarItemIdentifier))

    // Again: every item is found by its UID and updated, keeping its identifier.
    let again = try store.importICalendar(data, calendarTitle: "Large")
    #expect(again.eventsAdded == 0 && again.eventsUpdated == Self.singles + 4)
    #expect(again.calendarsCreated == 0)
    let after = events(store, "2025-04-01T00:00:00Z", "2025-04-02T00:00:00Z")
    #expect(Set(after.map(\.calendarItemIdentifier)) == ids)
    #expect(
      titles(store, "2025-01-01T00:00:00Z", "2025-02-15T00:00:00Z").filter { $0.hasSuffix(")") }
        == ["Stand-up (moved)"])
  }

  /// An error in the file's last VEVENT, after thousands of rows were written: the error
  /// names its line, and the store is as it was (no calendar, no event).
  @Test func anErrorAtTheEndLeavesTheStoreAsItWas() throws {
    let fixture = try StoreFixture()
    let store = fixture.store
    let calendars = store.calendars(for: .event).count
    let text = Self.file(last: "BEGIN:VEVENT\r\nUID:broken\r\nSUMMARY:No start\r\nEND:VEVENT\r\n")
    // The BEGIN line before it, counted from 1.
    let line = try #require(text.components(separatedBy: "\r\n").firstIndex(of: "UID:broken"))
    do {
      _ = try store.importICalendar(Data(text.utf8), calendarTitle: "Large")
      Issue.record("a VEVENT without DTSTART was imported")
    } catch let error as ICalendarParseError {
      #expect(error.line == line)
      #expect(error.description.contains("DTSTART"))
    }
    #expect(store.calendars(for: .event).count == calendars)
    let other = fixture.secondStore()
    #expect(other.calendars(for: .event).count == calendars)
    #expect(!other.calendars(for: .event).contains { $0.title == "Large" })
  }

  /// Without access to events, a file that does not read is still reported as such (the
  /// file is read before its items are written), and one that reads as the missing access.
  @Test func aFileThatDoesNotReadIsReportedBeforeAMissingAccess() throws {
    let folder = try TemporaryFolder()
    try PrivacySettings(folder: folder.url).set(
      .denied, for: PrivacySettings.currentAppIdentifier, entityType: .event)
    let store = EKEventStore(folder: folder.url)
    let broken = Self.file(last: "BEGIN:VEVENT\r\nUID:broken\r\nEND:VEVENT\r\n")
    #expect(throws: ICalendarParseError.self) {
      _ = try store.importICalendar(Data(broken.utf8))
    }
    do {
      _ = try store.importICalendar(Data(Self.file().utf8))
      Issue.record("imported without access")
    } catch let error as EKError {
      #expect(error.code == .eventStoreNotAuthorized)
    }
  }

  /// An import keeps its changed pages in memory until it commits
  /// (`CalendarDatabase.largeWriteCacheSize`), and gives that memory back when it ends,
  /// whether it committed or not.
  @Test func anImportGivesItsPageCacheBack() throws {
    let fixture = try StoreFixture()
    let store = fixture.store
    let pool = try #require(store.database?.pool)
    func cacheSize() throws -> Int? {
      try pool.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA cache_size") }
    }
    let before = try cacheSize()
    #expect(before != CalendarDatabase.largeWriteCacheSize)
    _ = try store.importICalendar(Data(Self.file().utf8), calendarTitle: "Large")
    #expect(try cacheSize() == before)
    let broken = Self.file(last: "BEGIN:VEVENT\r\nUID:broken\r\nEND:VEVENT\r\n")
    #expect(throws: ICalendarParseError.self) {
      _ = try store.importICalendar(Data(broken.utf8), calendarTitle: "Large")
    }
    #expect(try cacheSize() == before)
  }

  /// Found by fuzz-import: an all-day event of no length (DURATION:P0D) was kept of no length,
  /// exported with DTEND equal to DTSTART, and read back as lasting its day. It lasts its day.
  @Test func anAllDayEventOfNoLengthLastsItsDay() throws {
    let fixture = try StoreFixture()
    let file =
      "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:zero\r\n"
      + "DTSTART:20180110\r\nDURATION:P0D\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    _ = try fixture.store.importICalendar(Data(file.utf8), calendarTitle: "Large")
    let event = try #require(
      events(fixture.store, "2018-01-09T00:00:00Z", "2018-01-12T00:00:00Z").first)
    #expect(event.isAllDay)
    let exported = try fixture.store.exportICalendar(calendars: [event.calendar])
    let other = try StoreFixture()
    _ = try other.store.importICalendar(exported, calendarTitle: "Large")
    let again = try other.store.exportICalendar(
      calendars: other.store.calendars(for: .event).filter { $0.title == "Large" })
    #expect(String(decoding: again, as: UTF8.self).contains("DTEND;VALUE=DATE:20180111"))
    #expect(
      String(decoding: exported, as: UTF8.self).components(separatedBy: "\r\n").filter {
        $0.hasPrefix("DTEND")
      }
        == String(decoding: again, as: UTF8.self).components(separatedBy: "\r\n").filter {
          $0.hasPrefix("DTEND")
        })
  }
}
