import Foundation
import Testing

@testable import OpenEventKit

/// `AlarmLedger`: the rounds of alarm agents on a clock the tests set, against real files.
@Suite struct AlarmLedgerTests {
  let fixture: StoreFixture
  var store: EKEventStore { fixture.store }
  let grace: TimeInterval = 15 * 60

  init() throws { fixture = try StoreFixture() }

  static func at(_ text: String) -> Date { StoreFixture.date(text) }

  /// An event with one alarm `minutes` before its start.
  @discardableResult
  func event(_ title: String, start: String, alarm minutes: Double, rule: EKRecurrenceRule? = nil)
    throws -> EKEvent
  {
    let event = try fixture.event(title, start: start, rule: rule, commit: false)
    event.addAlarm(EKAlarm(relativeOffset: -minutes * 60))
    try store.save(event, span: .futureEvents)
    return event
  }

  func titles(_ round: AlarmLedger.Round) -> [String] { round.due.map(\.firing.title) }

  @Test func aFiringIsDeliveredOnceEvenAcrossARestart() throws {
    try event("Dentist", start: "2026-03-02T10:00:00Z", alarm: 15)
    let ledger = try AlarmLedger(for: store)
    let early = try ledger.round(of: store, at: Self.at("2026-03-02T09:00:00Z"), grace: grace)
    #expect(early.due.isEmpty && early.missed.isEmpty)
    #expect(early.nextWake == Self.at("2026-03-02T09:45:00Z"))
    let due = try ledger.round(of: store, at: Self.at("2026-03-02T09:45:00Z"), grace: grace)
    #expect(titles(due) == ["Dentist"])
    #expect(due.due.first?.wasSnoozed == false)
    #expect(try ledger.entry(id: try #require(due.due.first).firing.id)?.state == .fired)
    // The same round again, and a new agent on the same folder: nothing fires twice.
    #expect(
      try ledger.round(of: store, at: Self.at("2026-03-02T09:45:00Z"), grace: grace).due.isEmpty)
    let restarted = try AlarmLedger(for: fixture.secondStore())
    #expect(
      try restarted.round(
        of: fixture.secondStore(), at: Self.at("2026-03-02T09:50:00Z"), grace: grace
      )
      .due.isEmpty)
    // With nothing ahead, the next round is a day later.
    let idle = try ledger.round(of: store, at: Self.at("2026-03-02T12:00:00Z"), grace: grace)
    #expect(idle.nextWake == Self.at("2026-03-03T12:00:00Z"))
  }

  @Test func whatFiredWhileNoAgentRanFiresWithinTheGraceAndIsMissedBeyond() throws {
    try event("Early call", start: "2026-03-02T08:00:00Z", alarm: 10)  // fires 07:50
    try event("Stand-up", start: "2026-03-02T09:00:00Z", alarm: 10)  // fires 08:50
    let ledger = try AlarmLedger(for: store)
    _ = try ledger.round(of: store, at: Self.at("2026-03-02T07:00:00Z"), grace: grace)
    // The machine sleeps from 07:00 to 09:00: 07:50 is over 15 minutes old, 08:50 is not.
    let woken = try ledger.round(of: store, at: Self.at("2026-03-02T09:00:00Z"), grace: grace)
    #expect(titles(woken) == ["Stand-up"])
    #expect(woken.missed.map(\.title) == ["Early call"])
    let missed = try #require(woken.missed.first)
    #expect(try ledger.entry(id: missed.id)?.state == .missed)
    // Told once.
    #expect(
      try ledger.round(of: store, at: Self.at("2026-03-02T09:01:00Z"), grace: grace).missed.isEmpty)
  }

  @Test func aSnoozedFiringComesBackAndADismissedOneNever() throws {
    try event("Call Ann", start: "2026-03-02T10:00:00Z", alarm: 0)
    try event("Call Bob", start: "2026-03-02T11:00:00Z", alarm: 0)
    let ledger = try AlarmLedger(for: store)
    let first = try ledger.round(of: store, at: Self.at("2026-03-02T10:00:00Z"), grace: grace)
    let ann = try #require(first.due.first?.firing)
    try ledger.snooze(
      ann, until: Self.at("2026-03-02T10:10:00Z"), at: Self.at("2026-03-02T10:01:00Z"))
    // Bob's is dismissed before it fires.
    let bob = try #require(
      store.alarmFirings(from: Self.at("2026-03-02T10:30:00Z"), to: Self.at("2026-03-02T11:30:00Z"))
        .first)
    try ledger.dismiss(bob, at: Self.at("2026-03-02T10:02:00Z"))
    let waiting = try ledger.round(of: store, at: Self.at("2026-03-02T10:05:00Z"), grace: grace)
    #expect(waiting.due.isEmpty && waiting.nextWake == Self.at("2026-03-02T10:10:00Z"))
    let back = try ledger.round(of: store, at: Self.at("2026-03-02T10:10:00Z"), grace: grace)
    #expect(titles(back) == ["Call Ann"] && back.due.first?.wasSnoozed == true)
    #expect(try ledger.entry(id: ann.id)?.state == .fired)
    #expect(
      try ledger.round(of: store, at: Self.at("2026-03-02T11:00:00Z"), grace: grace).due.isEmpty)
    #expect(try ledger.entry(id: bob.id)?.state == .dismissed)
  }

  @Test func twoAgentsAtOnceDeliverEachFiringOnce() throws {
    let rule = EKRecurrenceRule(recurrenceWith: .daily, interval: 1, end: nil)
    try event("Pills", start: "2026-03-02T08:00:00Z", alarm: 0, rule: rule)
    let one = try AlarmLedger(for: store)
    let other = fixture.secondStore()
    let two = try AlarmLedger(for: other)
    var delivered: [String] = []
    for day in 2...6 {
      let now = Self.at("2026-03-0\(day)T08:00:00Z")
      let rounds = [
        try one.round(of: store, at: now, grace: grace),
        try two.round(of: other, at: now, grace: grace),
      ]
      delivered += rounds.flatMap { $0.due.map(\.firing.id) }
    }
    #expect(delivered.count == 5 && Set(delivered).count == 5)
  }

  @Test func anEditFromAnotherAppMovesTheNextWake() throws {
    let event = try event("Flight", start: "2026-03-02T18:00:00Z", alarm: 60)
    let ledger = try AlarmLedger(for: store)
    let before = try ledger.round(of: store, at: Self.at("2026-03-02T12:00:00Z"), grace: grace)
    #expect(before.nextWake == Self.at("2026-03-02T17:00:00Z"))
    let other = fixture.secondStore()
    let theirs = try #require(other.event(withIdentifier: event.eventIdentifier))
    theirs.alarms = [EKAlarm(relativeOffset: -4 * 3600)]
    try other.save(theirs, span: .thisEvent)
    let after = try ledger.round(of: store, at: Self.at("2026-03-02T12:00:01Z"), grace: grace)
    #expect(after.nextWake == Self.at("2026-03-02T14:00:00Z"))
  }

  /// Imports an event repeating without end at `frequency` (MINUTELY, SECONDLY: EventKit's
  /// API cannot make one, a file can), with an alarm at its start.
  func importEndless(_ frequency: String, title: String) throws {
    let file = """
      BEGIN:VCALENDAR\r
      VERSION:2.0\r
      PRODID:-//Test//Alarms//EN\r
      BEGIN:VEVENT\r
      UID:\(title)@test\r
      DTSTAMP:20260101T000000Z\r
      DTSTART:20260101T000000Z\r
      DURATION:PT1S\r
      SUMMARY:\(title)\r
      RRULE:FREQ=\(frequency)\r
      BEGIN:VALARM\r
      ACTION:DISPLAY\r
      DESCRIPTION:\(title)\r
      TRIGGER:PT0S\r
      END:VALARM\r
      END:VEVENT\r
      END:VCALENDAR\r

      """
    _ = try store.importICalendar(Data(file.utf8))
  }

  /// The rows of the ledger, read straight from its file.
  func ledgerRows(_ ledger: AlarmLedger) throws -> Int {
    try ledger.database.queue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM firing") }
      ?? 0
  }

  /// An agent back after 24 days beside an alarm every minute: the missed firings are three
  /// lines and one summary with their count, and the ledger has a row for each told, not for
  /// each of the 34,561 firings (before, each was returned and recorded).
  @Test func weeksOfMissedFiringsAreAFewLinesAndAFewRows() throws {
    try importEndless("MINUTELY", title: "Ping")
    let ledger = try AlarmLedger(for: store)
    let away = Self.at("2026-02-01T00:00:00Z")
    _ = try ledger.round(of: store, at: away, grace: grace)
    let rowsBefore = try ledgerRows(ledger)
    let back = away.addingTimeInterval(24 * 86_400)
    let round = try ledger.round(of: store, at: back, grace: grace)
    // 24 days of minutes after the one the first round delivered, `back`'s included: the
    // last 15 minutes and `back` are due, the first three told, the rest counted.
    let firings = 24 * 1440
    #expect(round.due.count == 16)
    #expect(
      round.missed.map(\.fireDate) == (1...3).map { away.addingTimeInterval(Double($0 * 60)) })
    #expect(round.missedSummaries.count == 1)
    let summary = try #require(round.missedSummaries.first)
    #expect(summary.count == firings - 16 - 3)
    #expect(summary.first == away.addingTimeInterval(4 * 60))
    #expect(summary.last.fireDate == back.addingTimeInterval(-16 * 60))
    #expect(summary.last.title == "Ping" && summary.interval == 60)
    #expect(try ledgerRows(ledger) == rowsBefore + 16 + 3)
    // Told once: the next round starts where this one ended.
    let next = try ledger.round(of: store, at: back.addingTimeInterval(30), grace: grace)
    #expect(next.missed.isEmpty && next.missedSummaries.isEmpty && next.due.isEmpty)
    #expect(next.nextWake == back.addingTimeInterval(60))
  }

  /// Rows of firings older than a round ever looks back (31 days) are let go, at most once an
  /// hour; a snooze still to come and a dismissal of a firing still to come stay.
  @Test func theLedgerLetsGoOfWhatNoRoundLooksAtAgain() throws {
    let rule = EKRecurrenceRule(recurrenceWith: .daily, interval: 1, end: nil)
    try event("Pills", start: "2026-03-01T08:00:00Z", alarm: 0, rule: rule)
    let ledger = try AlarmLedger(for: store)
    let first = Self.at("2026-03-01T08:00:00Z")
    let june = try #require(
      store.alarmFirings(from: Self.at("2026-06-01T00:00:00Z"), to: Self.at("2026-06-02T00:00:00Z"))
        .first)
    try ledger.dismiss(june, at: first)
    var snoozed: AlarmFiring?
    for day in 0..<60 {
      let now = first.addingTimeInterval(Double(day * 86_400))
      let round = try ledger.round(of: store, at: now, grace: grace)
      #expect(round.due.count == 1)
      if day == 10 {
        // Until day 70, which no round here reaches.
        let firing = try #require(round.due.first).firing
        try ledger.snooze(firing, until: now.addingTimeInterval(60 * 86_400), at: now)
        snoozed = firing
      }
    }
    // Day 59's round let go of days 0–27 but the snoozed day 10; the dismissal of June 1 stays.
    #expect(try ledgerRows(ledger) == 32 + 1 + 1)
    #expect(try ledger.entry(id: june.id)?.state == .dismissed)
    #expect(try ledger.entry(id: try #require(snoozed).id)?.state == .snoozed)
  }

  /// Past 100,000 rows, the oldest delivered and missed firings go first, not the last
  /// hour's, nor the person's snoozes and dismissals.
  @Test func pastItsShareTheLedgerLetsGoOfTheOldestDeliveries() throws {
    try event("Call", start: "2026-03-02T10:00:00Z", alarm: 0)
    let ledger = try AlarmLedger(for: store)
    let firing = try #require(
      store.alarmFirings(from: Self.at("2026-03-02T00:00:00Z"), to: Self.at("2026-03-03T00:00:00Z"))
        .first)
    try ledger.queueRows(count: 10, state: "fired", from: 1_000)
    try ledger.queueRows(count: 3, state: "dismissed", from: 0)
    try ledger.dismiss(firing, at: Self.at("2026-03-01T00:00:00Z"))
    try ledger.database.queue.write { db in
      try AlarmLedgerDatabase.prune(db, before: 0, keeping: 6, since: 1_008)
    }
    // 14 rows, 6 kept: the 3 dismissals and the real one, then the newest deliveries; those
    // since 1,008 would have stayed even past the share.
    let left = try ledger.database.queue.read {
      try String.fetchAll($0, sql: "SELECT id FROM firing WHERE state = 'fired' ORDER BY id")
    }
    #expect(left == ["fired-8", "fired-9"])
  }

  @Test func theLedgerIsPrivate() throws {
    let ledger = try AlarmLedger(for: store)
    let attributes = try FileManager.default.attributesOfItem(atPath: ledger.path)
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
    #expect(ledger.path.hasSuffix("/Alarms.sqlite"))
  }
}

extension AlarmLedger {
  /// Rows of firings that no store has, `count` of them from `start` a second apart, ids
  /// `STATE-N`: the ledger's rows as pruning sees them.
  fileprivate func queueRows(count: Int, state: String, from start: Double) throws {
    try database.queue.write { db in
      for index in 0..<count {
        try db.execute(
          sql: """
            INSERT INTO firing (id, state, fireDate, recordedAt, firing) VALUES (?, ?, ?, ?, '{}')
            """,
          arguments: ["\(state)-\(index)", state, start + Double(index), start])
      }
    }
  }
}
