import Foundation
import GRDB
import OpenEventKit
import TestSupport
import Testing

/// The access matrix from separate processes: for each status the person can give an app (per
/// entity type, set with `ekctl privacy`), `oek-store-helper privacy-probe` makes every call of
/// the store as that app against a store another program populated, and each answer must be
/// the one ``table`` gives, with nothing written but what the table allows. Then an app that
/// keeps running (`probe-loop`) while the person revokes and grants its access from outside.
@Suite struct PrivacyProcessTests {
  static let app = "org.openeventkit.store-helper"

  /// Which decision a call depends on.
  enum Entity {
    case events, reminders, neither
  }

  /// One call of the probe: its answer under each status of the entity it depends on, and
  /// what it writes when it succeeds ("ok").
  struct Row {
    var call: String
    var entity: Entity
    /// Events: notDetermined, restricted, denied, fullAccess, writeOnly. Reminders: the first
    /// four (write-only access exists for events only). Neither: one answer for all.
    var answers: [String]
    var items = 0
    var calendars = 0
  }

  static let eventStatuses: [EKAuthorizationStatus] = [
    .notDetermined, .restricted, .denied, .fullAccess, .writeOnly,
  ]

  // The answers, written once. "no" is the refusal for want of access (EKError 29,
  // eventStoreNotAuthorized); "unreachable", an object the app cannot get hold of to change,
  // because it cannot read it. The populated store (`populate`): Calendar (the default) with
  // one event; Work with a daily series of 10; Old, empty; the subscribed Holidays with three
  // all-day events a year (four of them meet 2026 on the Paris clock the helper runs on: New
  // Year's Day 2027 starts at 23:00 UTC on 31 December); Reminders with one reminder due and
  // one completed.
  static let no = "error \(EKError.Code.eventStoreNotAuthorized.rawValue)"
  static let noCalendar = "error \(EKError.Code.noCalendar.rawValue)"
  static let u = "unreachable"
  static let table: [Row] = [
    Row(call: "store-identifier", entity: .neither, answers: ["set"]),
    Row(call: "sources", entity: .neither, answers: ["2"]),
    Row(
      call: "authorization-events", entity: .events,
      answers: ["notDetermined", "restricted", "denied", "fullAccess", "writeOnly"]),
    Row(call: "event-calendars", entity: .events, answers: ["0", "0", "0", "4", "1"]),
    Row(call: "source-event-calendars", entity: .events, answers: ["0", "0", "0", "4", "1"]),
    Row(
      call: "default-event-calendar", entity: .events,
      answers: ["nil", "nil", "nil", "Calendar", "Calendar"]),
    Row(
      call: "calendar-lookup-default", entity: .events,
      answers: ["nil", "nil", "nil", "found", "found"]),
    Row(
      call: "calendar-lookup-work", entity: .events, answers: ["nil", "nil", "nil", "found", "nil"]),
    Row(call: "events", entity: .events, answers: ["0", "0", "0", "15", "0"]),
    Row(call: "enumerated", entity: .events, answers: ["0", "0", "0", "15", "0"]),
    Row(call: "event-lookup", entity: .events, answers: ["nil", "nil", "nil", "found", "nil"]),
    Row(
      call: "event-item-lookup", entity: .events, answers: ["nil", "nil", "nil", "found", "nil"]),
    Row(call: "external-lookup", entity: .events, answers: ["0", "0", "0", "1", "0"]),
    Row(call: "stamps-event", entity: .events, answers: ["nil", "nil", "nil", "found", "nil"]),
    Row(call: "export-events", entity: .events, answers: ["0", "0", "0", "5", no]),
    Row(call: "save-new-event", entity: .events, answers: [no, no, no, "ok", "ok"], items: 1),
    Row(
      call: "save-new-event-work", entity: .events, answers: [no, no, no, "ok", noCalendar],
      items: 1),
    Row(call: "staged-event", entity: .events, answers: [no, no, no, "ok", "ok"], items: 1),
    Row(call: "change-event", entity: .events, answers: [u, u, u, "ok", u]),
    Row(call: "remove-event", entity: .events, answers: [u, u, u, "ok", u], items: -1),
    Row(call: "change-occurrence", entity: .events, answers: [u, u, u, "ok", u], items: 1),
    Row(call: "remove-occurrences", entity: .events, answers: [u, u, u, "ok", u]),
    Row(call: "new-calendar", entity: .events, answers: [no, no, no, "ok", no], calendars: 1),
    Row(call: "change-calendar", entity: .events, answers: [u, u, u, "ok", u]),
    Row(call: "remove-calendar", entity: .events, answers: [u, u, u, "ok", u], calendars: -1),
    Row(
      call: "import-events", entity: .events, answers: [no, no, no, "ok", no], items: 1,
      calendars: 1),
    Row(
      call: "authorization-reminders", entity: .reminders,
      answers: ["notDetermined", "restricted", "denied", "fullAccess"]),
    Row(call: "reminder-calendars", entity: .reminders, answers: ["0", "0", "0", "1"]),
    Row(call: "source-reminder-calendars", entity: .reminders, answers: ["0", "0", "0", "1"]),
    Row(
      call: "default-reminder-list", entity: .reminders,
      answers: ["nil", "nil", "nil", "Reminders"]),
    Row(call: "calendar-lookup-list", entity: .reminders, answers: ["nil", "nil", "nil", "found"]),
    Row(call: "reminder-lookup", entity: .reminders, answers: ["nil", "nil", "nil", "found"]),
    Row(call: "reminders-all", entity: .reminders, answers: ["0", "0", "0", "2"]),
    Row(call: "reminders-incomplete", entity: .reminders, answers: ["0", "0", "0", "1"]),
    Row(call: "reminders-completed", entity: .reminders, answers: ["0", "0", "0", "1"]),
    Row(call: "stamps-reminder", entity: .reminders, answers: ["nil", "nil", "nil", "found"]),
    Row(call: "export-reminders", entity: .reminders, answers: ["0", "0", "0", "2"]),
    Row(call: "save-new-reminder", entity: .reminders, answers: [no, no, no, "ok"], items: 1),
    Row(call: "staged-reminder", entity: .reminders, answers: [no, no, no, "ok"], items: 1),
    Row(call: "change-reminder", entity: .reminders, answers: [u, u, u, "ok"]),
    Row(call: "remove-reminder", entity: .reminders, answers: [u, u, u, "ok"], items: -1),
    Row(call: "new-list", entity: .reminders, answers: [no, no, no, "ok"], calendars: 1),
    Row(
      call: "import-reminders", entity: .reminders, answers: [no, no, no, "ok"], items: 1,
      calendars: 1),
  ]

  /// The answer the table gives for `row` when the app has `events` and `reminders`.
  static func answer(
    _ row: Row, events: EKAuthorizationStatus, reminders: EKAuthorizationStatus
  ) -> String {
    switch row.entity {
    case .neither: row.answers[0]
    case .events: row.answers[eventStatuses.firstIndex(of: events)!]
    case .reminders: row.answers[eventStatuses.firstIndex(of: reminders)!]
    }
  }

  /// The status as `ekctl privacy set` spells it; nil for not determined (no decision at all).
  static func word(_ status: EKAuthorizationStatus) -> String? {
    switch status {
    case .fullAccess: "full"
    case .writeOnly: "write-only"
    case .denied: "denied"
    case .restricted: "restricted"
    default: nil
    }
  }

  /// The identifiers of what `populate` made, as the probe takes them.
  struct Populated {
    var ids: [String: String]
    var arguments: [String] { ids.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" } }
  }

  /// Fills `home`'s store as its owner (no decision applies): the store the table describes.
  static func populate(_ home: TemporaryHome) throws -> Populated {
    let store = try EKEventStore(ownerOf: home.calendarDatabase, create: true)
    let local = try #require(store.sources.first { $0.sourceType == .local })
    func calendar(_ title: String) throws -> EKCalendar {
      let calendar = EKCalendar(for: .event, eventStore: store)
      calendar.title = title
      calendar.source = local
      try store.saveCalendar(calendar, commit: true)
      return calendar
    }
    let work = try calendar("Work")
    let old = try calendar("Old")
    let date = { (text: String) in ISO8601DateFormatter().date(from: text)! }
    let event = EKEvent(eventStore: store)
    event.calendar = store.defaultCalendarForNewEvents
    event.title = "Secret meeting"
    event.startDate = date("2026-05-01T09:00:00Z")
    event.endDate = date("2026-05-01T10:00:00Z")
    try store.save(event, span: .thisEvent)
    let series = EKEvent(eventStore: store)
    series.calendar = work
    series.title = "Standup"
    series.startDate = date("2026-05-04T09:00:00Z")
    series.endDate = date("2026-05-04T09:15:00Z")
    series.recurrenceRules = [
      EKRecurrenceRule(
        recurrenceWith: .daily, interval: 1, end: EKRecurrenceEnd(occurrenceCount: 10))
    ]
    try store.save(series, span: .futureEvents)
    let reminder = EKReminder(eventStore: store)
    reminder.calendar = store.defaultCalendarForNewReminders()
    reminder.title = "Secret errand"
    reminder.dueDateComponents = DateComponents(year: 2026, month: 5, day: 2)
    try store.save(reminder, commit: true)
    let completed = EKReminder(eventStore: store)
    completed.calendar = store.defaultCalendarForNewReminders()
    completed.title = "Done errand"
    completed.isCompleted = true
    try store.save(completed, commit: true)
    return Populated(ids: [
      "event": event.eventIdentifier, "series": series.eventIdentifier,
      "reminder": reminder.calendarItemIdentifier,
      "completed": completed.calendarItemIdentifier,
      "calendar": try #require(store.defaultCalendarForNewEvents).calendarIdentifier,
      "work": work.calendarIdentifier, "old": old.calendarIdentifier,
      "list": try #require(store.defaultCalendarForNewReminders()).calendarIdentifier,
    ])
  }

  /// Items and calendars in the store, and what the probe may have changed, read straight
  /// from the file.
  struct Contents: Equatable {
    var items: Int
    var calendars: Int
    var eventTitle: String?
    var reminderTitle: String?
    var workTitle: String?
    var oldThere: Bool
  }

  static func contents(_ home: TemporaryHome, _ populated: Populated) throws -> Contents {
    var configuration = Configuration()
    configuration.readonly = true
    let database = try DatabaseQueue(
      path: home.calendarDatabase.path, configuration: configuration)
    return try database.read { db in
      let title = { (table: String, key: String) in
        try String.fetchOne(
          db, sql: "SELECT title FROM \(table) WHERE id = ?", arguments: [populated.ids[key]])
      }
      return Contents(
        items: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") ?? -1,
        calendars: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM calendar") ?? -1,
        eventTitle: try title("item", "event"), reminderTitle: try title("item", "reminder"),
        workTitle: try title("calendar", "work"), oldThere: try title("calendar", "old") != nil)
    }
  }

  /// The pairs of statuses run: each status of each entity type at least once, beside a
  /// different one for the other type; in the full form, every pair.
  static let pairs: [(EKAuthorizationStatus, EKAuthorizationStatus)] =
    Scale.isFull
    ? eventStatuses.flatMap { events in eventStatuses.dropLast().map { (events, $0) } }
    : [
      (.notDetermined, .fullAccess), (.restricted, .notDetermined), (.denied, .restricted),
      (.fullAccess, .denied), (.writeOnly, .fullAccess), (.fullAccess, .fullAccess),
    ]

  @Test(arguments: 0..<pairs.count)
  func everyCallAnswersAsTheTableSaysFromItsOwnProcess(pair index: Int) throws {
    let (events, reminders) = Self.pairs[index]
    let home = try TemporaryHome()
    let populated = try Self.populate(home)
    for (status, entity) in [(events, "events"), (reminders, "reminders")] {
      if let word = Self.word(status) { try home.decide(word, app: Self.app, entity: entity) }
    }
    let before = try Self.contents(home, populated)
    let probe = try run(
      "oek-store-helper", ["privacy-probe", home.url.path] + populated.arguments, home: home)
    #expect(probe.status == 0, "\(probe)")
    var answers: [String: String] = [:]
    for line in probe.output.split(separator: "\n") {
      let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
      if parts.count == 2 { answers[parts[0]] = parts[1] }
    }
    let context = "events \(events), reminders \(reminders)"
    #expect(Set(answers.keys) == Set(Self.table.map(\.call)), "\(context): \(probe.output)")
    var expected = before
    for row in Self.table {
      let answer = Self.answer(row, events: events, reminders: reminders)
      #expect(answers[row.call] == answer, "\(context): \(row.call)")
      if answer == "ok" {
        expected.items += row.items
        expected.calendars += row.calendars
      }
    }
    // Nothing is written but what the table allows.
    let allowed = { (call: String) in
      Self.table.first { $0.call == call }.map {
        Self.answer($0, events: events, reminders: reminders) == "ok"
      } ?? false
    }
    if allowed("remove-event") {
      expected.eventTitle = nil
    } else if allowed("change-event") {
      expected.eventTitle = "Changed by the app"
    }
    if allowed("change-reminder") { expected.reminderTitle = "Changed by the app" }
    if allowed("change-calendar") { expected.workTitle = "Renamed by the app" }
    if allowed("remove-calendar") { expected.oldThere = false }
    #expect(try Self.contents(home, populated) == expected, "\(context)")
  }
}

/// An app that keeps running while the person changes its access from outside with `ekctl
/// privacy`: each change reaches it without a restart, and it keeps running. (On Apple's
/// systems, turning an app's access off in Settings ends the app; OpenEventKit has no system
/// process to do that, so the running app's store refuses instead: OpenEventKit.docc/Privacy.md.)
@Suite struct RunningAppPrivacyTests {
  /// One line of `oek-store-helper probe-loop`.
  struct Tick: Equatable {
    var number: Int
    var status: String
    var events: Int
    var reminders: Int
    var lookup: String
    var save: String
    var change: String

    init?(_ line: Substring) {
      // tick N status S events E reminders R lookup L save RESULT change RESULT
      let words = line.split(separator: " ").map(String.init)
      guard words.count >= 13, words[0] == "tick", let number = Int(words[1]),
        let events = Int(words[5]), let reminders = Int(words[7]),
        let saveAt = words.firstIndex(of: "save"), let changeAt = words.lastIndex(of: "change")
      else { return nil }
      (self.number, status, self.events, self.reminders, lookup) =
        (number, words[3], events, reminders, words[9])
      save = words[(saveAt + 1)..<changeAt].joined(separator: " ")
      change = words[(changeAt + 1)...].joined(separator: " ")
    }
  }

  /// The ticks the loop has printed so far.
  static func ticks(_ loop: SampleRun) -> [Tick] {
    loop.output.split(separator: "\n").compactMap(Tick.init)
  }

  /// Waits for the first tick after `number` that `holds`, polling the loop's output, for at
  /// most `deadline` seconds (generous: the promise is a second, OpenEventKit.docc/Privacy.md, and the
  /// machine may be busy; the time it took is not what this test checks).
  static func firstTick(
    after number: Int, of loop: SampleRun, deadline: TimeInterval = 15,
    where holds: (Tick) -> Bool
  ) throws -> Tick {
    let end = Date().addingTimeInterval(deadline)
    while true {
      if let tick = ticks(loop).first(where: { $0.number > number && holds($0) }) {
        return tick
      }
      guard Date() < end else {
        throw NoSuchTick(after: number, output: String(loop.output.suffix(3_000)))
      }
      Thread.sleep(forTimeInterval: 0.02)
    }
  }

  /// The loop printed no tick as expected before the deadline.
  struct NoSuchTick: Error, CustomStringConvertible {
    var after: Int
    var output: String
    var description: String { "no tick after \(after) as expected; the last lines:\n\(output)" }
  }

  /// The last tick printed so far.
  static func lastTick(_ loop: SampleRun) -> Int { ticks(loop).last?.number ?? 0 }

  @Test func revokingAndGrantingReachARunningApp() throws {
    let home = try TemporaryHome()
    let populated = try PrivacyProcessTests.populate(home)
    let app = PrivacyProcessTests.app
    try home.decide("full", app: app, entity: "events")
    try home.decide("full", app: app, entity: "reminders")
    let loop = try SampleRun(
      executable: "oek-store-helper",
      arguments: ["probe-loop", home.url.path, populated.ids["event"]!], home: home)
    defer { _ = try? loop.finish() }

    let allowed = { (tick: Tick) in
      tick.status == "fullAccess" && tick.events >= 15 && tick.lookup == "found"
        && tick.save == "ok" && tick.change == "ok" && tick.reminders == 2
    }
    let no = PrivacyProcessTests.no
    /// Refused everything about events; reminders, decided apart, read as `reminders` says.
    let refused = { (status: String, reminders: Int) in
      { (tick: Tick) in
        tick.status == status && tick.events == 0 && tick.lookup == "nil" && tick.save == no
          && tick.change == no && tick.reminders == reminders
      }
    }
    let writeOnly = { (tick: Tick) in
      tick.status == "writeOnly" && tick.events == 0 && tick.lookup == "nil" && tick.save == "ok"
        && tick.change == no && tick.reminders == 2
    }
    var seen = try Self.firstTick(after: 0, of: loop, where: allowed)

    // Each decision, as a person makes it from another terminal, and what the app must come
    // to: from the first tick that shows it, every later tick shows it too, until the next.
    let steps: [([String], (Tick) -> Bool)] = [
      (["set", "--entity", "events", "denied"], refused("denied", 2)),
      (["set", "--entity", "events", "full"], allowed),
      (["set", "--entity", "events", "write-only"], writeOnly),
      (["set", "--entity", "events", "restricted"], refused("restricted", 2)),
      // Forgets both decisions: the app has not asked, for events or reminders.
      (["reset"], refused("notDetermined", 0)),
      (
        ["set", "--entity", "events", "full"],
        { $0.status == "fullAccess" && $0.events >= 15 && $0.change == "ok" && $0.reminders == 0 }
      ),
    ]
    var previous = seen
    for (words, holds) in steps {
      let issued = Self.lastTick(loop)
      let decide = try home.ekctl(
        ["privacy"] + words.prefix(1) + ["--app", app] + words.dropFirst()
          + ["--db", home.calendarDatabase.path])
      #expect(decide.status == 0, "\(decide.output)")
      seen = try Self.firstTick(after: issued, of: loop, where: holds)
      // Settled: the ticks after it (at least five) all hold too, and the app runs on.
      let settled = try Self.firstTick(after: seen.number + 4, of: loop) { _ in true }
      let since = Self.ticks(loop).filter {
        $0.number >= seen.number && $0.number <= settled.number
      }
      #expect(since.allSatisfy(holds), "after \(words): \(since)")
      #expect(seen.number > previous.number)
      previous = settled
    }
  }
}
