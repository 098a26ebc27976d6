import Foundation
import GRDB
import OpenEventKitSync
import TestSupport
import Testing

@testable import OpenEventKit

/// Subscribed calendars (issue 48, item 1): `ekctl subscribe` and its refreshes against a
/// feed the test serves on 127.0.0.1 (Tests/Fixtures/webcal/feed-server.py), fed with the
/// real-world files of Tests/Fixtures/ics.
@Suite struct SubscriptionTests {
  /// A home with a store, and a feed serving google.ics subscribed as "Team".
  struct Fixture {
    let home: TemporaryHome
    let feed: FeedServer
    let store: EKEventStore

    init(serving text: String? = nil, arguments: [String] = []) throws {
      home = try TemporaryHome()
      store = try EKEventStore(ownerOf: home.calendarDatabase, create: true)
      feed = try FeedServer()
      try feed.serve(text ?? FeedServer.fixture("google.ics"))
      let run = try ekctl(["subscribe", feed.url.absoluteString, "--name", "Team"] + arguments)
      guard run.status == 0 else { throw SubscribeFailed(description: run.output) }
    }

    func ekctl(_ arguments: [String]) throws -> (output: String, status: Int32) {
      try home.ekctl(arguments + ["--db", home.calendarDatabase.path])
    }

    var calendar: EKCalendar? {
      store.calendars(for: .event).first { $0.title == "Team" }
    }

    /// The events of the subscribed calendar in 2025, as `title@start` with their
    /// identifiers.
    func events() -> [String: String] {
      guard let calendar else { return [:] }
      let predicate = store.predicateForEvents(
        withStart: Date(timeIntervalSince1970: 1_735_689_600),  // 2025-01-01
        end: Date(timeIntervalSince1970: 1_767_225_600), calendars: [calendar])
      var found: [String: String] = [:]
      for event in store.events(matching: predicate) {
        found["\(event.title ?? "")@\(Int(event.startDate.timeIntervalSince1970))"] =
          event.calendarItemIdentifier
      }
      return found
    }

    /// The calendar database's `PRAGMA data_version` on `connection`: it changes exactly when
    /// another connection has committed since the last read. Counting notices cannot tell
    /// this: the store posts one notice for a burst of commits.
    func dataVersion(_ connection: DatabaseQueue) throws -> Int {
      try connection.read { try Int.fetchOne($0, sql: "PRAGMA data_version") ?? 0 }
    }

    /// Refreshes bounded by `deadline`: 3 s where the deadline is what is tested (a slow
    /// feed), longer where a loaded machine must not make a healthy feed miss it.
    func subscriptions(deadline: Duration = .seconds(3)) throws -> CalendarSubscriptions {
      try CalendarSubscriptions(databaseFile: home.calendarDatabase, deadline: deadline)
    }
  }

  /// google.ics changed as a feed changes: the offsite renamed, the retro gone, a new event.
  static func changedGoogle() throws -> String {
    var text = try FeedServer.fixture("google.ics")
    text = text.replacingOccurrences(of: "SUMMARY:Team offsite", with: "SUMMARY:Offsite in Lisbon")
    let retro =
      text.range(of: "BEGIN:VEVENT\r\nDTSTART:20250310T170000Z")
      ?? text.range(of: "BEGIN:VEVENT\nDTSTART:20250310T170000Z")!
    let end = text.range(of: "END:VEVENT", range: retro.upperBound..<text.endIndex)!
    text.replaceSubrange(
      retro.lowerBound..<end.upperBound,
      with: """
        BEGIN:VEVENT
        DTSTART:20250612T090000Z
        DTEND:20250612T100000Z
        DTSTAMP:20250301T120000Z
        UID:kickoff-1@google.com
        SUMMARY:Kick-off
        END:VEVENT
        """)
    return text
  }

  @Test func subscribeFetchesTheFeedIntoAReadOnlyCalendar() throws {
    let fixture = try Fixture()
    let calendar = try #require(fixture.calendar)
    #expect(calendar.type == .subscription)
    #expect(calendar.source.sourceType == .subscribed)
    #expect(!calendar.allowsContentModifications)
    #expect(calendar.isSubscribed)
    let events = fixture.events()
    // The weekly stand-up (9 of 10 weeks, 2 excluded, one moved), the offsite, the retro.
    #expect(events.keys.contains { $0.hasPrefix("Stand-up (moved)@") })
    #expect(events.keys.contains { $0.hasPrefix("Team offsite@") })
    #expect(events.keys.filter { $0.hasPrefix("Retro@") }.count == 6)
    let listed = try fixture.ekctl(["subscriptions"])
    #expect(listed.status == 0)
    #expect(listed.output.contains("Team  \(fixture.feed.url.absoluteString)"))
    #expect(listed.output.contains("last refreshed 20"))
    #expect(!listed.output.contains("failed"))
    // The same feed again is refused, by URL.
    let again = try fixture.ekctl(["subscribe", fixture.feed.url.absoluteString])
    #expect(again.status != 0)
    #expect(again.output.contains("subscribed already, as \"Team\""))
  }

  @Test func anUnchangedFeedIsAskedConditionallyAndNothingIsWritten() throws {
    let fixture = try Fixture()
    let before = fixture.events()
    let watcher = try DatabaseQueue(path: fixture.home.calendarDatabase.path)
    let version = try fixture.dataVersion(watcher)
    let sync = try fixture.ekctl(["sync"])
    #expect(sync.status == 0, "\(sync.output)")
    let last = try #require(fixture.feed.requests.last)
    #expect(last.contains("inm=\"") && last.hasSuffix("-> 304"), "\(fixture.feed.requests)")
    // Nothing committed: no other connection wrote the database, so no app is told of a change.
    #expect(try fixture.dataVersion(watcher) == version)
    #expect(fixture.events() == before)
    // A feed without validators that sends the same bytes is not written either.
    try fixture.feed.fail(.noConditional)
    let unchanged = try fixture.ekctl(["sync"])
    #expect(unchanged.output.contains("Team: up to date"), "\(unchanged.output)")
    #expect(try fixture.dataVersion(watcher) == version)
    #expect(fixture.events() == before)
  }

  @Test func aChangedFeedKeepsTheIdentifiersOfWhatItStillHas() async throws {
    let fixture = try Fixture()
    let before = fixture.events()
    let notices = NoticeCounter(fixture.store)
    try fixture.feed.serve(Self.changedGoogle())
    let sync = try fixture.ekctl(["sync"])
    #expect(sync.status == 0, "\(sync.output)")
    #expect(sync.output.contains("Team: refreshed"), "\(sync.output)")
    let after = fixture.events()
    // The stand-up and its moved occurrence: the same identifiers.
    for (key, id) in before where key.hasPrefix("Stand-up") {
      #expect(after[key] == id, "\(key)")
    }
    // The offsite renamed: the same event (its UID), so the same identifier.
    let offsite = try #require(before.first { $0.key.hasPrefix("Team offsite@") })
    let renamed = try #require(after.first { $0.key.hasPrefix("Offsite in Lisbon@") })
    #expect(renamed.value == offsite.value)
    #expect(!after.keys.contains { $0.hasPrefix("Retro@") })
    #expect(after.keys.contains { $0.hasPrefix("Kick-off@") })
    // An identifier an app recorded still finds its event.
    #expect(fixture.store.calendarItem(withIdentifier: offsite.value)?.title == "Offsite in Lisbon")
    // The app is told. (The replacement is one transaction: a reader never sees half of it,
    // aReaderSeesTheOldContentOrTheNewNeverHalf.)
    #expect(try await Latency.eventually("the refresh's notice") { notices.count >= 1 })
  }

  @Test(arguments: FeedServer.Failure.allCases.filter { $0 != .noConditional })
  func aFailingFeedKeepsItsLastContentAndSaysWhy(failure: FeedServer.Failure) async throws {
    let fixture = try Fixture()
    let before = fixture.events()
    try fixture.feed.fail(failure)
    let subscriptions = try fixture.subscriptions()
    let start = ContinuousClock.now
    let outcomes = try await subscriptions.refresh(all: true)
    print("\(failure): refresh failed in \(ContinuousClock.now - start)")
    guard case .failed(let reason) = try #require(outcomes.first).1 else {
      Issue.record("\(failure): \(outcomes)")
      return
    }
    let expected: String =
      switch failure {
      case .notFound: "answered 404"
      case .html: "not an iCalendar file"
      case .huge: "more than 20 MB"
      case .loop: "redirected more than 5 times"
      case .slow: "no whole answer within 3 s"
      case .noConditional: ""
      }
    #expect(reason.contains(expected), "\(reason)")
    #expect(fixture.events() == before)
    let listed = try fixture.ekctl(["subscriptions"])
    #expect(listed.output.contains("last refresh failed: "), "\(listed.output)")
    #expect(listed.output.contains(expected), "\(listed.output)")
    // Back to health: the error goes.
    try fixture.feed.serve(Self.changedGoogle())
    let healed = try await subscriptions.refresh(all: true)
    guard case .replaced = try #require(healed.first).1 else {
      Issue.record("\(healed)")
      return
    }
    #expect(try subscriptions.subscriptions().first?.lastError == nil)
  }

  @Test func aReaderSeesTheOldContentOrTheNewNeverHalf() async throws {
    // Two versions of 1,500 and 2,500 events, 1,000 of them the same.
    func feed(_ range: Range<Int>) -> String {
      var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN"]
      for n in range {
        lines += [
          "BEGIN:VEVENT", "UID:e\(n)@test", "DTSTAMP:20250101T000000Z",
          "DTSTART:2025\(String(format: "%02d", 1 + n % 12))\(String(format: "%02d", 1 + n % 28))T\(String(format: "%02d", n % 24))0000Z",
          "DURATION:PT30M", "SUMMARY:Event \(n)", "END:VEVENT",
        ]
      }
      return (lines + ["END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n"
    }
    let small = feed(0..<1_500)
    let large = feed(500..<3_000)
    let fixture = try Fixture(serving: small)
    let calendarId = try #require(fixture.calendar?.calendarIdentifier)
    let reader = try EKEventStore(ownerOf: fixture.home.calendarDatabase)
    let stop = NSLock()
    nonisolated(unsafe) var done = false
    nonisolated(unsafe) var seen: [Int: Int] = [:]
    let thread = Thread {
      let calendar = reader.calendar(withIdentifier: calendarId)!
      let predicate = reader.predicateForEvents(
        withStart: Date(timeIntervalSince1970: 1_735_000_000),
        end: Date(timeIntervalSince1970: 1_767_225_600), calendars: [calendar])
      while !stop.withLock({ done }) {
        let count = reader.events(matching: predicate).count
        stop.withLock { seen[count, default: 0] += 1 }
      }
    }
    thread.start()
    let subscriptions = try fixture.subscriptions(deadline: .seconds(60))
    for round in 0..<6 {
      try fixture.feed.serve(round % 2 == 0 ? large : small)
      let outcome = try await subscriptions.refresh(all: true)
      guard case .replaced = try #require(outcome.first).1 else {
        Issue.record("\(outcome)")
        break
      }
    }
    stop.withLock { done = true }
    while thread.isExecuting { try await Task.sleep(for: .milliseconds(10)) }
    let counts = stop.withLock { seen }
    print("reads by count of events seen: \(counts)")
    #expect(Set(counts.keys).isSubset(of: [1_500, 2_500]), "\(counts)")
    #expect(counts.values.reduce(0, +) > 6)
  }

  @Test func appsCannotWriteToASubscribedCalendar() throws {
    let fixture = try Fixture()
    let store = try EKEventStore(ownerOf: fixture.home.calendarDatabase)
    let calendar = try #require(store.calendars(for: .event).first { $0.title == "Team" })
    let event = EKEvent(eventStore: store)
    event.title = "Mine"
    event.calendar = calendar
    event.startDate = Date(timeIntervalSince1970: 1_740_000_000)
    event.endDate = event.startDate.addingTimeInterval(3600)
    let before = fixture.events()
    #expect(
      Self.code { try store.save(event, span: .thisEvent, commit: true) } == .calendarReadOnly)
    let id = try #require(before.first { $0.key.hasPrefix("Team offsite@") }?.value)
    let existing = try #require(store.calendarItem(withIdentifier: id) as? EKEvent)
    existing.title = "Changed"
    #expect(
      Self.code { try store.save(existing, span: .thisEvent, commit: true) } == .calendarReadOnly)
    existing.reset()
    #expect(
      Self.code { try store.remove(existing, span: .thisEvent, commit: true) } == .calendarReadOnly)
    calendar.title = "Renamed"
    #expect(Self.code { try store.saveCalendar(calendar, commit: true) } == .calendarIsImmutable)
    calendar.reset()
    #expect(Self.code { try store.removeCalendar(calendar, commit: true) } == .calendarIsImmutable)
    #expect(fixture.events() == before)
    // ekctl unsubscribe does remove it.
    let removed = try fixture.ekctl(["unsubscribe", "team"])
    #expect(removed.status == 0, "\(removed.output)")
    let after = try EKEventStore(ownerOf: fixture.home.calendarDatabase)
    #expect(!after.calendars(for: .event).contains { $0.title == "Team" })
  }

  /// A database from before "v4 subscriptions" (an earlier release's) gets the table when it
  /// is opened, and takes a subscription.
  @Test func aDatabaseFromBeforeSubscriptionsTakesOne() throws {
    let home = try TemporaryHome()
    _ = try EKEventStore(ownerOf: home.calendarDatabase, create: true)
    let queue = try DatabaseQueue(path: home.calendarDatabase.path)
    try queue.write { db in
      try db.execute(sql: "DROP TABLE subscription")
      try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v4 subscriptions'")
    }
    try queue.close()
    let feed = try FeedServer()
    try feed.serve(FeedServer.fixture("outlook.ics"))
    let run = try home.ekctl([
      "subscribe", feed.url.absoluteString, "--db", home.calendarDatabase.path,
    ])
    #expect(run.status == 0, "\(run.output)")
    let store = try EKEventStore(ownerOf: home.calendarDatabase)
    #expect(
      store.calendars(for: .event).contains {
        $0.type == .subscription && $0.isSubscribed && !$0.allowsContentModifications
          && $0.title != "Holidays"
      })
  }

  /// The code of the `EKError` that `body` throws; nil when it throws none.
  static func code(_ body: () throws -> Void) -> EKError.Code? {
    do {
      try body()
      return nil
    } catch {
      return (error as? EKError)?.code
    }
  }

  @Test func theAgentRefreshesEachFeedOnItsInterval() async throws {
    let fixture = try Fixture(arguments: ["--refresh", "1s"])
    let watch = Process()
    watch.executableURL = BuildProducts.executable("ekctl")
    // The accounts' poll an hour away: only the feed's own interval can bring the change.
    watch.arguments = [
      "sync", "--watch", "--interval", "3600", "--db", fixture.home.calendarDatabase.path,
    ]
    watch.environment = fixture.home.environment
    let output = Pipe()
    watch.standardOutput = output
    watch.standardError = output
    try watch.run()
    defer {
      kill(watch.processIdentifier, SIGKILL)
      watch.waitUntilExit()
    }
    try fixture.feed.serve(Self.changedGoogle())
    // Looked at once more after the bound (Latency.eventually): with the test pool's threads
    // held by other suites' blocking tests, this task may wake long after the change came.
    #expect(
      try await Latency.eventually("the agent bringing the feed's change", tight: 5) {
        fixture.events().keys.contains(where: { $0.hasPrefix("Kick-off@") })
      })
  }

  /// An app's `refreshSourcesIfNecessary()` asks the sync agent for a feed that is due, as
  /// for an account: with no agent running, a one-shot `ekctl-sync sync --due` refreshes it.
  @Test func anAppAsksTheAgentForADueFeed() async throws {
    let fixture = try Fixture(arguments: ["--refresh", "1s"])
    try fixture.feed.serve(Self.changedGoogle())
    let app = try EKEventStore(ownerOf: fixture.home.calendarDatabase)
    // Due a second after the subscription's fetch: until then nothing is asked.
    let start = Date()
    var request = app.askSyncAgent()
    while request == .nothingDue && Date().timeIntervalSince(start) < 20 {
      try await Task.sleep(for: .milliseconds(100))
      request = app.askSyncAgent()
    }
    #expect(request != .nothingDue)
    print("asked as \(request) after \(Date().timeIntervalSince(start)) s")
    #expect(
      try await Latency.eventually("the one-shot agent bringing the feed's change", tight: 5) {
        fixture.events().keys.contains(where: { $0.hasPrefix("Kick-off@") })
      })
  }

  @Test func theFeedsOwnRefreshIntervalIsHonoured() throws {
    let text = try FeedServer.fixture("outlook.ics").replacingOccurrences(
      of: "VERSION:2.0", with: "VERSION:2.0\r\nREFRESH-INTERVAL;VALUE=DURATION:PT2H")
    let fixture = try Fixture(serving: text)
    let listed = try fixture.ekctl(["subscriptions", "--json"])
    #expect(listed.output.contains("\"interval\":7200"), "\(listed.output)")
    let plain = try fixture.ekctl(["subscriptions"])
    #expect(plain.output.contains("every 2h (the feed's)"), "\(plain.output)")
  }
}

/// `ekctl subscribe` refused, with what it said.
struct SubscribeFailed: Error, CustomStringConvertible {
  let description: String
}

/// Counts a store's `EKEventStoreChanged` notifications.
final class NoticeCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var received = 0
  private var observer: (any NSObjectProtocol)?

  init(_ store: EKEventStore) {
    observer = NotificationCenter.default.addObserver(
      forName: .EKEventStoreChanged, object: store, queue: nil
    ) { [weak self] _ in self?.lock.withLock { self?.received += 1 } }
  }

  deinit { observer.map(NotificationCenter.default.removeObserver) }

  var count: Int { lock.withLock { received } }
}
