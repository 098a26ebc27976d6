import Foundation
import TestSupport
import Testing

@testable import OpenEventKit

/// A calendar database of its own in a temporary folder, and stores opened on it.
final class StoreFixture {
  let folder: TemporaryFolder
  let store: EKEventStore

  /// The apps given full access to events and reminders: this test process and the helper
  /// process that plays another app. (AccessRequestTests and PrivacyMatrixTests start from no
  /// decision at all.)
  static let trustedApps = [PrivacySettings.currentAppIdentifier, "org.openeventkit.store-helper"]

  init() throws {
    folder = try TemporaryFolder()
    let settings = try PrivacySettings(folder: folder.url)
    for app in StoreFixture.trustedApps {
      for entity in [EKEntityType.event, .reminder] {
        try settings.set(.fullAccess, for: app, entityType: entity)
      }
    }
    store = EKEventStore(folder: folder.url)
  }

  /// Another store on the same database file, as another app would open it.
  func secondStore() -> EKEventStore { EKEventStore(folder: folder.url) }

  var calendar: EKCalendar { store.defaultCalendarForNewEvents! }
  var reminders: EKCalendar { store.defaultCalendarForNewReminders()! }

  /// A date from its ISO 8601 text, `2026-03-01T09:00:00Z`.
  static func date(_ text: String) -> Date {
    ISO8601DateFormatter().date(from: text)!
  }

  /// A saved event in the default calendar.
  @discardableResult
  func event(
    _ title: String, start: String, minutes: Int = 60, rule: EKRecurrenceRule? = nil,
    commit: Bool = true
  ) throws -> EKEvent {
    let event = EKEvent(eventStore: store)
    event.title = title
    event.calendar = calendar
    event.startDate = StoreFixture.date(start)
    event.endDate = event.startDate.addingTimeInterval(TimeInterval(minutes * 60))
    if let rule { event.recurrenceRules = [rule] }
    try store.save(event, span: .thisEvent, commit: commit)
    return event
  }

  /// The titles of the occurrences in `[start, end)`, in order.
  func titles(_ start: String, _ end: String, in store: EKEventStore? = nil) -> [String] {
    let store = store ?? self.store
    let predicate = store.predicateForEvents(
      withStart: StoreFixture.date(start), end: StoreFixture.date(end), calendars: nil)
    return store.events(matching: predicate).map(\.title)
  }

  /// Rows in the item table, read straight from the file.
  func itemCount() throws -> Int {
    let database = try CalendarDatabase(location: StoreLocation(folder: folder.url))
    return try database.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM item") ?? 0 }
  }
}

/// Expects `body` to throw an `EKError` with `code`, and returns its message.
@discardableResult
func expectEKError(
  _ code: EKError.Code, sourceLocation: SourceLocation = #_sourceLocation,
  _ body: () throws -> Void
) -> String? {
  do {
    try body()
    Issue.record("expected EKError.\(code), but nothing was thrown", sourceLocation: sourceLocation)
  } catch let error as EKError {
    #expect(error.code == code, "\(error.localizedDescription)", sourceLocation: sourceLocation)
    return error.localizedDescription
  } catch {
    Issue.record("expected EKError.\(code), got \(error)", sourceLocation: sourceLocation)
  }
  return nil
}
