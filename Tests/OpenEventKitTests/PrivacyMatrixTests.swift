import Foundation
import TestSupport
import Testing

@testable import OpenEventKit

/// Every access status against every kind of store call, from another process (the helper,
/// an app of its own) on a populated store: what each status allows, that nothing else leaks,
/// and that nothing refused is written.
@Suite struct PrivacyMatrixTests {
  static let helper = "org.openeventkit.store-helper"

  /// A populated store the helper has the given access to; returns the helper's answers.
  func probe(events: EKAuthorizationStatus?, reminders: EKAuthorizationStatus?) throws
    -> (answers: [String: String], itemsBefore: Int, itemsAfter: Int, calendarsAfter: Int)
  {
    let folder = try TemporaryFolder()
    // This test process fills the store as an app with full access.
    let settings = try PrivacySettings(folder: folder.url)
    for entity in [EKEntityType.event, .reminder] {
      try settings.set(.fullAccess, for: PrivacySettings.currentAppIdentifier, entityType: entity)
    }
    if let events { try settings.set(events, for: PrivacyMatrixTests.helper, entityType: .event) }
    if let reminders {
      try settings.set(reminders, for: PrivacyMatrixTests.helper, entityType: .reminder)
    }
    let store = EKEventStore(folder: folder.url)
    let event = EKEvent(eventStore: store)
    event.calendar = store.defaultCalendarForNewEvents
    event.title = "Secret meeting"
    event.startDate = ISO8601DateFormatter().date(from: "2026-05-01T09:00:00Z")
    event.endDate = event.startDate.addingTimeInterval(3600)
    try store.save(event, span: .thisEvent)
    let reminder = EKReminder(eventStore: store)
    reminder.calendar = store.defaultCalendarForNewReminders()
    reminder.title = "Secret errand"
    try store.save(reminder, commit: true)
    let before = try count("item", in: folder.url)

    let helper = try HelperProcess([
      "probe", folder.url.path, event.eventIdentifier, reminder.calendarItemIdentifier,
    ])
    let output = try helper.readAll()
    let (status, errors) = helper.finish()
    #expect(status == 0, "\(errors)")
    var answers: [String: String] = [:]
    for line in output.split(separator: "\n") {
      let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
      if parts.count == 2 { answers[parts[0]] = parts[1] }
    }
    return (
      answers, before, try count("item", in: folder.url), try count("calendar", in: folder.url)
    )
  }

  func count(_ table: String, in folder: URL) throws -> Int {
    let database = try CalendarDatabase(location: StoreLocation(folder: folder))
    return try database.pool.read {
      try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM \(table)") ?? 0
    }
  }

  let notAuthorized = "error \(EKError.Code.eventStoreNotAuthorized.rawValue)"

  @Test(arguments: [nil, EKAuthorizationStatus.denied, .restricted])
  func withoutAccessNothingIsSeenOrWritten(status: EKAuthorizationStatus?) throws {
    let (answers, before, after, calendars) = try probe(events: status, reminders: status)
    #expect(answers["event-calendars"] == "0" && answers["reminder-calendars"] == "0")
    #expect(answers["source-calendars"] == "0" && answers["default-calendar"] == "nil")
    #expect(answers["events"] == "0" && answers["enumerated"] == "0")
    #expect(answers["event-lookup"] == "nil" && answers["item-lookup"] == "nil")
    #expect(answers["reminders"] == "0")
    #expect(answers["save-new-event"] == notAuthorized)
    #expect(answers["save-new-reminder"] == notAuthorized)
    #expect(answers["new-calendar"] == notAuthorized)
    #expect(after == before && calendars == 3)
  }

  @Test func fullAccessSeesAndWritesEverything() throws {
    let (answers, before, after, calendars) = try probe(events: .fullAccess, reminders: .fullAccess)
    #expect(answers["event-calendars"] == "2" && answers["reminder-calendars"] == "1")
    #expect(answers["default-calendar"] == "Calendar")
    #expect(answers["event-lookup"] == "found" && answers["item-lookup"] == "found")
    #expect(answers["reminders"] == "1")
    #expect(answers["save-new-event"] == "ok" && answers["save-new-reminder"] == "ok")
    #expect(answers["new-calendar"] == "ok")
    #expect(after == before + 2 && calendars == 4)
    let events = Int(answers["events"] ?? "") ?? 0
    #expect(events >= 4)  // the secret meeting and three holidays
    #expect(answers["enumerated"] == answers["events"])
  }

  @Test func writeOnlyAccessAddsEventsButReadsNothing() throws {
    let (answers, before, after, calendars) = try probe(events: .writeOnly, reminders: nil)
    #expect(answers["event-calendars"] == "1" && answers["default-calendar"] == "Calendar")
    #expect(answers["events"] == "0" && answers["enumerated"] == "0")
    #expect(answers["event-lookup"] == "nil" && answers["item-lookup"] == "nil")
    #expect(answers["reminder-calendars"] == "0" && answers["reminders"] == "0")
    #expect(answers["save-new-event"] == "ok")
    #expect(answers["save-new-reminder"] == notAuthorized)
    #expect(answers["new-calendar"] == notAuthorized)
    #expect(after == before + 1 && calendars == 3)
  }

  @Test func eventsAndRemindersAreDecidedApart() throws {
    let (answers, before, after, _) = try probe(events: .denied, reminders: .fullAccess)
    #expect(answers["event-calendars"] == "0" && answers["events"] == "0")
    #expect(answers["reminder-calendars"] == "1" && answers["reminders"] == "1")
    #expect(answers["item-lookup"] == "found" && answers["event-lookup"] == "nil")
    #expect(answers["save-new-event"] == notAuthorized && answers["save-new-reminder"] == "ok")
    #expect(after == before + 1)
  }

  @Test func accessWithdrawnBeforeACommitWritesNothing() throws {
    let fixture = try StoreFixture()  // this process has full access
    try fixture.event("Staged while allowed", start: "2026-05-01T09:00:00Z", commit: false)
    let before = try fixture.itemCount()
    try PrivacySettings(folder: fixture.folder.url).set(
      .denied, for: PrivacySettings.currentAppIdentifier, entityType: .event)
    expectEKError(.eventStoreNotAuthorized) { try fixture.store.commit() }
    #expect(try fixture.itemCount() == before)
    #expect(fixture.store.calendars(for: .event).isEmpty)
  }

  /// An app that reads `.fullAccess` from `authorizationStatus(for:)` and refetches at once
  /// is not refused by its store's cached decision (read less than a second before, when
  /// access was denied): else it would see no items and tell them as removed.
  @Test func aStatusReadByTheClassMethodIsWhatEveryStoreEnforces() throws {
    let folder = try TemporaryFolder()
    var environment = ProcessInfo.processInfo.environment
    environment["OPENEVENTKIT_HOME"] = folder.url.path
    try StoreLocation.$taskEnvironment.withValue(environment) {
      let app = PrivacySettings.currentAppIdentifier
      try PrivacySettings(folder: folder.url).set(.fullAccess, for: app, entityType: .event)
      let store = EKEventStore()
      let event = EKEvent(eventStore: store)
      event.title = "Seen again"
      event.startDate = Date(timeIntervalSince1970: 1_800_000_000)
      event.endDate = event.startDate.addingTimeInterval(3600)
      event.calendar = store.defaultCalendarForNewEvents
      try store.save(event, span: .thisEvent, commit: true)
      // Decided the way another process (ekctl privacy) decides: no bump in this process.
      let privacy = try PrivacyDatabase(location: StoreLocation(folder: folder.url))
      try privacy.decide(.denied, for: app, entityType: .event, how: "test")
      #expect(EKEventStore.authorizationStatus(for: .event) == .denied)
      #expect(store.event(withIdentifier: event.eventIdentifier) == nil)  // read as denied
      try privacy.decide(.fullAccess, for: app, entityType: .event, how: "test")
      #expect(EKEventStore.authorizationStatus(for: .event) == .fullAccess)
      #expect(store.event(withIdentifier: event.eventIdentifier)?.title == "Seen again")
    }
  }

  /// Reading the status before anything was decided (an app's launch) answers not determined
  /// and writes no file: an app that only reads the status leaves the person's folder as it
  /// was (recipe-reminders' browsing, which never opens the store).
  @Test func readingTheStatusBeforeAnyDecisionMakesNoFile() throws {
    let folder = try TemporaryFolder()
    var environment = ProcessInfo.processInfo.environment
    environment["OPENEVENTKIT_HOME"] = folder.url.path
    StoreLocation.$taskEnvironment.withValue(environment) {
      #expect(EKEventStore.authorizationStatus(for: .event) == .notDetermined)
      #expect(EKEventStore.authorizationStatus(for: .reminder) == .notDetermined)
    }
    let made = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
    #expect(made.isEmpty, "\(made)")
  }
}
