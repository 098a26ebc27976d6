import Foundation
import TestSupport
import Testing

@testable import OpenEventKit

/// Series with thousands of detached occurrences and exception dates, imported, cut, split
/// and fetched whole. An edit reads each of a series' date lists once: when it read them again
/// for every date in them, each of these tests took minutes.
@Suite struct LargeSeriesTests {
  /// Every occurrence of the series' calendar, from 2026 to 2060.
  func occurrences(_ store: EKEventStore, calendar: String) -> [EKEvent] {
    store.events(
      matching: store.predicateForEvents(
        withStart: StoreFixture.date("2025-12-01T00:00:00Z"),
        end: StoreFixture.date("2060-01-01T00:00:00Z"),
        calendars: [store.calendar(withIdentifier: calendar)!]))
  }

  /// The occurrence whose instance started on day `day`.
  func occurrence(_ store: EKEventStore, calendar: String, day: Int) throws -> EKEvent {
    let start = DailySeries.instance(day)
    return try #require(
      store.events(
        matching: store.predicateForEvents(
          withStart: start.addingTimeInterval(-86_400), end: start.addingTimeInterval(86_400),
          calendars: [store.calendar(withIdentifier: calendar)!])
      ).first { $0.occurrenceDate == start })
  }

  /// The days of the occurrences, by their instances' starts.
  func days(_ events: [EKEvent]) -> [Int] {
    events.map { DailySeries.day(of: $0.occurrenceDate) }
  }

  /// ``DailySeries/ics(days:detached:excluded:overriddenExcluded:)`` as data to import.
  static func dailySeries(
    days: Int, detached: [Int], excluded: [Int] = [], overriddenExcluded: [Int] = []
  ) -> Data {
    Data(
      DailySeries.ics(
        days: days, detached: detached, excluded: excluded, overriddenExcluded: overriddenExcluded
      ).utf8)
  }

  /// 6,000 days, the odd ones detached: 3,000 detached occurrences.
  static let oddDays = Array(stride(from: 1, to: 6_000, by: 2))

  @Test func removingFromADetachedOccurrenceOnCutsASeriesOfThousands() throws {
    let fixture = try StoreFixture()
    let summary = try fixture.store.importICalendar(
      Self.dailySeries(days: 6_000, detached: Self.oddDays))
    #expect(summary.eventsAdded == 3_001)
    let calendar = try #require(summary.eventCalendarIdentifier)
    let rows = try fixture.itemCount()

    let detached = try occurrence(fixture.store, calendar: calendar, day: 3_001)
    #expect(detached.isDetached && detached.title == "Moved 3001")
    try fixture.store.remove(detached, span: .futureEvents)

    // Days 0 to 3,000 remain, the odd ones still detached; the 1,500 detached rows after the
    // cut went with it.
    let left = occurrences(fixture.secondStore(), calendar: calendar)
    #expect(days(left) == Array(0...3_000))
    #expect(left.filter(\.isDetached).count == 1_500)
    #expect(left.allSatisfy { $0.isDetached == ($0.title != "Daily") })
    #expect(try fixture.itemCount() == rows - 1_500)
    let series = try #require(left.first { !$0.isDetached })
    #expect(series.recurrenceRules?.first?.recurrenceEnd?.occurrenceCount == 3_001)

    // And from a series' occurrence that is not detached, the same.
    try fixture.store.remove(
      try occurrence(fixture.store, calendar: calendar, day: 1_000), span: .futureEvents)
    let fewer = occurrences(fixture.secondStore(), calendar: calendar)
    #expect(days(fewer) == Array(0..<1_000))
    #expect(fewer.filter(\.isDetached).count == 500)
    #expect(try fixture.itemCount() == rows - 2_500)
  }

  @Test func splittingASeriesOfThousandsCarriesItsDetachedOccurrences() throws {
    let fixture = try StoreFixture()
    let summary = try fixture.store.importICalendar(
      Self.dailySeries(days: 6_000, detached: Self.oddDays, excluded: [4_000, 5_000]))
    let calendar = try #require(summary.eventCalendarIdentifier)
    let rows = try fixture.itemCount()

    let day3000 = try occurrence(fixture.store, calendar: calendar, day: 3_000)
    day3000.title = "Daily, new room"
    try fixture.store.save(day3000, span: .futureEvents)

    let all = occurrences(fixture.secondStore(), calendar: calendar)
    #expect(days(all) == Array(0..<6_000).filter { $0 != 4_000 && $0 != 5_000 })
    let (before, after) = (all.prefix(3_000), all.dropFirst(3_000))
    #expect(Set(before.map(\.calendarItemExternalIdentifier)) == [DailySeries.uid])
    // The detached occurrences after the split belong to the new series, as they were.
    #expect(Set(after.map(\.calendarItemExternalIdentifier)) == [day3000.eventIdentifier])
    #expect(before.filter(\.isDetached).count == 1_500)
    #expect(after.filter(\.isDetached).count == 1_500)
    #expect(after.allSatisfy { $0.isDetached == ($0.title != "Daily, new room") })
    #expect(try fixture.itemCount() == rows + 1)
  }

  @Test func importingThousandsOfOverridesBesideThousandsOfExceptionDates() throws {
    let fixture = try StoreFixture()
    // 9,000 days: those after a multiple of three detached, those before one excluded, and
    // 100 excluded ones overridden as well.
    let detached = Array(stride(from: 1, to: 9_000, by: 3))
    let excluded = Array(stride(from: 2, to: 9_000, by: 3))
    let summary = try fixture.store.importICalendar(
      Self.dailySeries(
        days: 9_000, detached: detached, excluded: excluded,
        overriddenExcluded: Array(excluded.prefix(100))))
    #expect(summary.eventsAdded == 1 + 3_000)
    let calendar = try #require(summary.eventCalendarIdentifier)

    let all = occurrences(fixture.secondStore(), calendar: calendar)
    #expect(days(all) == Array(0..<9_000).filter { $0 % 3 != 2 })
    #expect(all.filter(\.isDetached).map(\.title) == detached.map { "Moved \($0)" })

    // Importing it again updates every row in place.
    let again = try fixture.store.importICalendar(
      Self.dailySeries(
        days: 9_000, detached: detached, excluded: excluded,
        overriddenExcluded: Array(excluded.prefix(100))))
    #expect(again.eventsAdded == 0 && again.eventsUpdated == 3_001)
    #expect(occurrences(fixture.store, calendar: calendar).count == all.count)
  }
}
