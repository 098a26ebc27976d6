import Foundation
import Synchronization
import TestSupport
import Testing

@testable import OpenEventKit

/// `commit: false`, `commit()` and `reset()`: what each store and the file see.
@Suite struct SavingAndBatchingTests {
  let week = ("2026-03-01T00:00:00Z", "2026-03-08T00:00:00Z")

  @Test func stagedChangesAreSeenOnlyByTheirStoreUntilCommitted() throws {
    let fixture = try StoreFixture()
    let other = fixture.secondStore()
    let itemsBefore = try fixture.itemCount()
    let first = try fixture.event("One", start: "2026-03-02T09:00:00Z", commit: false)
    try fixture.event("Two", start: "2026-03-03T09:00:00Z", commit: false)
    #expect(fixture.titles(week.0, week.1) == ["One", "Two"])
    #expect(fixture.store.event(withIdentifier: first.eventIdentifier)?.title == "One")
    #expect(fixture.titles(week.0, week.1, in: other).isEmpty)
    #expect(other.event(withIdentifier: first.eventIdentifier) == nil)
    #expect(try fixture.itemCount() == itemsBefore)

    try fixture.store.commit()
    #expect(fixture.titles(week.0, week.1, in: other) == ["One", "Two"])
    #expect(try fixture.itemCount() == itemsBefore + 2)
  }

  @Test func resetDropsEverythingStaged() throws {
    let fixture = try StoreFixture()
    let kept = try fixture.event("Kept", start: "2026-03-02T09:00:00Z")
    try fixture.event("Dropped", start: "2026-03-03T09:00:00Z", commit: false)
    try fixture.store.remove(kept, span: .thisEvent, commit: false)
    #expect(fixture.titles(week.0, week.1) == ["Dropped"])
    fixture.store.reset()
    #expect(fixture.titles(week.0, week.1) == ["Kept"])
    try fixture.store.commit()  // nothing left to write
    #expect(fixture.titles(week.0, week.1, in: fixture.secondStore()) == ["Kept"])
  }

  @Test func resetMakesObjectsStagedSinceTheLastCommitNewAgain() throws {
    let fixture = try StoreFixture()
    let kept = try fixture.event("Kept", start: "2026-03-02T09:00:00Z")
    let staged = try fixture.event("Staged", start: "2026-03-03T09:00:00Z", commit: false)
    kept.title = "Kept, renamed"
    try fixture.store.save(kept, span: .thisEvent, commit: false)
    #expect(!staged.isNew && staged.eventIdentifier != nil)
    fixture.store.reset()
    #expect(staged.isNew && staged.eventIdentifier == nil && staged.hasChanges)
    // The committed event is saved as it was; its staged change is an unsaved change again.
    #expect(!kept.isNew && kept.hasChanges && kept.title == "Kept, renamed")
    kept.rollback()
    #expect(kept.title == "Kept")
    // Saving the dropped event again works as for any new event.
    try fixture.store.save(staged, span: .thisEvent)
    #expect(fixture.titles(week.0, week.1, in: fixture.secondStore()) == ["Kept", "Staged"])
  }

  @Test func aCalendarMadeByAnotherProcessIsUsableAtOnce() throws {
    let fixture = try StoreFixture()
    _ = fixture.store.calendars(for: .event)  // the store now holds the calendar list
    let other = fixture.secondStore()
    let calendar = EKCalendar(for: .event, eventStore: other)
    calendar.title = "Shared"
    calendar.source = other.sources.first
    try other.saveCalendar(calendar, commit: true)
    let mine = try #require(fixture.store.calendar(withIdentifier: calendar.calendarIdentifier))
    let event = EKEvent(eventStore: fixture.store)
    event.calendar = mine
    event.title = "In the new calendar"
    event.startDate = StoreFixture.date("2026-03-02T09:00:00Z")
    event.endDate = event.startDate
    try fixture.store.save(event, span: .thisEvent)
  }

  @Test func aSaveWithCommitWritesWhatWasStagedBeforeIt() throws {
    let fixture = try StoreFixture()
    try fixture.event("Staged", start: "2026-03-02T09:00:00Z", commit: false)
    try fixture.event("Committed", start: "2026-03-03T09:00:00Z", commit: true)
    #expect(fixture.titles(week.0, week.1, in: fixture.secondStore()) == ["Staged", "Committed"])
  }

  @Test func stagedEditsAndRemovalsLayOverTheDatabase() throws {
    let fixture = try StoreFixture()
    let event = try fixture.event("Draft", start: "2026-03-02T09:00:00Z")
    event.title = "Final"
    try fixture.store.save(event, span: .thisEvent, commit: false)
    #expect(fixture.titles(week.0, week.1) == ["Final"])
    #expect(fixture.titles(week.0, week.1, in: fixture.secondStore()) == ["Draft"])
    let added = try fixture.event(
      "Added then removed", start: "2026-03-04T09:00:00Z", commit: false)
    try fixture.store.remove(added, span: .thisEvent, commit: false)
    #expect(fixture.titles(week.0, week.1) == ["Final"])
    try fixture.store.commit()
    #expect(fixture.titles(week.0, week.1, in: fixture.secondStore()) == ["Final"])
  }

  @Test func aBatchIsWrittenAllOrNothing() throws {
    let fixture = try StoreFixture()
    let (calendar, event) = try orphanInANewCalendar(fixture)
    try fixture.event("Good", start: "2026-03-03T09:00:00Z", commit: false)
    try fixture.store.save(event, span: .thisEvent, commit: false)
    // Another process removes the calendar before this store commits.
    let other = try removedElsewhere(calendar, fixture)
    let before = try fixture.itemCount()
    expectEKError(.noCalendar) { try fixture.store.commit() }
    #expect(try fixture.itemCount() == before)
    #expect(fixture.titles(week.0, week.1, in: other).isEmpty)
  }

  /// A single change is written without looking its calendar up first; when another process
  /// has removed the calendar, the foreign key refuses the row, and the error still names the
  /// calendar (and the event).
  @Test(arguments: [false, true])
  func aSingleSaveIntoACalendarRemovedMeanwhileIsRefused(alreadySaved: Bool) throws {
    let fixture = try StoreFixture()
    let (calendar, event) = try orphanInANewCalendar(fixture)
    if alreadySaved {
      try fixture.store.save(event, span: .thisEvent, commit: true)
      event.title = "Orphan, renamed"
    }
    let other = try removedElsewhere(calendar, fixture)
    let before = try fixture.itemCount()
    let message = expectEKError(.noCalendar) {
      try fixture.store.save(event, span: .thisEvent, commit: true)
    }
    // A new event's calendar is looked up when it is saved; a changed event's was there when
    // it was fetched, and its row meets the foreign key as it is written.
    let id = calendar.calendarIdentifier
    let named =
      alreadySaved ? "\(id) of \"\(event.title!)\" is gone" : "calendar \(id) does not exist"
    #expect(message?.contains(named) == true, "\(message ?? "")")
    #expect(try fixture.itemCount() == before)
    // The store goes on: the next save into a calendar that is there is written.
    try fixture.event("After", start: "2026-03-03T09:00:00Z", commit: true)
    #expect(fixture.titles(week.0, week.1, in: other) == ["After"])
  }

  /// A calendar saved in the fixture's store, and a new event in it, not saved.
  private func orphanInANewCalendar(_ fixture: StoreFixture) throws -> (EKCalendar, EKEvent) {
    let calendar = EKCalendar(for: .event, eventStore: fixture.store)
    calendar.title = "Short-lived"
    calendar.source = fixture.store.sources.first { $0.sourceType == .local }
    try fixture.store.saveCalendar(calendar, commit: true)
    let event = EKEvent(eventStore: fixture.store)
    event.calendar = calendar
    event.title = "Orphan"
    event.startDate = StoreFixture.date("2026-03-02T09:00:00Z")
    event.endDate = event.startDate.addingTimeInterval(3600)
    return (calendar, event)
  }

  /// Removes `calendar` through a second store, as another process would; that store.
  private func removedElsewhere(_ calendar: EKCalendar, _ fixture: StoreFixture) throws
    -> EKEventStore
  {
    let other = fixture.secondStore()
    try other.removeCalendar(
      try #require(other.calendar(withIdentifier: calendar.calendarIdentifier)), commit: true)
    return other
  }

  // MARK: What a batch buys, seen from other stores

  /// 300 reminders staged and committed once while a reader on another store polls the list:
  /// the reader sees it empty or whole, never a part, and a third store is posted one
  /// `EKEventStoreChanged` for it. (Written one commit per item, the same reader sees parts of
  /// the list, and the commits of a few hundred milliseconds are posted more than once.)
  @Test func aBatchIsSeenWholeByAConcurrentReaderAndPostedOnce() async throws {
    let fixture = try StoreFixture()
    let (list, watched, notices, before) = try await listWatchedByAThirdStore(fixture)
    let reader = Reader(fixture.secondStore(), list: list.calendarIdentifier, until: 300)
    // The reader is polling before the first save, so that it could see any commit.
    for _ in 0..<20_000 where reader.seen.isEmpty { try await Task.sleep(for: .milliseconds(1)) }
    for index in 1...300 {
      try fixture.store.save(reminder("ingredient \(index)", in: list, fixture), commit: false)
    }
    try fixture.store.commit()
    let waited = Date()
    while !reader.isDone, Date().timeIntervalSince(waited) < 180 {
      try await Task.sleep(for: .milliseconds(20))
    }
    let seen = reader.seen
    print("the reader polled \(seen.count) times and saw \(Set(seen).sorted())")
    #expect(seen.last == 300, "\(Set(seen).sorted())")
    #expect(Set(seen).isSubset(of: [0, 300]), "\(Set(seen).sorted())")
    // Exactly one: the batch's notification, then the notification of a sentinel committed
    // after it, which says that nothing more of the batch is still to come.
    #expect(try await Latency.eventually("the batch's notice") { notices.count >= before + 1 })
    let sentinel = try await notices.commitSentinel(
      from: fixture.store, readBy: fixture.secondStore())
    #expect(try #require(sentinel).notices == before + 2)
    withExtendedLifetime(watched) {}
  }

  /// Three reminders saved with `commit: true`, each after the last one's notification: each
  /// is seen by another store as soon as it is written (a part of the list, deterministically)
  /// and posted on its own, as an app's commits are, one per action of the person.
  @Test func commitsOneByOneAreSeenAndPostedEach() async throws {
    let fixture = try StoreFixture()
    let (list, watched, notices, before) = try await listWatchedByAThirdStore(fixture)
    let reader = fixture.secondStore()
    for index in 1...3 {
      try fixture.store.save(reminder("ingredient \(index)", in: list, fixture), commit: true)
      reader.refreshSourcesIfNecessary()
      #expect(reminderCount(in: list.calendarIdentifier, reader) == index)
      #expect(
        try await Latency.eventually("commit \(index)'s notice") {
          notices.count >= before + index
        })
    }
    // The sentinel's notice comes right after the three: no commit was posted twice.
    let sentinel = try await notices.commitSentinel(
      from: fixture.store, readBy: fixture.secondStore())
    #expect(try #require(sentinel).notices == before + 4)
    withExtendedLifetime(watched) {}
  }

  /// The durability setting docs/PERFORMANCE.md and the batching article rest on: the store
  /// writes with `synchronous=NORMAL` (1), which GRDB sets on opening a WAL database, so a
  /// commit waits for the disk only when it runs a checkpoint (which syncs the WAL and the
  /// database); `FULL` (2) would sync each commit.
  @Test func theStoreCommitsWithSynchronousNormal() throws {
    let fixture = try StoreFixture()
    let database = try #require(fixture.store.database)
    #expect(
      try database.pool.write { try String.fetchOne($0, sql: "PRAGMA journal_mode") } == "wal")
    #expect(try database.pool.write { try Int.fetchOne($0, sql: "PRAGMA synchronous") } == 1)
  }

  /// A new reminders list committed by the fixture's store, and a third store whose
  /// notifications are counted (kept alive by the caller), with the count once the list's
  /// commit was posted: a commit after that is posted apart.
  private func listWatchedByAThirdStore(_ fixture: StoreFixture) async throws -> (
    EKCalendar, EKEventStore, StoreNotices, Int
  ) {
    let watched = fixture.secondStore()
    let notices = StoreNotices(watched)
    let list = EKCalendar(for: .reminder, eventStore: fixture.store)
    list.title = "Shopping"
    list.source = fixture.store.sources.first { $0.sourceType == .local }
    try fixture.store.saveCalendar(list, commit: true)
    try #require(await Latency.eventually("the list's notice") { notices.count >= 1 })
    let before = notices.count
    return (list, watched, notices, before)
  }

  private func reminder(_ title: String, in list: EKCalendar, _ fixture: StoreFixture)
    -> EKReminder
  {
    let reminder = EKReminder(eventStore: fixture.store)
    reminder.calendar = list
    reminder.title = title
    return reminder
  }

  /// A thread polling a list's reminders in its own store (`refreshSourcesIfNecessary`, then
  /// `fetchReminders`) until it sees `until` of them, or for 20 seconds.
  final class Reader: Sendable {
    private let state = Mutex((seen: [Int](), done: false))

    init(_ store: EKEventStore, list: String, until count: Int) {
      Thread.detachNewThread { [self] in
        // Generous: it stops as soon as it sees the whole list, and a loaded machine may keep
        // the test's task from saving for half a minute.
        let deadline = Date().addingTimeInterval(180)
        var last = -1
        while last != count, Date() < deadline {
          store.refreshSourcesIfNecessary()
          last = reminderCount(in: list, store)
          state.withLock { $0.seen.append(last) }
        }
        state.withLock { $0.done = true }
      }
    }

    /// The counts seen, in order.
    var seen: [Int] { state.withLock { $0.seen } }
    var isDone: Bool { state.withLock { $0.done } }
  }

  @Test func manyStagedSavesCommitInOneTransaction() throws {
    let fixture = try StoreFixture()
    let start = StoreFixture.date("2026-01-01T00:00:00Z")
    for index in 0..<500 {
      let event = EKEvent(eventStore: fixture.store)
      event.calendar = fixture.calendar
      event.title = "Event \(index)"
      event.startDate = start.addingTimeInterval(TimeInterval(index * 3600))
      event.endDate = event.startDate.addingTimeInterval(1800)
      try fixture.store.save(event, span: .thisEvent, commit: false)
    }
    try fixture.store.commit()
    let predicate = fixture.store.predicateForEvents(
      withStart: start, end: start.addingTimeInterval(500 * 3600), calendars: [fixture.calendar])
    let events = fixture.secondStore().events(matching: predicate)
    #expect(events.map(\.title) == (0..<500).map { "Event \($0)" })
  }
}

/// The reminders of the list `calendarIdentifier` that `store` fetches; -1 when it has no such
/// list.
private func reminderCount(in calendarIdentifier: String, _ store: EKEventStore) -> Int {
  guard let list = store.calendar(withIdentifier: calendarIdentifier) else { return -1 }
  let found = Mutex(0)
  let done = DispatchSemaphore(value: 0)
  store.fetchReminders(matching: store.predicateForReminders(in: [list])) { reminders in
    found.withLock { $0 = reminders?.count ?? 0 }
    done.signal()
  }
  done.wait()
  return found.withLock { $0 }
}
