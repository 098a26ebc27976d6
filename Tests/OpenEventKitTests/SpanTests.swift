import Foundation
import Testing

@testable import OpenEventKit

/// Saving and removing occurrences of repeating events with `.thisEvent` and `.futureEvents`,
/// checked through fetches over the whole range.
@Suite struct SpanTests {
  /// One occurrence as a fetch shows it.
  struct Seen: Equatable, CustomStringConvertible {
    var title: String
    var start: String
    var detached: Bool
    var description: String { "\(start) \(title)\(detached ? " (detached)" : "")" }
  }

  static let summer = ("2026-06-01T00:00:00Z", "2026-12-01T00:00:00Z")

  func occurrences(_ store: EKEventStore) -> [EKEvent] {
    store.events(
      matching: store.predicateForEvents(
        withStart: StoreFixture.date(SpanTests.summer.0),
        end: StoreFixture.date(SpanTests.summer.1), calendars: [store.defaultCalendarForNewEvents!])
    )
  }

  func seen(_ store: EKEventStore) -> [Seen] {
    occurrences(store).map {
      Seen(
        title: $0.title, start: ISO8601DateFormatter().string(from: $0.startDate),
        detached: $0.isDetached)
    }
  }

  /// The occurrence whose instance started at `original`.
  func occurrence(_ store: EKEventStore, _ original: String) throws -> EKEvent {
    try #require(occurrences(store).first { $0.occurrenceDate == StoreFixture.date(original) })
  }

  /// A weekly meeting at 11:00 UTC from Wednesday 1 July 2026, ten times.
  func weeklyMeeting(_ fixture: StoreFixture, count: Int = 10) throws -> EKEvent {
    try fixture.event(
      "Meeting", start: "2026-07-01T11:00:00Z",
      rule: EKRecurrenceRule(
        recurrenceWith: .weekly, interval: 1, end: EKRecurrenceEnd(occurrenceCount: count)))
  }

  let weeks = [
    "2026-07-01", "2026-07-08", "2026-07-15", "2026-07-22", "2026-07-29", "2026-08-05",
    "2026-08-12", "2026-08-19", "2026-08-26", "2026-09-02",
  ]

  func meeting(
    _ day: String, _ time: String = "11:00", title: String = "Meeting", detached: Bool = false
  )
    -> Seen
  {
    Seen(title: title, start: "\(day)T\(time):00Z", detached: detached)
  }

  /// The seeds' example: the meeting of August 5th moved from 11:00 to 14:00, and saved.
  func moveAugust5ToTwoPM(_ fixture: StoreFixture, span: EKSpan) throws -> EKEvent {
    let august5 = try occurrence(fixture.store, "2026-08-05T11:00:00Z")
    august5.startDate = StoreFixture.date("2026-08-05T14:00:00Z")
    august5.endDate = StoreFixture.date("2026-08-05T15:00:00Z")
    try fixture.store.save(august5, span: span)
    return august5
  }

  // MARK: .thisEvent

  @Test func savingOneOccurrenceDetachesIt() throws {
    let fixture = try StoreFixture()
    let series = try weeklyMeeting(fixture)
    let august5 = try moveAugust5ToTwoPM(fixture, span: .thisEvent)
    #expect(august5.isDetached)
    #expect(august5.eventIdentifier != series.eventIdentifier)
    #expect(august5.occurrenceDate == StoreFixture.date("2026-08-05T11:00:00Z"))

    let other = fixture.secondStore()
    var expected = weeks.map { meeting($0) }
    expected[5] = meeting("2026-08-05", "14:00", detached: true)
    #expect(seen(other) == expected)
    let fetched = try occurrence(other, "2026-08-05T11:00:00Z")
    #expect(fetched.eventIdentifier == august5.eventIdentifier && fetched.isDetached)
    #expect(
      occurrences(other).filter { !$0.isDetached }.allSatisfy {
        $0.eventIdentifier == series.eventIdentifier
      })
    // Its identifier finds it; the series' identifier still finds the first occurrence.
    #expect(other.event(withIdentifier: august5.eventIdentifier)?.isDetached == true)
    #expect(
      other.event(withIdentifier: series.eventIdentifier)?.startDate
        == StoreFixture.date("2026-07-01T11:00:00Z"))

    // Saved again with .thisEvent, it changes in place.
    fetched.title = "Moved meeting"
    try other.save(fetched, span: .thisEvent)
    #expect(fetched.eventIdentifier == august5.eventIdentifier)
    expected[5].title = "Moved meeting"
    #expect(seen(fixture.store) == expected)
  }

  @Test func removingADetachedMeetingsSeriesFromItsFirstDateRemovesEverything() throws {
    let fixture = try StoreFixture()
    let series = try weeklyMeeting(fixture)
    let august5 = try moveAugust5ToTwoPM(fixture, span: .thisEvent)
    let first = try occurrence(fixture.store, "2026-07-01T11:00:00Z")
    try fixture.store.remove(first, span: .futureEvents)
    #expect(seen(fixture.secondStore()).isEmpty)
    #expect(fixture.store.event(withIdentifier: series.eventIdentifier) == nil)
    #expect(fixture.store.event(withIdentifier: august5.eventIdentifier) == nil)
  }

  @Test func removingOneOccurrenceExcludesIt() throws {
    let fixture = try StoreFixture()
    _ = try weeklyMeeting(fixture)
    try fixture.store.remove(
      try occurrence(fixture.store, "2026-07-15T11:00:00Z"), span: .thisEvent)
    // A detached occurrence removed with .thisEvent goes with its instance.
    let august5 = try occurrence(fixture.store, "2026-08-05T11:00:00Z")
    august5.title = "Special"
    try fixture.store.save(august5, span: .thisEvent)
    try fixture.store.remove(
      try occurrence(fixture.store, "2026-08-05T11:00:00Z"), span: .thisEvent)
    let expected = weeks.filter { $0 != "2026-07-15" && $0 != "2026-08-05" }.map { meeting($0) }
    #expect(seen(fixture.secondStore()) == expected)
    // Removing the first occurrence alone leaves the rest, and the series starts later.
    let first = try occurrence(fixture.store, "2026-07-01T11:00:00Z")
    try fixture.store.remove(first, span: .thisEvent)
    #expect(seen(fixture.store) == Array(expected.dropFirst()))
    #expect(
      fixture.store.event(withIdentifier: first.eventIdentifier)?.startDate
        == StoreFixture.date("2026-07-08T11:00:00Z"))
  }

  @Test func changingRulesForOneOccurrenceIsAnInvalidSpan() throws {
    let fixture = try StoreFixture()
    _ = try weeklyMeeting(fixture)
    let july8 = try occurrence(fixture.store, "2026-07-08T11:00:00Z")
    july8.recurrenceRules = [EKRecurrenceRule(recurrenceWith: .daily, interval: 1, end: nil)]
    let before = seen(fixture.store)
    expectEKError(.invalidSpan) { try fixture.store.save(july8, span: .thisEvent) }
    #expect(seen(fixture.secondStore()) == before)
  }

  /// Another store moves the whole series a day earlier after an object of one occurrence was
  /// fetched: removing through that object is refused (it cut the series between two
  /// occurrences, from the next one on, or with `.thisEvent` removed nothing, without a word),
  /// and changes nothing. From before the first occurrence, `.futureEvents` is still the
  /// whole series.
  @Test func aRemovalThroughAnObjectFetchedBeforeTheSeriesMovedIsRefused() throws {
    let fixture = try StoreFixture()
    _ = try weeklyMeeting(fixture)
    let stale = try occurrence(fixture.store, "2026-07-15T11:00:00Z")
    let staleFirst = try occurrence(fixture.store, "2026-07-01T11:00:00Z")
    let other = fixture.secondStore()
    let first = try occurrence(other, "2026-07-01T11:00:00Z")
    first.startDate = StoreFixture.date("2026-06-30T11:00:00Z")
    first.endDate = StoreFixture.date("2026-06-30T12:00:00Z")
    try other.save(first, span: .futureEvents)
    let moved = seen(fixture.secondStore())
    #expect(moved.count == 10 && moved.first?.start == "2026-06-30T11:00:00Z", "\(moved)")
    for (object, span) in [
      (stale, EKSpan.futureEvents), (stale, .thisEvent), (staleFirst, .thisEvent),
    ] {
      expectEKError(.internalFailure) { try fixture.store.remove(object, span: span) }
      #expect(seen(fixture.secondStore()) == moved)
    }
    // Moved later instead, past the stale first occurrence: from before every occurrence.
    let again = try occurrence(other, "2026-06-30T11:00:00Z")
    again.startDate = StoreFixture.date("2026-07-03T11:00:00Z")
    again.endDate = StoreFixture.date("2026-07-03T12:00:00Z")
    try other.save(again, span: .futureEvents)
    try fixture.store.remove(staleFirst, span: .futureEvents)
    #expect(seen(fixture.secondStore()).isEmpty)
  }

  /// The same, staged before the move and committed after: the commit is refused, and writes
  /// nothing (it cut the series between two occurrences).
  @Test func aRemovalStagedBeforeTheSeriesMovedIsRefusedAtCommit() throws {
    let fixture = try StoreFixture()
    _ = try weeklyMeeting(fixture)
    for span in [EKSpan.futureEvents, .thisEvent] {
      let store = fixture.secondStore()
      let third = try #require(occurrences(store).dropFirst(2).first)
      try store.remove(third, span: span, commit: false)
      let other = fixture.secondStore()
      let first = try #require(occurrences(other).first)
      first.startDate = first.startDate.addingTimeInterval(-86_400)
      first.endDate = first.endDate.addingTimeInterval(-86_400)
      try other.save(first, span: .futureEvents)
      let moved = seen(fixture.secondStore())
      #expect(moved.count == 10, "\(moved)")
      expectEKError(.internalFailure) { try store.commit() }
      #expect(seen(fixture.secondStore()) == moved)
    }
  }

  /// An occurrence does not move to another calendar alone: saved with `.thisEvent` it is
  /// refused (it was saved without moving, and without a word); `.futureEvents` moves it and
  /// the later ones.
  @Test func movingOneOccurrenceToAnotherCalendarIsAnInvalidSpan() throws {
    let fixture = try StoreFixture()
    _ = try weeklyMeeting(fixture)
    let other = EKCalendar(for: .event, eventStore: fixture.store)
    other.title = "Other"
    other.source = fixture.store.sources.first { $0.sourceType == .local }
    try fixture.store.saveCalendar(other, commit: true)
    let july8 = try occurrence(fixture.store, "2026-07-08T11:00:00Z")
    july8.calendar = other
    expectEKError(.invalidSpan) { try fixture.store.save(july8, span: .thisEvent) }
    #expect(seen(fixture.secondStore()) == weeks.map { meeting($0) })
    // Detached first, then moved alone: refused too.
    let july15 = try occurrence(fixture.store, "2026-07-15T11:00:00Z")
    july15.title = "Special"
    try fixture.store.save(july15, span: .thisEvent)
    let special = try occurrence(fixture.store, "2026-07-15T11:00:00Z")
    special.calendar = other
    expectEKError(.invalidSpan) { try fixture.store.save(special, span: .thisEvent) }
    // With the later ones, it moves.
    let august5 = try occurrence(fixture.store, "2026-08-05T11:00:00Z")
    august5.calendar = other
    try fixture.store.save(august5, span: .futureEvents)
    let moved = fixture.secondStore().events(
      matching: fixture.store.predicateForEvents(
        withStart: StoreFixture.date(SpanTests.summer.0),
        end: StoreFixture.date(SpanTests.summer.1), calendars: [other]))
    #expect(moved.count == 5)
  }

  @Test func aDetachedOccurrenceCannotLandOnAnother() throws {
    let fixture = try StoreFixture()
    _ = try weeklyMeeting(fixture)
    let july8 = try occurrence(fixture.store, "2026-07-08T11:00:00Z")
    july8.startDate = StoreFixture.date("2026-07-15T11:00:00Z")
    july8.endDate = StoreFixture.date("2026-07-15T12:00:00Z")
    expectEKError(.startDateCollidesWithOtherOccurrence) {
      try fixture.store.save(july8, span: .thisEvent)
    }
    #expect(seen(fixture.secondStore()) == weeks.map { meeting($0) })
    // Once July 15th has moved away, its slot is free.
    let july15 = try occurrence(fixture.store, "2026-07-15T11:00:00Z")
    july15.startDate = StoreFixture.date("2026-07-16T11:00:00Z")
    july15.endDate = StoreFixture.date("2026-07-16T12:00:00Z")
    try fixture.store.save(july15, span: .thisEvent)
    try fixture.store.save(july8, span: .thisEvent)
    #expect(occurrences(fixture.store).filter(\.isDetached).count == 2)
  }

  // MARK: .futureEvents

  @Test func savingForTheFutureSplitsTheSeries() throws {
    let fixture = try StoreFixture()
    let series = try weeklyMeeting(fixture)
    let august5 = try moveAugust5ToTwoPM(fixture, span: .futureEvents)
    #expect(august5.eventIdentifier != series.eventIdentifier && !august5.isDetached)

    let other = fixture.secondStore()
    let expected =
      weeks.prefix(5).map { meeting($0) } + weeks.dropFirst(5).map { meeting($0, "14:00") }
    #expect(seen(other) == expected)
    let events = occurrences(other)
    #expect(events.prefix(5).allSatisfy { $0.eventIdentifier == series.eventIdentifier })
    #expect(events.dropFirst(5).allSatisfy { $0.eventIdentifier == august5.eventIdentifier })
    // COUNT=10 became 5 before the split and the 5 that remained after it.
    let original = try #require(other.event(withIdentifier: series.eventIdentifier))
    #expect(original.recurrenceRules?.first?.recurrenceEnd?.occurrenceCount == 5)
    let split = try #require(other.event(withIdentifier: august5.eventIdentifier))
    #expect(split.recurrenceRules?.first?.recurrenceEnd?.occurrenceCount == 5)

    // Removing the original from its first date leaves the new series.
    try other.remove(original, span: .futureEvents)
    #expect(seen(fixture.store) == weeks.dropFirst(5).map { meeting($0, "14:00") })
  }

  @Test func aSplitCarriesDetachedAndRemovedInstancesAfterIt() throws {
    let fixture = try StoreFixture()
    _ = try weeklyMeeting(fixture)
    let july22 = try occurrence(fixture.store, "2026-07-22T11:00:00Z")
    july22.title = "Before the split"
    try fixture.store.save(july22, span: .thisEvent)
    let august19 = try occurrence(fixture.store, "2026-08-19T11:00:00Z")
    august19.title = "Guest speaker"
    try fixture.store.save(august19, span: .thisEvent)
    try fixture.store.remove(
      try occurrence(fixture.store, "2026-08-26T11:00:00Z"), span: .thisEvent)

    let august5 = try occurrence(fixture.store, "2026-08-05T11:00:00Z")
    august5.title = "Meeting (new room)"
    august5.startDate = StoreFixture.date("2026-08-05T14:00:00Z")
    august5.endDate = StoreFixture.date("2026-08-05T15:00:00Z")
    try fixture.store.save(august5, span: .futureEvents)

    let expected = [
      meeting("2026-07-01"), meeting("2026-07-08"), meeting("2026-07-15"),
      meeting("2026-07-22", title: "Before the split", detached: true), meeting("2026-07-29"),
      meeting("2026-08-05", "14:00", title: "Meeting (new room)"),
      meeting("2026-08-12", "14:00", title: "Meeting (new room)"),
      meeting("2026-08-19", "11:00", title: "Guest speaker", detached: true),
      meeting("2026-09-02", "14:00", title: "Meeting (new room)"),
    ]
    #expect(seen(fixture.secondStore()) == expected)
    // The detached occurrence now belongs to the new series: its instance is the 14:00 one.
    let guest = try #require(occurrences(fixture.store).first { $0.title == "Guest speaker" })
    #expect(guest.occurrenceDate == StoreFixture.date("2026-08-19T14:00:00Z"))
    // And removing the new series from its first date takes it along.
    try fixture.store.remove(
      try occurrence(fixture.store, "2026-08-05T14:00:00Z"), span: .futureEvents)
    #expect(seen(fixture.store) == Array(expected.prefix(5)))
  }

  @Test func savingTheFirstOccurrenceForTheFutureChangesTheWholeSeries() throws {
    let fixture = try StoreFixture()
    let series = try weeklyMeeting(fixture, count: 4)
    let july15 = try occurrence(fixture.store, "2026-07-15T11:00:00Z")
    july15.title = "Kept apart"
    try fixture.store.save(july15, span: .thisEvent)
    let first = try occurrence(fixture.store, "2026-07-01T11:00:00Z")
    first.title = "Weekly sync"
    first.startDate = StoreFixture.date("2026-07-01T09:00:00Z")
    first.endDate = StoreFixture.date("2026-07-01T10:00:00Z")
    try fixture.store.save(first, span: .futureEvents)
    #expect(first.eventIdentifier == series.eventIdentifier)
    #expect(
      seen(fixture.secondStore()) == [
        meeting("2026-07-01", "09:00", title: "Weekly sync"),
        meeting("2026-07-08", "09:00", title: "Weekly sync"),
        meeting("2026-07-15", "11:00", title: "Kept apart", detached: true),
        meeting("2026-07-22", "09:00", title: "Weekly sync"),
      ])
  }

  /// Another app moved the first occurrence on its own; this app reads the series by its
  /// identifier (its first instance, from the series' row) and saves a change for the future:
  /// the series changes, and the moved first occurrence, another's edit, is kept as the later
  /// detached ones are. (It was taken for the object's own instance and dropped.)
  @Test func savingTheSeriesForTheFutureKeepsAFirstOccurrenceAnotherAppDetached() throws {
    let fixture = try StoreFixture()
    let series = try weeklyMeeting(fixture, count: 3)
    let other = fixture.secondStore()
    let first = try occurrence(other, "2026-07-01T11:00:00Z")
    first.startDate = StoreFixture.date("2026-07-02T12:00:00Z")
    first.endDate = StoreFixture.date("2026-07-02T13:00:00Z")
    try other.save(first, span: .thisEvent)
    let read = try #require(fixture.store.event(withIdentifier: series.eventIdentifier))
    read.title = "Weekly sync"
    try fixture.store.saveIfUnchanged(read, span: .futureEvents)
    #expect(
      seen(fixture.secondStore()) == [
        meeting("2026-07-02", "12:00", detached: true),
        meeting("2026-07-08", title: "Weekly sync"),
        meeting("2026-07-15", title: "Weekly sync"),
      ])
  }

  /// A change of one occurrence writes to its series' row too (the instance is detached, or
  /// excluded, or the series cut before it). Staged before another app changed the series and
  /// committed after, it keeps that change: only the date lists, the cut and SEQUENCE are its
  /// own.
  @Test(arguments: [Staged.firstDetach, .detachedAgain, .removal, .split, .removalOfTheRest])
  func oneOccurrenceCommittedAfterAnotherAppChangedTheSeriesKeepsThatChange(staged: Staged)
    throws
  {
    let fixture = try StoreFixture()
    let series = try weeklyMeeting(fixture, count: 3)
    if staged == .detachedAgain {
      let july8 = try occurrence(fixture.store, "2026-07-08T11:00:00Z")
      july8.notes = "moved"
      try fixture.store.save(july8, span: .thisEvent)
    }
    let july8 = try occurrence(fixture.store, "2026-07-08T11:00:00Z")
    switch staged {
    case .removal: try fixture.store.remove(july8, span: .thisEvent, commit: false)
    case .removalOfTheRest: try fixture.store.remove(july8, span: .futureEvents, commit: false)
    case .split:
      july8.title = "Review"
      try fixture.store.save(july8, span: .futureEvents, commit: false)
    case .firstDetach, .detachedAgain:
      july8.title = "Review"
      try fixture.store.save(july8, span: .thisEvent, commit: false)
    }
    let other = fixture.secondStore()  // another app
    let read = try #require(other.event(withIdentifier: series.eventIdentifier))
    read.title = "Weekly sync"
    try other.save(read, span: .futureEvents)
    func sequence() -> Int? {
      fixture.secondStore().event(withIdentifier: series.eventIdentifier)?.record?.sequence
    }
    let before = try #require(sequence())
    try fixture.store.commit()
    var expected = [
      meeting("2026-07-01", title: "Weekly sync"), meeting("2026-07-15", title: "Weekly sync"),
    ]
    switch staged {
    case .removal: break
    case .removalOfTheRest: expected = [meeting("2026-07-01", title: "Weekly sync")]
    case .split:
      expected = [
        meeting("2026-07-01", title: "Weekly sync"), meeting("2026-07-08", title: "Review"),
        meeting("2026-07-15", title: "Review"),
      ]
    case .firstDetach, .detachedAgain:
      expected.insert(meeting("2026-07-08", title: "Review", detached: true), at: 1)
    }
    #expect(seen(fixture.secondStore()) == expected)
    #expect(sequence() == before + 1)  // RFC 5545 §3.8.7.4: the series was changed again
  }

  /// A series made single (its rule removed, saved from the series' own object) has no
  /// occurrence left to override: its detached occurrences go, the first one too. A detached
  /// first occurrence used to stay as an event of its own beside the single one.
  @Test(arguments: ["2026-07-01T11:00:00Z", "2026-07-15T11:00:00Z"])
  func aSeriesMadeSingleKeepsNoneOfItsDetachedOccurrences(_ moved: String) throws {
    let fixture = try StoreFixture()
    let series = try weeklyMeeting(fixture, count: 3)
    let occurrence = try occurrence(fixture.store, moved)
    occurrence.startDate = occurrence.startDate.addingTimeInterval(3 * 3600)
    occurrence.endDate = occurrence.endDate.addingTimeInterval(3 * 3600)
    try fixture.store.save(occurrence, span: .thisEvent)
    let other = fixture.secondStore()  // another app, which reads the series by its identifier
    let read = try #require(other.event(withIdentifier: series.eventIdentifier))
    read.recurrenceRules = nil
    try other.save(read, span: .futureEvents)
    #expect(seen(fixture.secondStore()) == [meeting("2026-07-01")])
    #expect(fixture.secondStore().event(withIdentifier: occurrence.eventIdentifier) == nil)
  }

  enum Staged: CustomTestStringConvertible {
    case firstDetach, detachedAgain, removal, split, removalOfTheRest
    var testDescription: String { "\(self)" }
  }

  @Test func removingForTheFutureTruncatesTheSeries() throws {
    let fixture = try StoreFixture()
    let series = try fixture.event(
      "Standup", start: "2026-07-01T11:00:00Z",
      rule: EKRecurrenceRule(recurrenceWith: .weekly, interval: 1, end: nil))
    let august19 = try occurrence(fixture.store, "2026-08-19T11:00:00Z")
    august19.title = "Demo"
    try fixture.store.save(august19, span: .thisEvent)
    try fixture.store.remove(
      try occurrence(fixture.store, "2026-08-05T11:00:00Z"), span: .futureEvents)
    #expect(seen(fixture.secondStore()) == weeks.prefix(5).map { meeting($0, title: "Standup") })
    #expect(fixture.store.event(withIdentifier: august19.eventIdentifier) == nil)
    let end = try #require(
      fixture.store.event(withIdentifier: series.eventIdentifier)?.recurrenceRules?.first?
        .recurrenceEnd?.endDate)
    #expect(end < StoreFixture.date("2026-08-05T11:00:00Z"))
    #expect(end >= StoreFixture.date("2026-07-29T11:00:00Z"))
  }

  /// An occurrence fetched before its series was cut off (by this app, or another) and removed
  /// after: nothing is left to remove, and that is no error; the series stays as it was cut.
  @Test func removingAnOccurrenceAlreadyCutOffChangesNothing() throws {
    let fixture = try StoreFixture()
    _ = try weeklyMeeting(fixture)
    let august12 = try occurrence(fixture.store, "2026-08-12T11:00:00Z")
    let other = fixture.secondStore()  // another app
    try other.remove(try occurrence(other, "2026-08-05T11:00:00Z"), span: .futureEvents)
    try fixture.store.remove(august12, span: .thisEvent)
    try fixture.store.remove(august12, span: .futureEvents)
    #expect(seen(fixture.secondStore()) == weeks.prefix(5).map { meeting($0) })
  }

  @Test func threePaymentsRemovedThroughEachRecordedIdentifier() throws {
    // The loan sample's pattern: record each payment's identifier, detach the last payment
    // with a new title, then delete through every recorded identifier with .futureEvents.
    let fixture = try StoreFixture()
    let series = try fixture.event(
      "Claire owes $440.13", start: "2026-07-01T09:00:00Z",
      rule: EKRecurrenceRule(
        recurrenceWith: .daily, interval: 1, end: EKRecurrenceEnd(occurrenceCount: 3)))
    let last = try occurrence(fixture.store, "2026-07-03T09:00:00Z")
    last.title = "Claire owes $440.12"
    try fixture.store.save(last, span: .thisEvent)
    let recorded = [series.eventIdentifier!, series.eventIdentifier!, last.eventIdentifier!]
    #expect(
      seen(fixture.store).map(\.title) == [
        "Claire owes $440.13", "Claire owes $440.13", "Claire owes $440.12",
      ])
    var gone = 0
    for identifier in Set(recorded) {
      guard let event = fixture.store.event(withIdentifier: identifier) else {
        gone += 1  // already removed with its series: expected, not an error
        continue
      }
      try fixture.store.remove(event, span: .futureEvents)
    }
    #expect(seen(fixture.secondStore()).isEmpty)
    #expect(gone <= 1)
    #expect(recorded.allSatisfy { fixture.store.event(withIdentifier: $0) == nil })
  }

  // MARK: Kinds of time and batches

  @Test func allDayFloatingAndZonedSeriesSplitAndDetach() throws {
    let fixture = try StoreFixture()
    let store = fixture.store
    let calendar = Calendar.current
    func day(_ d: Int) -> Date {
      calendar.date(from: DateComponents(year: 2026, month: 7, day: d))!
    }

    let allDay = EKEvent(eventStore: store)
    allDay.calendar = fixture.calendar
    allDay.title = "Bins"
    allDay.isAllDay = true
    allDay.startDate = day(6)
    allDay.endDate = day(6)
    allDay.addRecurrenceRule(EKRecurrenceRule(recurrenceWith: .weekly, interval: 1, end: nil))
    try store.save(allDay, span: .futureEvents)

    let floating = EKEvent(eventStore: store)
    floating.calendar = fixture.calendar
    floating.title = "Pills"
    floating.timeZone = nil
    floating.startDate = day(6).addingTimeInterval(8 * 3600)
    floating.endDate = floating.startDate.addingTimeInterval(600)
    floating.addRecurrenceRule(
      EKRecurrenceRule(
        recurrenceWith: .daily, interval: 1, end: EKRecurrenceEnd(occurrenceCount: 14)))
    try store.save(floating, span: .futureEvents)

    let newYork = TimeZone(identifier: "America/New_York")!
    let zoned = EKEvent(eventStore: store)
    zoned.calendar = fixture.calendar
    zoned.title = "Call"
    zoned.timeZone = newYork
    zoned.startDate = StoreFixture.date("2026-10-26T13:00:00Z")  // 09:00 EDT
    zoned.endDate = zoned.startDate.addingTimeInterval(1800)
    zoned.addRecurrenceRule(
      EKRecurrenceRule(
        recurrenceWith: .weekly, interval: 1, end: EKRecurrenceEnd(occurrenceCount: 3)))
    try store.save(zoned, span: .futureEvents)

    func titled(_ title: String) -> [EKEvent] {
      occurrences(store).filter { $0.title.hasPrefix(title) }
    }

    // All-day: detach the third week, split from the fifth.
    let third = try #require(titled("Bins").dropFirst(2).first)
    third.title = "Bins (holiday)"
    try store.save(third, span: .thisEvent)
    let fifth = try #require(titled("Bins").dropFirst(4).first)
    fifth.title = "Bins and recycling"
    try store.save(fifth, span: .futureEvents)
    let bins = titled("Bins")
    #expect(bins.allSatisfy { $0.isAllDay && calendar.component(.hour, from: $0.startDate) == 0 })
    #expect(bins[2].title == "Bins (holiday)" && bins[2].isDetached)
    #expect(bins[4].title == "Bins and recycling" && bins[3].title == "Bins")
    #expect(
      zip(bins, bins.dropFirst()).allSatisfy {
        $1.startDate.timeIntervalSince($0.startDate) > 6 * 86_400
      })

    // Floating: remove the future from the eighth day; seven remain at 08:00 local.
    let eighth = try #require(titled("Pills").dropFirst(7).first)
    try store.remove(eighth, span: .futureEvents)
    let pills = titled("Pills")
    #expect(pills.count == 7)
    #expect(
      pills.allSatisfy { calendar.component(.hour, from: $0.startDate) == 8 && $0.timeZone == nil })

    // Zoned across the end of DST (1 November 2026): the split keeps 09:00 New York time.
    let second = try #require(titled("Call").dropFirst().first)
    second.title = "Call (new link)"
    try store.save(second, span: .futureEvents)
    var newYorkCalendar = Calendar(identifier: .gregorian)
    newYorkCalendar.timeZone = newYork
    let calls = titled("Call")
    #expect(calls.map(\.title) == ["Call", "Call (new link)", "Call (new link)"])
    #expect(calls.allSatisfy { newYorkCalendar.component(.hour, from: $0.startDate) == 9 })
    #expect(
      calls.map { ISO8601DateFormatter().string(from: $0.startDate) } == [
        "2026-10-26T13:00:00Z", "2026-11-02T14:00:00Z", "2026-11-09T14:00:00Z",
      ])
  }

  @Test func spanEditsStageAndCommitLikeAnyOther() throws {
    let fixture = try StoreFixture()
    _ = try weeklyMeeting(fixture)
    let august5 = try occurrence(fixture.store, "2026-08-05T11:00:00Z")
    august5.title = "Staged"
    try fixture.store.save(august5, span: .futureEvents, commit: false)
    try fixture.store.remove(
      try occurrence(fixture.store, "2026-07-08T11:00:00Z"), span: .thisEvent, commit: false)
    let staged = seen(fixture.store)
    #expect(staged.map(\.title).filter { $0 == "Staged" }.count == 5)
    #expect(staged.count == 9)
    #expect(seen(fixture.secondStore()) == weeks.map { meeting($0) })
    fixture.store.reset()
    #expect(seen(fixture.store) == weeks.map { meeting($0) })

    let again = try occurrence(fixture.store, "2026-08-05T11:00:00Z")
    again.title = "Committed"
    try fixture.store.save(again, span: .futureEvents, commit: false)
    try fixture.store.commit()
    #expect(seen(fixture.secondStore()).map(\.title).filter { $0 == "Committed" }.count == 5)
  }

  /// A series saved in a batch, then one of its occurrences detached in the same batch: the
  /// commit writes the series once, then the detached occurrence (as the loan sample does).
  @Test func aSeriesAndItsDetachedOccurrenceCommitTogether() throws {
    let fixture = try StoreFixture()
    let series = try fixture.event(
      "Meeting", start: "2026-07-01T11:00:00Z",
      rule: EKRecurrenceRule(
        recurrenceWith: .weekly, interval: 1, end: EKRecurrenceEnd(occurrenceCount: 10)),
      commit: false)
    let august5 = try occurrence(fixture.store, "2026-08-05T11:00:00Z")
    august5.title = "Last one"
    try fixture.store.save(august5, span: .thisEvent, commit: false)
    #expect(august5.eventIdentifier != series.eventIdentifier)
    try fixture.store.commit()
    let expected = weeks.map {
      meeting(
        $0, title: $0 == "2026-08-05" ? "Last one" : "Meeting",
        detached: $0 == "2026-08-05")
    }
    #expect(seen(fixture.secondStore()) == expected)
  }

  /// A detached occurrence moved, then its series split before it, in one batch: the
  /// detached row then belongs to the new series, written later in the batch.
  @Test func aDetachedOccurrenceMovedThenASplitBeforeItCommitTogether() throws {
    let fixture = try StoreFixture()
    _ = try weeklyMeeting(fixture)
    let august19 = try occurrence(fixture.store, "2026-08-19T11:00:00Z")
    august19.title = "Detached"
    try fixture.store.save(august19, span: .thisEvent)
    august19.startDate = StoreFixture.date("2026-08-20T11:00:00Z")
    august19.endDate = StoreFixture.date("2026-08-20T12:00:00Z")
    try fixture.store.save(august19, span: .thisEvent, commit: false)
    let august5 = try occurrence(fixture.store, "2026-08-05T11:00:00Z")
    august5.title = "Split"
    try fixture.store.save(august5, span: .futureEvents, commit: false)
    try fixture.store.commit()
    let titles = seen(fixture.secondStore()).map(\.description)
    #expect(titles.contains("2026-08-20T11:00:00Z Detached (detached)"))
    #expect(titles.filter { $0.hasSuffix(" Split") }.count == 4)
    let moved = try #require(fixture.secondStore().event(withIdentifier: august19.eventIdentifier))
    #expect(moved.isDetached)
    // Removing the new series from its first occurrence removes the detached one with it.
    let second = fixture.secondStore()
    let splitFirst = try #require(
      occurrences(second).first { $0.title == "Split" && !$0.isDetached })
    try second.remove(splitFirst, span: .futureEvents)
    #expect(fixture.store.event(withIdentifier: august19.eventIdentifier) == nil)
  }

  @Test func anotherProcessIsToldOfASpanEdit() throws {
    let fixture = try StoreFixture()
    _ = try weeklyMeeting(fixture)
    let watcher = try HelperProcess(["watch", fixture.folder.url.path, "5"])
    try watcher.waitForLine("watching")
    let august5 = try occurrence(fixture.store, "2026-08-05T11:00:00Z")
    august5.title = "Split"
    try fixture.store.save(august5, span: .futureEvents)
    try watcher.waitForLine("changed")
    watcher.stop()
  }

  // MARK: Objects that are old, unchanged or reset

  @Test func anOlderObjectForADetachedInstanceEditsThatDetachedRow() throws {
    let fixture = try StoreFixture()
    _ = try weeklyMeeting(fixture)
    let older = try occurrence(fixture.store, "2026-07-08T11:00:00Z")
    let newer = try occurrence(fixture.secondStore(), "2026-07-08T11:00:00Z")
    newer.title = "Detached elsewhere"
    try newer.eventStore.save(newer, span: .thisEvent)
    older.title = "Detached here"
    try fixture.store.save(older, span: .thisEvent)
    let july8 = occurrences(fixture.store).filter { $0.occurrenceDate == older.occurrenceDate }
    #expect(july8.map(\.title) == ["Detached here"])
    #expect(older.eventIdentifier == newer.eventIdentifier)
    // And an instance removed meanwhile is not brought back.
    let stale = try occurrence(fixture.store, "2026-07-15T11:00:00Z")
    let other = fixture.secondStore()
    try other.remove(try occurrence(other, "2026-07-15T11:00:00Z"), span: .thisEvent)
    stale.title = "Back?"
    expectEKError(.internalFailure) { try fixture.store.save(stale, span: .thisEvent) }
    #expect(!occurrences(fixture.store).contains { $0.title == "Back?" })
  }

  /// The series removed by another store since an occurrence was fetched: moving that
  /// occurrence alone is refused, where putting the object back made a new series of its rule
  /// from that date, longer than the one removed.
  @Test func anOccurrenceOfASeriesRemovedSinceIsNotSavedBackAsANewSeries() throws {
    let fixture = try StoreFixture()
    _ = try weeklyMeeting(fixture, count: 6)
    let stale = try occurrence(fixture.store, "2026-07-29T11:00:00Z")  // the 5th
    let other = fixture.secondStore()
    try other.remove(try occurrence(other, "2026-07-01T11:00:00Z"), span: .futureEvents)
    stale.startDate = stale.startDate.addingTimeInterval(7200)
    stale.endDate = stale.endDate.addingTimeInterval(7200)
    expectEKError(.internalFailure) { try fixture.store.save(stale, span: .thisEvent) }
    #expect(occurrences(fixture.secondStore()).isEmpty)
  }

  /// A removal of one occurrence staged before another store removed the whole series, then
  /// committed: nothing is left to do, and nothing comes back (the series' row is not written
  /// again for the exception date it would have had).
  @Test func aRemovalStagedBeforeTheSeriesWasRemovedBringsNothingBack() throws {
    let fixture = try StoreFixture()
    _ = try weeklyMeeting(fixture, count: 6)
    let third = try occurrence(fixture.store, "2026-07-15T11:00:00Z")
    try fixture.store.remove(third, span: .thisEvent, commit: false)
    let other = fixture.secondStore()
    try other.remove(try occurrence(other, "2026-07-01T11:00:00Z"), span: .futureEvents)
    try fixture.store.commit()
    #expect(occurrences(fixture.secondStore()).isEmpty)
  }

  /// Removed "this and future" through an object fetched before another store split the series
  /// at a later occurrence: the object's series loses that occurrence and the rest of it; the
  /// split-off series, another series now, stays.
  @Test func aStaleFutureRemovalAfterASplitRemovesTheRestOfItsOwnSeries() throws {
    let fixture = try StoreFixture()
    _ = try weeklyMeeting(fixture, count: 6)
    let stale = try occurrence(fixture.store, "2026-07-08T11:00:00Z")  // the 2nd
    let other = fixture.secondStore()
    let fourth = try occurrence(other, "2026-07-22T11:00:00Z")
    fourth.title = "Split"
    try other.save(fourth, span: .futureEvents)
    try fixture.store.remove(stale, span: .futureEvents)
    let left = occurrences(fixture.secondStore()).map { "\($0.title ?? "") \($0.startDate!)" }
    #expect(
      left == [
        "Meeting 2026-07-01 11:00:00 +0000", "Split 2026-07-22 11:00:00 +0000",
        "Split 2026-07-29 11:00:00 +0000", "Split 2026-08-05 11:00:00 +0000",
      ], "\(left)")
  }

  /// Staged before another store cut the series short, committed after: the detached row of
  /// an instance the series no longer has is refused at the commit, not written as a ghost
  /// occurrence beyond the series' end.
  @Test func aMoveStagedBeforeAnotherStoreCutTheSeriesIsRefusedAtCommit() throws {
    let fixture = try StoreFixture()
    _ = try weeklyMeeting(fixture, count: 6)
    let fifth = try occurrence(fixture.store, "2026-07-29T11:00:00Z")
    fifth.startDate = fifth.startDate.addingTimeInterval(7200)
    fifth.endDate = fifth.endDate.addingTimeInterval(7200)
    try fixture.store.save(fifth, span: .thisEvent, commit: false)
    let other = fixture.secondStore()
    try other.remove(try occurrence(other, "2026-07-15T11:00:00Z"), span: .futureEvents)
    expectEKError(.internalFailure) { try fixture.store.commit() }
    fixture.store.reset()
    let left = occurrences(fixture.secondStore()).map(\.startDate)
    #expect(
      left == [
        StoreFixture.date("2026-07-01T11:00:00Z"), StoreFixture.date("2026-07-08T11:00:00Z"),
      ])
  }

  @Test func anUnchangedOccurrenceSavedAloneStaysPartOfItsSeries() throws {
    let fixture = try StoreFixture()
    let series = try weeklyMeeting(fixture)
    let july8 = try occurrence(fixture.store, "2026-07-08T11:00:00Z")
    try fixture.store.save(july8, span: .thisEvent)
    try fixture.store.save(
      try occurrence(fixture.store, "2026-08-05T11:00:00Z"), span: .futureEvents)
    #expect(
      occurrences(fixture.secondStore()).allSatisfy {
        !$0.isDetached && $0.eventIdentifier == series.eventIdentifier
      })
  }

  @Test func aDetachedFirstInstanceLeavesTheSeriesToItsIdentifier() throws {
    let fixture = try StoreFixture()
    let series = try weeklyMeeting(fixture, count: 3)
    let first = try occurrence(fixture.store, "2026-07-01T11:00:00Z")
    first.title = "Kick-off"
    try fixture.store.save(first, span: .thisEvent)
    // The series' identifier finds the series (EventKit's master event), standing for its
    // first instance; the detached row has an identifier of its own.
    let found = try #require(fixture.secondStore().event(withIdentifier: series.eventIdentifier))
    #expect(found.title == "Meeting" && !found.isDetached && found.hasRecurrenceRules)
    #expect(found.eventIdentifier == series.eventIdentifier)
    #expect(found.occurrenceDate == StoreFixture.date("2026-07-01T11:00:00Z"))
    let kickOff = try #require(fixture.secondStore().event(withIdentifier: first.eventIdentifier))
    #expect(kickOff.title == "Kick-off" && kickOff.isDetached)
    // Removing the future from it removes the whole series.
    let mine = try #require(fixture.store.event(withIdentifier: series.eventIdentifier))
    try fixture.store.remove(mine, span: .futureEvents)
    #expect(seen(fixture.secondStore()).isEmpty)
  }

  /// Issue 41: the first instance removed and the second detached, the series' identifier
  /// still finds the series, not the detached second occurrence.
  @Test func aRemovedFirstAndDetachedSecondLeaveTheSeriesToItsIdentifier() throws {
    let fixture = try StoreFixture()
    let series = try weeklyMeeting(fixture, count: 4)
    try fixture.store.remove(
      try occurrence(fixture.store, "2026-07-01T11:00:00Z"), span: .thisEvent)
    let second = try occurrence(fixture.store, "2026-07-08T11:00:00Z")
    second.title = "Moved"
    second.startDate = StoreFixture.date("2026-07-09T15:00:00Z")
    second.endDate = StoreFixture.date("2026-07-09T16:00:00Z")
    try fixture.store.save(second, span: .thisEvent)
    let store = fixture.secondStore()
    let identifier = series.calendarItemIdentifier
    for found in [
      store.calendarItem(withIdentifier: identifier) as? EKEvent,
      store.event(withIdentifier: identifier),
    ] {
      let event = try #require(found)
      #expect(event.calendarItemIdentifier == identifier && !event.isDetached)
      #expect(event.title == "Meeting" && event.hasRecurrenceRules)
      #expect(event.occurrenceDate == StoreFixture.date("2026-07-08T11:00:00Z"))
      #expect(event.startDate == StoreFixture.date("2026-07-08T11:00:00Z"))
    }
    // Refreshed, it goes on standing for that instance.
    let event = try #require(store.event(withIdentifier: identifier))
    #expect(event.refresh() && event.startDate == StoreFixture.date("2026-07-08T11:00:00Z"))
  }

  @Test(arguments: ["remove this", "remove future", "save future"])
  func aFirstOccurrenceMovedDaysAwayIsStillTheFirst(_ action: String) throws {
    // Moved from Wednesday 1 July, 11:00, to Saturday 4 July, 14:00: a fetch finds it there,
    // outside any window around its instance.
    let fixture = try StoreFixture()
    let series = try weeklyMeeting(fixture, count: 4)
    let first = try occurrence(fixture.store, "2026-07-01T11:00:00Z")
    first.title = "Kick-off"
    first.startDate = StoreFixture.date("2026-07-04T14:00:00Z")
    first.endDate = StoreFixture.date("2026-07-04T15:00:00Z")
    try fixture.store.save(first, span: .thisEvent)
    let rows = try fixture.itemCount()
    let store = fixture.secondStore()
    // The series' identifier finds the series; the detached row's own finds it.
    #expect(store.event(withIdentifier: series.eventIdentifier)?.isDetached == false)
    let moved = try #require(store.event(withIdentifier: first.eventIdentifier))
    #expect(moved.isDetached && moved.eventIdentifier == first.eventIdentifier)
    #expect(moved.occurrenceDate == StoreFixture.date("2026-07-01T11:00:00Z"))

    switch action {
    case "remove this":
      // Its instance is removed; the series begins with the next one.
      try store.remove(moved, span: .thisEvent)
      #expect(seen(fixture.secondStore()) == weeks[1..<4].map { meeting($0) })
      #expect(
        fixture.secondStore().event(withIdentifier: series.eventIdentifier)?.startDate
          == StoreFixture.date("2026-07-08T11:00:00Z"))
    case "remove future":
      try store.remove(moved, span: .futureEvents)
      #expect(seen(fixture.secondStore()).isEmpty)
      #expect(try fixture.itemCount() == rows - 2)  // the series and its detached row
    default:
      // The whole series takes its change, its move included, and it is no longer detached.
      moved.title = "Weekly sync"
      try store.save(moved, span: .futureEvents)
      #expect(moved.eventIdentifier == series.eventIdentifier && !moved.isDetached)
      #expect(
        seen(fixture.secondStore()) == [
          meeting("2026-07-04", "14:00", title: "Weekly sync"),
          meeting("2026-07-11", "14:00", title: "Weekly sync"),
          meeting("2026-07-18", "14:00", title: "Weekly sync"),
          meeting("2026-07-25", "14:00", title: "Weekly sync"),
        ])
    }
  }

  @Test func resetAfterAStagedSplitLeavesTheObjectAsEdited() throws {
    let fixture = try StoreFixture()
    _ = try weeklyMeeting(fixture)
    let august5 = try occurrence(fixture.store, "2026-08-05T11:00:00Z")
    august5.title = "Staged split"
    try fixture.store.save(august5, span: .futureEvents, commit: false)
    fixture.store.reset()
    #expect(august5.title == "Staged split" && august5.hasChanges)
    #expect(august5.recurrenceRules?.first?.recurrenceEnd?.occurrenceCount == 10)
    // Saved again, it splits the series as it would have the first time.
    try fixture.store.save(august5, span: .futureEvents)
    let expected =
      weeks.prefix(5).map { meeting($0) }
      + weeks.dropFirst(5).map { meeting($0, title: "Staged split") }
    #expect(seen(fixture.secondStore()) == expected)
  }

  @Test func aSplitWithNewRulesDropsWhatTheyNoLongerProduce() throws {
    let fixture = try StoreFixture()
    _ = try weeklyMeeting(fixture)
    let august19 = try occurrence(fixture.store, "2026-08-19T11:00:00Z")
    august19.title = "Wednesday special"
    try fixture.store.save(august19, span: .thisEvent)
    let august5 = try occurrence(fixture.store, "2026-08-05T11:00:00Z")
    august5.recurrenceRules = [
      EKRecurrenceRule(
        recurrenceWith: .weekly, interval: 2, end: EKRecurrenceEnd(occurrenceCount: 3))
    ]
    try fixture.store.save(august5, span: .futureEvents)
    // Every other week from August 5th: the 19th is an instance again, and keeps its detached
    // change; nothing is doubled.
    let after = seen(fixture.secondStore()).filter { $0.start >= "2026-08-05" }
    #expect(
      after == [
        meeting("2026-08-05"), meeting("2026-08-19", title: "Wednesday special", detached: true),
        meeting("2026-09-02"),
      ])
  }
}
