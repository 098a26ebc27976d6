import Foundation
import Testing

@testable import OpenEventKit

/// Reminders: saving, completing, and the three predicates through `fetchReminders`.
@Suite struct ReminderTests {
  func reminder(
    _ fixture: StoreFixture, _ title: String, due: DateComponents?, completed: Bool = false
  ) throws -> EKReminder {
    let reminder = EKReminder(eventStore: fixture.store)
    reminder.calendar = fixture.reminders
    reminder.title = title
    reminder.dueDateComponents = due
    reminder.isCompleted = completed
    try fixture.store.save(reminder, commit: true)
    return reminder
  }

  /// The titles `fetchReminders` delivers, sorted; waits for its background completion.
  func fetch(_ store: EKEventStore, _ predicate: NSPredicate) async -> [String] {
    await withCheckedContinuation { continuation in
      store.fetchReminders(matching: predicate) { reminders in
        continuation.resume(returning: (reminders ?? []).map(\.title).sorted())
      }
    }
  }

  @Test func predicatesSelectByDueAndCompletionDates() async throws {
    let fixture = try StoreFixture()
    let march2 = DateComponents(year: 2026, month: 3, day: 2, hour: 9)
    _ = try reminder(fixture, "Milk", due: march2)
    _ = try reminder(fixture, "Someday", due: nil)
    _ = try reminder(fixture, "April", due: DateComponents(year: 2026, month: 4, day: 1))
    let done = try reminder(fixture, "Done", due: march2, completed: true)
    let completed = try #require(done.completionDate)

    let store = fixture.secondStore()
    #expect(
      await fetch(store, store.predicateForReminders(in: nil))
        == ["April", "Done", "Milk", "Someday"])
    #expect(
      await fetch(
        store,
        store.predicateForIncompleteReminders(withDueDateStarting: nil, ending: nil, calendars: nil)
      ) == ["April", "Milk", "Someday"])
    let start = Calendar.current.date(from: DateComponents(year: 2026, month: 3, day: 1))!
    let end = Calendar.current.date(from: DateComponents(year: 2026, month: 3, day: 31))!
    #expect(
      await fetch(
        store,
        store.predicateForIncompleteReminders(
          withDueDateStarting: start, ending: end, calendars: [fixture.reminders])) == ["Milk"])
    #expect(
      await fetch(
        store,
        store.predicateForCompletedReminders(
          withCompletionDateStarting: completed, ending: completed.addingTimeInterval(1),
          calendars: nil)) == ["Done"])
    #expect(
      await fetch(
        store,
        store.predicateForCompletedReminders(
          withCompletionDateStarting: nil, ending: start, calendars: nil)) == [])
  }

  @Test func completingSetsTheCompletionDate() throws {
    let fixture = try StoreFixture()
    let reminder = try reminder(fixture, "Call mum", due: nil)
    #expect(reminder.completionDate == nil)
    reminder.isCompleted = true
    #expect(reminder.completionDate != nil)
    reminder.completionDate = nil
    #expect(!reminder.isCompleted)
    reminder.completionDate = StoreFixture.date("2026-03-02T10:00:00Z")
    #expect(reminder.isCompleted)
    reminder.priority = Int(EKReminderPriority.low.rawValue)
    reminder.startDateComponents = DateComponents(year: 2026, month: 3, day: 1)
    try fixture.store.save(reminder, commit: true)
    let copy = try #require(
      fixture.secondStore().calendarItem(withIdentifier: reminder.calendarItemIdentifier)
        as? EKReminder)
    #expect(copy.isCompleted && copy.completionDate == StoreFixture.date("2026-03-02T10:00:00Z"))
    #expect(copy.priority == 9 && copy.startDateComponents?.day == 1)
    try fixture.store.remove(reminder, commit: true)
    #expect(
      fixture.secondStore().calendarItem(withIdentifier: reminder.calendarItemIdentifier) == nil)
  }

  @Test func aCancelledFetchNeverCompletes() async throws {
    let fixture = try StoreFixture()
    _ = try reminder(fixture, "Milk", due: nil)
    // Hold the fetch back so that the cancel surely comes first.
    fixture.store.fetchQueue.suspend()
    let cancelled = Flag()
    let request = fixture.store.fetchReminders(
      matching: fixture.store.predicateForReminders(in: nil)
    ) { _ in cancelled.set() }
    fixture.store.cancelFetchRequest(request)
    let delivered = Flag()
    fixture.store.fetchReminders(matching: fixture.store.predicateForReminders(in: nil)) {
      if $0?.map(\.title) == ["Milk"] { delivered.set() }
    }
    fixture.store.fetchQueue.resume()
    for _ in 0..<100 where !delivered.isSet { try await Task.sleep(for: .milliseconds(20)) }
    #expect(delivered.isSet)
    #expect(!cancelled.isSet)
  }
}

/// A flag set from any thread.
final class Flag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false
  func set() { lock.withLock { value = true } }
  var isSet: Bool { lock.withLock { value } }
}
