import Foundation
import Testing

@testable import OpenEventKit

/// `saveIfUnchanged`: a save that is written only when nobody changed the item since it was
/// read, checked against the database file that other stores write too.
@Suite struct SaveIfUnchangedTests {
  /// Adds `name` as a line of the event's notes.
  private func addLine(_ name: String, to event: EKEvent) {
    event.notes = [event.notes, name].compactMap { $0 }.joined(separator: "\n")
  }

  /// A weekly event three times from Friday 8 May 2026, 18:00 UTC.
  private func weeklyPoker(_ fixture: StoreFixture) throws -> EKEvent {
    try fixture.event(
      "Poker", start: "2026-05-08T18:00:00Z",
      rule: EKRecurrenceRule(
        recurrenceWith: .weekly, interval: 1, end: EKRecurrenceEnd(occurrenceCount: 3)))
  }

  /// The occurrences of May 2026 in the default calendar.
  private func may(_ store: EKEventStore) -> [EKEvent] {
    store.events(
      matching: store.predicateForEvents(
        withStart: StoreFixture.date("2026-05-01T00:00:00Z"),
        end: StoreFixture.date("2026-06-01T00:00:00Z"),
        calendars: [store.defaultCalendarForNewEvents!]))
  }

  @Test func aChangeMadeElsewhereAfterTheReadIsAConflictAndTheRetryKeepsBoth() throws {
    let fixture = try StoreFixture()
    let id = try fixture.event("Poker", start: "2026-05-08T18:00:00Z").eventIdentifier!
    let mine = try #require(fixture.store.event(withIdentifier: id))
    let other = fixture.secondStore()
    let theirs = try #require(other.event(withIdentifier: id))
    addLine("bob", to: theirs)
    try other.saveIfUnchanged(theirs, span: .thisEvent)

    addLine("ann", to: mine)
    do {
      try fixture.store.saveIfUnchanged(mine, span: .thisEvent)
      Issue.record("a save over bob's change was written")
    } catch let conflict as SaveConflictError {
      #expect(conflict.calendarItemIdentifier == id)
      #expect(!conflict.wasRemoved)
      #expect(conflict.localizedDescription.contains("\"Poker\" was changed by someone else"))
    }
    #expect(fixture.secondStore().event(withIdentifier: id)?.notes == "bob")

    mine.rollback()
    #expect(mine.refresh())
    addLine("ann", to: mine)
    try fixture.store.saveIfUnchanged(mine, span: .thisEvent)
    #expect(fixture.secondStore().event(withIdentifier: id)?.notes == "bob\nann")
  }

  @Test func theObjectsOwnSavesAndPlainSavesAreNotConflicts() throws {
    let fixture = try StoreFixture()
    let event = try fixture.event("Poker", start: "2026-05-08T18:00:00Z")
    for name in ["ann", "bob", "cy"] {
      addLine(name, to: event)
      try fixture.store.saveIfUnchanged(event, span: .thisEvent)
    }
    event.location = "Ann's"
    try fixture.store.save(event, span: .thisEvent)
    addLine("dee", to: event)
    try fixture.store.saveIfUnchanged(event, span: .thisEvent)
    let stored = fixture.secondStore().event(withIdentifier: event.eventIdentifier)
    #expect(stored?.notes == "ann\nbob\ncy\ndee")
    #expect(stored?.location == "Ann's")

    let new = EKEvent(eventStore: fixture.store)
    new.title = "New"
    new.calendar = fixture.calendar
    new.startDate = StoreFixture.date("2026-05-09T18:00:00Z")
    new.endDate = new.startDate.addingTimeInterval(3600)
    try fixture.store.saveIfUnchanged(new, span: .thisEvent)
    #expect(fixture.secondStore().event(withIdentifier: new.eventIdentifier)?.title == "New")
  }

  @Test func anItemRemovedElsewhereIsNotWrittenBack() throws {
    let fixture = try StoreFixture()
    let id = try fixture.event("Poker", start: "2026-05-08T18:00:00Z").eventIdentifier!
    let mine = try #require(fixture.store.event(withIdentifier: id))
    let other = fixture.secondStore()
    try other.remove(try #require(other.event(withIdentifier: id)), span: .thisEvent)
    let rows = try fixture.itemCount()

    addLine("ann", to: mine)
    #expect(throws: SaveConflictError.self) {
      try fixture.store.saveIfUnchanged(mine, span: .thisEvent)
    }
    do {
      try fixture.store.saveIfUnchanged(mine, span: .thisEvent)
    } catch let conflict as SaveConflictError {
      #expect(conflict.wasRemoved)
      #expect(conflict.description.contains("was removed"))
    }
    #expect(try fixture.itemCount() == rows)
    #expect(fixture.secondStore().event(withIdentifier: id) == nil)
  }

  @Test func aConflictAtCommitWritesNothingOfTheBatch() throws {
    let fixture = try StoreFixture()
    let id = try fixture.event("Poker", start: "2026-05-08T18:00:00Z").eventIdentifier!
    let mine = try #require(fixture.store.event(withIdentifier: id))
    addLine("ann", to: mine)
    try fixture.store.saveIfUnchanged(mine, span: .thisEvent, commit: false)
    let extra = try fixture.event("Extra", start: "2026-05-09T18:00:00Z", commit: false)

    let other = fixture.secondStore()
    let theirs = try #require(other.event(withIdentifier: id))
    theirs.title = "Poker night"
    try other.save(theirs, span: .thisEvent)

    #expect(throws: SaveConflictError.self) { try fixture.store.commit() }
    let after = fixture.secondStore()
    #expect(after.event(withIdentifier: extra.eventIdentifier) == nil)
    #expect(after.event(withIdentifier: id)?.title == "Poker night")
    #expect(after.event(withIdentifier: id)?.notes == nil)

    // Dropping the batch drops its condition: the store goes on saving.
    fixture.store.reset()
    let fresh = try #require(fixture.store.event(withIdentifier: id))
    addLine("ann", to: fresh)
    try fixture.store.saveIfUnchanged(fresh, span: .thisEvent)
    #expect(fixture.secondStore().event(withIdentifier: id)?.notes == "ann")
  }

  @Test func aFailedSaveLeavesNoConditionBehind() throws {
    let fixture = try StoreFixture()
    let id = try fixture.event("Poker", start: "2026-05-08T18:00:00Z").eventIdentifier!
    let mine = try #require(fixture.store.event(withIdentifier: id))
    let start = mine.startDate!
    mine.endDate = start.addingTimeInterval(-60)
    #expect(throws: EKError.self) {
      try fixture.store.saveIfUnchanged(mine, span: .thisEvent, commit: false)
    }
    // The refused save left no condition: another store's change does not spoil this batch.
    let other = fixture.secondStore()
    let theirs = try #require(other.event(withIdentifier: id))
    theirs.title = "Moved"
    try other.save(theirs, span: .thisEvent)
    try fixture.event("Extra", start: "2026-05-09T18:00:00Z", commit: false)
    try fixture.store.commit()
    #expect(
      fixture.titles("2026-05-08T00:00:00Z", "2026-05-10T00:00:00Z", in: other) == [
        "Moved", "Extra",
      ])
  }

  @Test func reminders() throws {
    let fixture = try StoreFixture()
    let reminder = EKReminder(eventStore: fixture.store)
    reminder.title = "Chips"
    reminder.calendar = fixture.reminders
    try fixture.store.saveIfUnchanged(reminder)
    let other = fixture.secondStore()
    let theirs = try #require(other.calendarItem(withIdentifier: reminder.calendarItemIdentifier))
    theirs.notes = "salted"
    try other.save(theirs as! EKReminder, commit: true)
    reminder.priority = 1
    #expect(throws: SaveConflictError.self) { try fixture.store.saveIfUnchanged(reminder) }
    reminder.rollback()
    #expect(reminder.refresh())
    reminder.priority = 1
    try fixture.store.saveIfUnchanged(reminder)
    let stored = other.calendarItem(withIdentifier: reminder.calendarItemIdentifier)
    #expect(stored?.notes == "salted")
    #expect((stored as? EKReminder)?.priority == 1)
  }

  /// The series' object (as `event(withIdentifier:)` gives it, standing for its first
  /// occurrence) when another app removed that occurrence since it was read: a conflict (not an
  /// internal failure), and after `refresh()` the retry saves the whole series.
  @Test func aFirstOccurrenceRemovedSinceTheReadIsAConflictThenTheSeriesIsSaved() throws {
    let fixture = try StoreFixture()
    let series = try weeklyPoker(fixture)
    let mine = try #require(fixture.store.event(withIdentifier: series.eventIdentifier))
    let other = fixture.secondStore()
    let first = try #require(other.event(withIdentifier: series.eventIdentifier))
    try other.remove(first, span: .thisEvent)
    addLine("ann", to: mine)
    #expect(throws: SaveConflictError.self) {
      try fixture.store.saveIfUnchanged(mine, span: .futureEvents)
    }
    mine.rollback()
    #expect(mine.refresh())
    addLine("ann", to: mine)
    try fixture.store.saveIfUnchanged(mine, span: .futureEvents)
    let left = may(fixture.secondStore())
    #expect(
      left.map(\.startDate)
        == ["2026-05-15T18:00:00Z", "2026-05-22T18:00:00Z"].map(StoreFixture.date))
    #expect(left.allSatisfy { $0.notes == "ann" })
  }

  /// A plain save of the series' object after its first occurrence was removed elsewhere saves
  /// the whole series ("this and future" from before every occurrence left).
  @Test func theSeriesObjectSavedForTheFutureAfterItsFirstOccurrenceWentSavesTheSeries() throws {
    let fixture = try StoreFixture()
    let series = try weeklyPoker(fixture)
    let mine = try #require(fixture.store.event(withIdentifier: series.eventIdentifier))
    let other = fixture.secondStore()
    try other.remove(
      try #require(other.event(withIdentifier: series.eventIdentifier)), span: .thisEvent)
    mine.title = "Poker night"
    try fixture.store.save(mine, span: .futureEvents)
    let titles = may(fixture.secondStore()).map(\.title)
    #expect(titles == ["Poker night", "Poker night"])
  }

  /// The series' object saved with `.thisEvent` when another object had detached its first
  /// occurrence (a vote on it, a move): a checked save refuses, with a typed error, rather than
  /// write the series' values over that edit (or throw conflicts that a retry never ends).
  @Test func aCheckedSaveOfTheSeriesObjectDoesNotWriteOverADetachedFirstOccurrence() throws {
    let fixture = try StoreFixture()
    let series = try weeklyPoker(fixture)
    let other = fixture.secondStore()
    let theirs = try #require(other.event(withIdentifier: series.eventIdentifier))
    addLine("bob", to: theirs)
    try other.saveIfUnchanged(theirs, span: .thisEvent)  // detaches the first occurrence
    let mine = try #require(fixture.store.event(withIdentifier: series.eventIdentifier))
    addLine("ann", to: mine)
    let refused = #expect(throws: EKError.self) {
      try fixture.store.saveIfUnchanged(mine, span: .thisEvent)
    }
    #expect(refused?.code == .invalidSpan)
    #expect(refused?.localizedDescription.contains("save the series with .futureEvents") == true)
    let detached = try #require(fixture.secondStore().event(withIdentifier: theirs.eventIdentifier))
    #expect(detached.isDetached && detached.notes == "bob")
    // The series, saved whole, keeps the detached occurrence as it is.
    try fixture.store.saveIfUnchanged(mine, span: .futureEvents)
    #expect(fixture.secondStore().event(withIdentifier: theirs.eventIdentifier)?.notes == "bob")
  }

  /// Stores on one file, on threads of their own, each adding a line to the same event and
  /// retrying on conflict: every line is there at the end.
  @Test func concurrentReadModifyWritesLoseNothing() async throws {
    let fixture = try StoreFixture()
    let id = try fixture.event("Poker", start: "2026-05-08T18:00:00Z").eventIdentifier!
    let folder = fixture.folder.url
    let names = (1...12).map { "player\($0)" }
    let conflicts = try await withThrowingTaskGroup(of: Int.self) { group in
      for name in names {
        group.addTask {
          let store = EKEventStore(folder: folder)
          guard let event = store.event(withIdentifier: id) else { return 0 }
          var conflicts = 0
          while true {
            event.notes = [event.notes, name].compactMap { $0 }.joined(separator: "\n")
            do {
              try store.saveIfUnchanged(event, span: .thisEvent)
              return conflicts
            } catch is SaveConflictError {
              conflicts += 1
              event.rollback()
              guard event.refresh() else { return conflicts }
            }
          }
        }
      }
      return try await group.reduce(0, +)
    }
    let lines = fixture.secondStore().event(withIdentifier: id)?.notes?.split(separator: "\n")
    #expect(Set(lines ?? []) == Set(names.map { Substring($0) }))
    #expect(lines?.count == names.count)
    _ = conflicts  // how many retries it took depends on the scheduling
  }

  /// The same with a repeating event: writers on the series (`.futureEvents` from its first
  /// occurrence) and writers on an occurrence of it moved on its own (`.thisEvent`) at once.
  /// Each save of the moved occurrence writes to the series' row too: every line must still
  /// be there (poker-vote's votes; the eighteenth reader saw 6 or 7 of 8 kept).
  @Test func concurrentWritersOnASeriesAndItsMovedOccurrenceLoseNothing() async throws {
    let fixture = try StoreFixture()
    let series = try fixture.event(
      "Poker", start: "2026-05-08T18:00:00Z",
      rule: EKRecurrenceRule(
        recurrenceWith: .weekly, interval: 1, end: EKRecurrenceEnd(occurrenceCount: 4)))
    let moved = try #require(
      fixture.store.events(
        matching: fixture.store.predicateForEvents(
          withStart: StoreFixture.date("2026-05-15T00:00:00Z"),
          end: StoreFixture.date("2026-05-16T00:00:00Z"), calendars: nil)
      ).first)
    moved.startDate = StoreFixture.date("2026-05-15T19:00:00Z")
    moved.endDate = StoreFixture.date("2026-05-15T20:00:00Z")
    try fixture.store.save(moved, span: .thisEvent)
    let ids = [
      (series.eventIdentifier!, EKSpan.futureEvents), (moved.eventIdentifier!, .thisEvent),
    ]
    let folder = fixture.folder.url
    let writers = ids.flatMap { id, span in (1...6).map { (id, span, "\(id.prefix(6))-\($0)") } }
    try await withThrowingTaskGroup(of: Void.self) { group in
      for (id, span, name) in writers {
        group.addTask {
          let store = EKEventStore(folder: folder)
          guard let event = store.event(withIdentifier: id) else { return }
          while true {
            event.notes = [event.notes, name].compactMap { $0 }.joined(separator: "\n")
            do {
              try store.saveIfUnchanged(event, span: span)
              return
            } catch is SaveConflictError {
              event.rollback()
              guard event.refresh() else { return }
            }
          }
        }
      }
      try await group.waitForAll()
    }
    let reader = fixture.secondStore()
    for (id, _) in ids {
      let lines = reader.event(withIdentifier: id)?.notes?.split(separator: "\n") ?? []
      let expected = writers.filter { $0.0 == id }.map { Substring($0.2) }
      #expect(Set(lines) == Set(expected), "\(id): \(lines.count) of \(expected.count) kept")
    }
  }
}
