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

  @Test func theLedgerIsPrivate() throws {
    let ledger = try AlarmLedger(for: store)
    let attributes = try FileManager.default.attributesOfItem(atPath: ledger.path)
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
    #expect(ledger.path.hasSuffix("/Alarms.sqlite"))
  }
}
