import Foundation
import Testing

@testable import OpenEventKit

/// `events(matching:)` and `enumerateEvents(matching:using:)`: which occurrences a range finds.
@Suite struct EventQueryTests {
  @Test func aRangeFindsEveryEventThatOverlapsIt() throws {
    let fixture = try StoreFixture()
    try fixture.event("Before", start: "2026-03-01T08:00:00Z")
    try fixture.event("Overnight", start: "2026-03-01T22:00:00Z", minutes: 600)
    try fixture.event("Inside", start: "2026-03-02T10:00:00Z")
    try fixture.event("AtTheEnd", start: "2026-03-03T00:00:00Z")
    try fixture.event("Instant", start: "2026-03-02T00:00:00Z", minutes: 0)
    try fixture.event("Week-long", start: "2026-02-20T00:00:00Z", minutes: 60 * 24 * 14)
    #expect(
      fixture.titles("2026-03-02T00:00:00Z", "2026-03-03T00:00:00Z")
        == ["Week-long", "Overnight", "Instant", "Inside"])
  }

  /// A window looks back as far as the longest single event `meta` records; each store
  /// writes that bound only when its save goes past what it has seen committed, and never
  /// narrows it, whichever store wrote the longer event.
  @Test func aLongEventIsFoundAfterShorterOnesFromEveryStore() throws {
    let fixture = try StoreFixture()
    let other = fixture.secondStore()
    try fixture.event("Hour", start: "2026-03-01T08:00:00Z")
    try fixture.event("Fortnight", start: "2026-03-02T00:00:00Z", minutes: 60 * 24 * 14)
    // A shorter event from each store: one knows the fortnight, the other does not.
    try fixture.event("Two hours", start: "2026-03-03T08:00:00Z", minutes: 120)
    let short = EKEvent(eventStore: other)
    short.calendar = other.calendar(withIdentifier: fixture.calendar.calendarIdentifier)
    short.title = "Half hour"
    short.startDate = StoreFixture.date("2026-03-04T08:00:00Z")
    short.endDate = short.startDate.addingTimeInterval(1800)
    try other.save(short, span: .thisEvent, commit: true)
    // Longer than what the first store saw committed, written by the other one.
    let longer = EKEvent(eventStore: other)
    longer.calendar = short.calendar
    longer.title = "Month"
    longer.startDate = StoreFixture.date("2026-02-20T00:00:00Z")
    longer.endDate = longer.startDate.addingTimeInterval(30 * 86_400)
    try other.save(longer, span: .thisEvent, commit: true)
    try fixture.event("Three days", start: "2026-03-05T00:00:00Z", minutes: 60 * 24 * 3)
    for store in [fixture.store, other, fixture.secondStore()] {
      #expect(
        fixture.titles("2026-03-14T00:00:00Z", "2026-03-15T00:00:00Z", in: store)
          == ["Month", "Fortnight"])
    }
  }

  @Test func metaBoundsOnlyWiden() {
    var known = MetaBounds()
    #expect(!known.covers(longestSingle: 1) && known.covers(longestSingle: 0))
    #expect(!known.covers(alarmOffsetsFrom: -600, to: -600))
    var written = MetaBounds()
    written.longestSingle = 3600
    written.lowestAlarmOffset = -900
    written.highestAlarmOffset = -300
    known = known.widened(by: written)
    #expect(known == written)
    #expect(known.covers(longestSingle: 3600) && !known.covers(longestSingle: 3601))
    #expect(known.covers(alarmOffsetsFrom: -600, to: -300))
    #expect(!known.covers(alarmOffsetsFrom: -1200, to: -300))
    #expect(!known.covers(alarmOffsetsFrom: -600, to: 0))
    // A narrower bound seen later leaves the wider one.
    var narrower = MetaBounds()
    narrower.longestSingle = 60
    narrower.lowestAlarmOffset = -500
    narrower.highestAlarmOffset = -400
    #expect(known.widened(by: narrower) == known)
    #expect(narrower.widened(by: known) == known)
    // An offset past either end widens that end.
    narrower.highestAlarmOffset = 60
    #expect(known.widened(by: narrower).highestAlarmOffset == 60)
    #expect(known.widened(by: narrower).lowestAlarmOffset == -900)
  }

  @Test func eachOccurrenceOfASeriesIsItsOwnEvent() throws {
    let fixture = try StoreFixture()
    let rule = EKRecurrenceRule(
      recurrenceWith: .weekly, interval: 1,
      daysOfTheWeek: [EKRecurrenceDayOfWeek(.monday), EKRecurrenceDayOfWeek(.thursday)],
      daysOfTheMonth: nil, monthsOfTheYear: nil, weeksOfTheYear: nil, daysOfTheYear: nil,
      setPositions: nil, end: EKRecurrenceEnd(occurrenceCount: 6))
    let series = try fixture.event("Gym", start: "2026-03-02T18:00:00Z", rule: rule)
    let predicate = fixture.store.predicateForEvents(
      withStart: StoreFixture.date("2026-03-01T00:00:00Z"),
      end: StoreFixture.date("2026-04-01T00:00:00Z"), calendars: [fixture.calendar])
    let events = fixture.secondStore().events(matching: predicate)
    let starts = events.map { ISO8601DateFormatter().string(from: $0.startDate) }
    #expect(
      starts == [
        "2026-03-02T18:00:00Z", "2026-03-05T18:00:00Z", "2026-03-09T18:00:00Z",
        "2026-03-12T18:00:00Z", "2026-03-16T18:00:00Z", "2026-03-19T18:00:00Z",
      ])
    #expect(events.allSatisfy { $0.eventIdentifier == series.eventIdentifier })
    #expect(events.allSatisfy { $0.occurrenceDate == $0.startDate && !$0.isDetached })
    #expect(events.allSatisfy { $0.endDate.timeIntervalSince($0.startDate) == 3600 })
    // Occurrences sort with compareStartDate(with:), as EventKit code does.
    let shuffled = events.reversed().sorted { $0.compareStartDate(with: $1) == .orderedAscending }
    #expect(shuffled.map(\.startDate) == events.map(\.startDate))
  }

  @Test func aZonedSeriesKeepsItsWallClockAcrossADSTChange() throws {
    let fixture = try StoreFixture()
    let newYork = TimeZone(identifier: "America/New_York")!
    let event = EKEvent(eventStore: fixture.store)
    event.calendar = fixture.calendar
    event.title = "Standup"
    event.timeZone = newYork
    event.startDate = StoreFixture.date("2026-03-02T14:00:00Z")  // 09:00 EST
    event.endDate = event.startDate.addingTimeInterval(900)
    event.addRecurrenceRule(
      EKRecurrenceRule(
        recurrenceWith: .weekly, interval: 1, end: EKRecurrenceEnd(occurrenceCount: 3)))
    try fixture.store.save(event, span: .thisEvent)
    let predicate = fixture.store.predicateForEvents(
      withStart: StoreFixture.date("2026-03-01T00:00:00Z"),
      end: StoreFixture.date("2026-04-01T00:00:00Z"), calendars: nil)
    let events = fixture.store.events(matching: predicate)
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = newYork
    #expect(events.map { calendar.component(.hour, from: $0.startDate) } == [9, 9, 9])
    // 2026-03-08 is the change to EDT: the UTC hour moves from 14 to 13.
    #expect(
      events.map { ISO8601DateFormatter().string(from: $0.startDate) } == [
        "2026-03-02T14:00:00Z", "2026-03-09T13:00:00Z", "2026-03-16T13:00:00Z",
      ])
    #expect(events.allSatisfy { $0.timeZone == newYork })
  }

  @Test func allDayEventsCoverWholeDaysOfTheCurrentZone() throws {
    let fixture = try StoreFixture()
    let calendar = Calendar.current
    let day = calendar.date(from: DateComponents(year: 2026, month: 7, day: 14))!
    let event = EKEvent(eventStore: fixture.store)
    event.calendar = fixture.calendar
    event.title = "Holiday"
    event.isAllDay = true
    event.startDate = day.addingTimeInterval(3600 * 10)
    event.endDate = event.startDate
    try fixture.store.save(event, span: .thisEvent)
    #expect(event.startDate == day)
    #expect(
      event.endDate == calendar.date(byAdding: .day, value: 1, to: day)!.addingTimeInterval(-1))
    #expect(event.timeZone == nil)
    let fetched = try #require(fixture.secondStore().event(withIdentifier: event.eventIdentifier))
    #expect(fetched.isAllDay && fetched.startDate == day && fetched.endDate == event.endDate)
    func count(from start: Date, to end: Date) -> Int {
      fixture.store.events(
        matching: fixture.store.predicateForEvents(withStart: start, end: end, calendars: nil)
      ).filter { $0.title == "Holiday" }.count
    }
    #expect(count(from: day.addingTimeInterval(-3600), to: day.addingTimeInterval(1)) == 1)
    #expect(count(from: day.addingTimeInterval(86_399), to: day.addingTimeInterval(90_000)) == 1)
    #expect(count(from: day.addingTimeInterval(86_400), to: day.addingTimeInterval(90_000)) == 0)
    #expect(count(from: day.addingTimeInterval(-7200), to: day) == 0)
  }

  @Test func floatingEventsAreReadOnTheCurrentClock() throws {
    let fixture = try StoreFixture()
    let start = Calendar.current.date(
      from: DateComponents(year: 2026, month: 5, day: 4, hour: 9, minute: 30))!
    let event = EKEvent(eventStore: fixture.store)
    event.calendar = fixture.calendar
    event.title = "Take pills"
    event.timeZone = nil
    event.startDate = start
    event.endDate = start.addingTimeInterval(300)
    event.addRecurrenceRule(
      EKRecurrenceRule(
        recurrenceWith: .daily, interval: 1, end: EKRecurrenceEnd(occurrenceCount: 3)))
    try fixture.store.save(event, span: .thisEvent)
    let record = try #require(event.record)
    #expect(record.timeZone == nil && record.startReading == record.startKey)
    let events = fixture.store.events(
      matching: fixture.store.predicateForEvents(
        withStart: start, end: start.addingTimeInterval(3 * 86_400), calendars: nil))
    #expect(events.count == 3)
    #expect(events.allSatisfy { $0.timeZone == nil })
    #expect(
      events.map { Calendar.current.dateComponents([.hour, .minute], from: $0.startDate) }
        .allSatisfy { $0.hour == 9 && $0.minute == 30 })
  }

  @Test func aSeriesKeepsItsValuesOnlyForTheClockTheyWereReadOn() throws {
    // A fetch reads a series' values once and keeps them with the row; a floating series read
    // on another clock (the person travelled) must not be shown the first clock's times.
    let fixture = try StoreFixture()
    let event = EKEvent(eventStore: fixture.store)
    event.calendar = fixture.calendar
    event.title = "Take pills"
    event.timeZone = nil
    event.startDate = StoreFixture.date("2026-05-04T09:30:00Z")
    event.endDate = event.startDate.addingTimeInterval(300)
    event.addRecurrenceRule(EKRecurrenceRule(recurrenceWith: .daily, interval: 1, end: nil))
    try fixture.store.save(event, span: .thisEvent)
    let row = StoredRecord(try #require(event.record))
    let reading = try #require(row.record.startReading)
    let utc = WallClock(zone: .utc)
    let tokyo = WallClock(timeZone: "Asia/Tokyo")
    #expect(row.values(current: utc).startDate == utc.date(reading))
    #expect(row.values(current: tokyo).startDate == tokyo.date(reading))
    #expect(row.values(current: utc).startDate == utc.date(reading))
    #expect(utc.date(reading) != tokyo.date(reading))
  }

  @Test func aCalendarListNarrowsTheSearch() throws {
    let fixture = try StoreFixture()
    try fixture.event("Mine", start: "2026-01-01T10:00:00Z")
    let holidays = try #require(
      fixture.store.calendars(for: .event).first { !$0.allowsContentModifications })
    func titles(_ calendars: [EKCalendar]?) -> [String] {
      let predicate = fixture.store.predicateForEvents(
        withStart: StoreFixture.date("2026-01-01T00:00:00Z"),
        end: StoreFixture.date("2026-01-02T00:00:00Z"), calendars: calendars)
      return fixture.store.events(matching: predicate).map(\.title)
    }
    #expect(titles(nil).sorted() == ["Mine", "New Year's Day"])
    #expect(titles([holidays]) == ["New Year's Day"])
    #expect(titles([fixture.calendar]) == ["Mine"])
    #expect(titles([]) == [])
  }

  @Test func fiftyYearsOfAnUnboundedSeriesAreFoundAndEnumerated() throws {
    let fixture = try StoreFixture()
    let rule = EKRecurrenceRule(recurrenceWith: .monthly, interval: 1, end: nil)
    let series = try fixture.event("Rent", start: "2000-01-01T09:00:00Z", rule: rule)
    let predicate = fixture.store.predicateForEvents(
      withStart: StoreFixture.date("2026-01-01T00:00:00Z"),
      end: StoreFixture.date("2076-01-01T00:00:00Z"), calendars: [fixture.calendar])
    let all = fixture.store.events(matching: predicate)
    #expect(all.count == 600)
    #expect(all.allSatisfy { $0.eventIdentifier == series.eventIdentifier })
    var enumerated: [Date] = []
    fixture.store.enumerateEvents(matching: predicate) { event, _ in
      enumerated.append(event.startDate)
    }
    #expect(enumerated == all.map(\.startDate))
    var firstThree: [Date] = []
    fixture.store.enumerateEvents(matching: predicate) { event, stop in
      firstThree.append(event.startDate)
      if firstThree.count == 3 { stop.pointee = true }
    }
    #expect(firstThree == Array(all.prefix(3)).map(\.startDate))
  }

  @Test func enumerationReportsAnEventSpanningItsChunksOnce() throws {
    let fixture = try StoreFixture()
    try fixture.event("Sabbatical", start: "2026-01-10T00:00:00Z", minutes: 60 * 24 * 120)
    try fixture.event("Later", start: "2026-03-15T00:00:00Z")
    let predicate = fixture.store.predicateForEvents(
      withStart: StoreFixture.date("2026-02-01T00:00:00Z"),
      end: StoreFixture.date("2026-12-01T00:00:00Z"), calendars: [fixture.calendar])
    var titles: [String] = []
    fixture.store.enumerateEvents(matching: predicate) { event, _ in titles.append(event.title) }
    #expect(titles == ["Sabbatical", "Later"])
  }

  @Test func exceptionDatesAndRDatesShapeTheSeries() throws {
    let fixture = try StoreFixture()
    let rule = EKRecurrenceRule(
      recurrenceWith: .daily, interval: 1, end: EKRecurrenceEnd(occurrenceCount: 3))
    let series = try fixture.event("Class", start: "2026-03-02T10:00:00Z", rule: rule)
    // Exceptions come from .ics import (issue #8) and span edits (issue #5); written here as
    // the store keeps them.
    let database = try CalendarDatabase(location: StoreLocation(folder: fixture.folder.url))
    try database.pool.write { db in
      try db.execute(
        sql: "UPDATE item SET exceptionDates = ?, recurrenceDates = ? WHERE id = ?",
        arguments: [
          "20260302T100000Z", "20260310T100000Z", series.calendarItemIdentifier,
        ])
    }
    let starts = fixture.store.events(
      matching: fixture.store.predicateForEvents(
        withStart: StoreFixture.date("2026-03-01T00:00:00Z"),
        end: StoreFixture.date("2026-04-01T00:00:00Z"), calendars: [fixture.calendar])
    ).map { ISO8601DateFormatter().string(from: $0.startDate) }
    #expect(starts == ["2026-03-03T10:00:00Z", "2026-03-04T10:00:00Z", "2026-03-10T10:00:00Z"])
    // The first occurrence is now the second instance.
    let first = fixture.store.event(withIdentifier: series.eventIdentifier)
    #expect(first?.startDate == StoreFixture.date("2026-03-03T10:00:00Z"))
  }

  @Test func occurrencesAreOrderedByStartThenByPosition() {
    let starts = [30, -5, 30, 7, -62_135_596_800, 253_402_300_799, 7]
    let expected = [4, 1, 3, 6, 0, 2, 5]
    #expect(EventQuery.startOrder(starts) == expected)
    // Starts outside what a reading can be take the slower sort, to the same order.
    #expect(EventQuery.startOrder(starts + [Int.max, Int.min]) == [8] + expected + [7])
    #expect(EventQuery.startOrder([]) == [])
  }

  /// Past `radixThreshold` starts the order comes from a radix sort: the same order, for
  /// a month's starts with many equal ones and for starts across years 1 to 9999.
  @Test(arguments: [2_629_800, 315_537_897_599])
  func manyOccurrencesAreOrderedByStartThenByPosition(span: Int) {
    var generator = SystemRandomNumberGenerator()
    for count in [EventQuery.radixThreshold, 5_000, 70_000] {
      let starts = (0..<count).map { _ in
        // Half the starts on the hour, so that equal starts are common.
        let start = Int.random(in: -62_135_596_800..<(-62_135_596_800 + span), using: &generator)
        return Bool.random(using: &generator) ? start : start / 3600 * 3600
      }
      let expected = starts.indices.sorted { (starts[$0], $0) < (starts[$1], $1) }
      #expect(EventQuery.startOrder(starts) == expected)
    }
  }

  @Test func aSeriesChangedElsewhereIsSeenByTheNextQuery() throws {
    // Series rows are kept between queries; a commit by any other connection must show at once.
    let fixture = try StoreFixture()
    let series = try fixture.event(
      "Yoga", start: "2026-03-02T07:00:00Z",
      rule: EKRecurrenceRule(recurrenceWith: .daily, interval: 1, end: nil))
    let window = ("2026-03-02T00:00:00Z", "2026-03-05T00:00:00Z")
    #expect(fixture.titles(window.0, window.1) == ["Yoga", "Yoga", "Yoga"])
    let other = fixture.secondStore()
    let copy = try #require(other.event(withIdentifier: series.eventIdentifier))
    copy.title = "Pilates"
    try other.save(copy, span: .futureEvents)
    #expect(fixture.titles(window.0, window.1) == ["Pilates", "Pilates", "Pilates"])
    // A change written by another program straight into the file shows too.
    let database = try CalendarDatabase(location: StoreLocation(folder: fixture.folder.url))
    try database.pool.write { db in
      try db.execute(
        sql: "UPDATE item SET title = 'Stretching' WHERE id = ?",
        arguments: [series.eventIdentifier])
    }
    #expect(fixture.titles(window.0, window.1) == ["Stretching", "Stretching", "Stretching"])
    // Each series row keeps its prepared expansion: a changed rule is a new row, expanded anew.
    try database.pool.write { db in
      try db.execute(
        sql: "UPDATE item SET recurrenceRules = 'FREQ=DAILY;INTERVAL=2' WHERE id = ?",
        arguments: [series.eventIdentifier])
    }
    #expect(fixture.titles(window.0, window.1) == ["Stretching", "Stretching"])
    // And this store's own commits.
    let mine = try #require(fixture.store.event(withIdentifier: series.eventIdentifier))
    try fixture.store.remove(mine, span: .futureEvents)
    #expect(fixture.titles(window.0, window.1).isEmpty)
  }

  /// A yearly series is prepared only for windows that can hold its date (`SeriesReach`):
  /// each month, and each chunk of an enumeration, finds what one window over five years
  /// finds — at the edges of months in zones 25 hours apart, on a leap day, every other
  /// year, all day, floating, and lasting into the next month.
  @Test func yearlySeriesAreFoundInTheirMonthsAndOnlyThere() throws {
    let fixture = try StoreFixture()
    func yearly(
      _ title: String, _ start: String, zone: String?, minutes: Int = 60, allDay: Bool = false,
      interval: Int = 1
    ) throws {
      let event = EKEvent(eventStore: fixture.store)
      event.title = title
      event.calendar = fixture.calendar
      event.timeZone = zone.flatMap(TimeZone.init(identifier:))
      event.isAllDay = allDay
      event.startDate = StoreFixture.date(start)
      event.endDate = event.startDate.addingTimeInterval(TimeInterval(minutes * 60))
      event.recurrenceRules = [
        EKRecurrenceRule(recurrenceWith: .yearly, interval: interval, end: nil)
      ]
      try fixture.store.save(event, span: .thisEvent)
    }
    try yearly("Kiritimati new year", "2023-12-31T10:30:00Z", zone: "Pacific/Kiritimati")
    try yearly("Pago Pago new year's eve", "2024-01-01T10:30:00Z", zone: "Pacific/Pago_Pago")
    try yearly("Leap day", "2024-02-29T12:00:00Z", zone: "UTC")
    try yearly("Every other summer", "2024-06-15T10:00:00Z", zone: "Europe/Paris", interval: 2)
    try yearly("Long weekend", "2024-03-30T08:00:00Z", zone: "America/New_York", minutes: 4_320)
    try yearly("Birthday", "2024-03-31T12:00:00Z", zone: nil, allDay: true)
    try yearly("Floating", "2024-08-31T23:00:00Z", zone: nil, minutes: 30)

    let store = fixture.secondStore()
    var utc = Calendar(identifier: .gregorian)
    utc.timeZone = TimeZone(identifier: "UTC")!
    let first = StoreFixture.date("2023-12-01T00:00:00Z")
    let last = StoreFixture.date("2029-01-01T00:00:00Z")
    func text(_ event: EKEvent) -> String {
      "\(event.title ?? "") \(ISO8601DateFormatter().string(from: event.startDate))"
    }
    let all = store.events(
      matching: store.predicateForEvents(withStart: first, end: last, calendars: nil))
    var month = first
    var found = 0
    while month < last {
      let next = utc.date(byAdding: .month, value: 1, to: month)!
      let expected = all.filter {
        $0.startDate < next && ($0.endDate > month || $0.startDate >= month)
      }
      let got = store.events(
        matching: store.predicateForEvents(withStart: month, end: next, calendars: nil))
      #expect(got.map(text).sorted() == expected.map(text).sorted(), "\(month)")
      found += got.count
      month = next
    }
    // 2023–2028 at Kiritimati, 2024–2028 for the other yearly ones, 2 leap days, 3 summers,
    // and a new store's all-day holidays (Christmas 2023–2028, New Year and May Day
    // 2024–2028); the long weekend is in two months each year.
    #expect(all.count == 6 + 5 + 2 + 3 + 5 + 5 + 5 + 16)
    #expect(found == all.count + 5)
    // A window whose end comes months before its start finds nothing, as before.
    #expect(
      store.events(
        matching: store.predicateForEvents(
          withStart: StoreFixture.date("2026-06-01T00:00:00Z"),
          end: StoreFixture.date("2026-03-01T00:00:00Z"), calendars: nil)
      ).isEmpty)
    var enumerated: [String] = []
    store.enumerateEvents(
      matching: store.predicateForEvents(withStart: first, end: last, calendars: nil)
    ) { event, _ in enumerated.append(text(event)) }
    #expect(enumerated.sorted() == all.map(text).sorted())
  }

  /// After a commit the series rows are read again: a row the commit did not change keeps the
  /// object holding what queries made of it (its prepared expansion), and a changed one is
  /// prepared anew and shows its new rule.
  @Test func aSeriesAnotherStoreDidNotChangeKeepsItsPreparation() throws {
    let fixture = try StoreFixture()
    let gym = try fixture.event(
      "Gym", start: "2026-03-02T18:00:00Z",
      rule: EKRecurrenceRule(recurrenceWith: .weekly, interval: 1, end: nil))
    try fixture.event(
      "Choir", start: "2026-03-03T19:00:00Z",
      rule: EKRecurrenceRule(recurrenceWith: .weekly, interval: 1, end: nil))
    let store = fixture.secondStore()
    func count(_ title: String) -> Int {
      fixture.titles("2026-03-01T00:00:00Z", "2026-04-01T00:00:00Z", in: store)
        .filter { $0 == title }.count
    }
    func seriesRows() -> [String: StoredRecord] {
      let rows = store.read { db in try store.seriesCache.seriesRows(db) } ?? nil
      return Dictionary(uniqueKeysWithValues: (rows ?? []).map { ($0.record.title ?? "", $0) })
    }
    #expect(count("Gym") == 5 && count("Choir") == 5)
    let before = seriesRows()

    gym.recurrenceRules = [EKRecurrenceRule(recurrenceWith: .daily, interval: 1, end: nil)]
    try fixture.store.save(gym, span: .futureEvents)
    #expect(count("Gym") == 30 && count("Choir") == 5)
    let after = seriesRows()
    let choir = try #require(before["Choir"])
    #expect(after["Choir"] === choir)
    #expect(after["Gym"] !== before["Gym"])
    #expect(after["Gym"]?.record.title == "Gym")
  }
}
