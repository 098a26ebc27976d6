import CalDAV
import Foundation
import TestSupport
import Testing

@testable import OpenEventKit
@testable import OpenEventKitSync

/// A CalDAV server started for the test on 127.0.0.1 (Radicale unless the test names another:
/// those whose outcome rests on the server's side of the protocol run against each
/// ``CalDAVServerKind``), with user alice and one calendar collection "Home" taking events and
/// to-dos, made by our client's MKCALENDAR; and "machines": stores of their own, each with the
/// account added, as two computers of the same person would have.
final class SyncFixture: @unchecked Sendable {
  let server: any LocalCalDAVServer
  let folder: TemporaryFolder
  static let user = "alice"
  static let password = "alice-secret"

  init(_ kind: CalDAVServerKind = .radicale) async throws {
    server = try kind.start(user: Self.user, password: Self.password)
    folder = try TemporaryFolder(prefix: "SyncTests")
    let client = try CalDAVClient(baseURL: server.url, user: Self.user, password: Self.password)
    let home = server.home(user: Self.user)
    do {
      _ = try await client.makeCalendar(
        home: home, displayName: "Home", color: "#FF2968", components: ["VEVENT", "VTODO"])
    } catch {
      await client.shutdown()
      throw error
    }
    await client.shutdown()
  }

  /// A new machine: a store of its own with the account added (password kept).
  func machine(_ name: String) async throws -> Machine {
    let machine = try Machine(folder: folder.url.appendingPathComponent(name, isDirectory: true))
    _ = try await machine.accounts.add(
      url: server.url, user: Self.user, password: Self.password, name: "home")
    return machine
  }
}

/// One store: its folder, the store, the accounts, and its calendars of the account.
final class Machine: @unchecked Sendable {
  let folder: URL
  let store: EKEventStore
  let accounts: CalDAVAccounts

  init(folder: URL) throws {
    try FileManager.default.createDirectory(
      at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    self.folder = folder
    let file = folder.appendingPathComponent("Calendar.sqlite")
    store = try EKEventStore(ownerOf: file, create: true)
    accounts = try CalDAVAccounts(databaseFile: file)
  }

  var databaseFile: URL { folder.appendingPathComponent("Calendar.sqlite") }

  @discardableResult
  func sync() async throws -> SyncReport {
    let reports = try await accounts.sync(named: "home")
    store.dropCatalog()
    return try #require(reports.first)
  }

  var events: EKCalendar {
    get throws {
      try #require(
        store.calendars(for: .event).first { $0.source.sourceType == .calDAV && $0.title == "Home" }
      )
    }
  }

  var reminders: EKCalendar {
    get throws {
      try #require(
        store.calendars(for: .reminder).first {
          $0.source.sourceType == .calDAV && $0.title == "Home"
        })
    }
  }

  static func date(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

  @discardableResult
  func event(
    _ title: String, start: String, minutes: Int = 60, rule: EKRecurrenceRule? = nil,
    in calendar: EKCalendar? = nil
  ) throws -> EKEvent {
    let event = EKEvent(eventStore: store)
    event.title = title
    event.calendar = try calendar ?? events
    event.startDate = Self.date(start)
    event.endDate = event.startDate.addingTimeInterval(TimeInterval(minutes * 60))
    if let rule { event.recurrenceRules = [rule] }
    try store.save(event, span: .thisEvent)
    return event
  }

  /// The occurrences in `[start, end)` of the account's calendar, as "title@start" in order.
  func occurrences(_ start: String, _ end: String, in calendar: EKCalendar? = nil) throws
    -> [String]
  {
    let predicate = store.predicateForEvents(
      withStart: Self.date(start), end: Self.date(end), calendars: [try calendar ?? events])
    let formatter = ISO8601DateFormatter()
    return store.events(matching: predicate).map {
      "\($0.title ?? "")@\(formatter.string(from: $0.startDate))"
    }.sorted()
  }

  /// Titles of the items in the local calendar "Conflicts".
  func conflictCopies() -> [String] {
    let calendars = store.calendars(for: .event).filter { $0.title == "Conflicts" }
    guard !calendars.isEmpty else { return [] }
    let predicate = store.predicateForEvents(
      withStart: Self.date("2000-01-01T00:00:00Z"), end: Self.date("2100-01-01T00:00:00Z"),
      calendars: calendars)
    return store.events(matching: predicate).compactMap(\.title).sorted()
  }

  func pendingChanges() throws -> Int {
    try accounts.account(named: "home").pendingChanges
  }
}
