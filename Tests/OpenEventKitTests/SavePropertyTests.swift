import Foundation
import ICalendar
import PropertyBased
import TestSupport
import Testing

@testable import OpenEventKit

/// Random events, reminders, rules and alarms, valid and not, saved every way the API allows:
/// every save either succeeds and reads back equal through a fresh store on the same folder
/// (allowing only the documented normalisations, ``SaveWorld/expected(_:)``), or throws an
/// `EKError` and leaves the database byte for byte as it was, and the object as the caller left
/// it (OpenEventKit.docc/SavingAndBatching.md, "When a save is refused"). What a save accepts also exports
/// as a file that imports into another store. A trap would end the whole test process: the
/// ones these properties found are SaveDefectTests', run in a helper process.
///
/// What is compared: before each save the WAL is checkpointed into Calendar.sqlite and
/// truncated (``SaveWorld/settledFiles()``), and both files are read. Until a write transaction
/// commits, neither changes: readers only touch the -shm, the WAL's index (rebuilt from the WAL,
/// no data of its own, so not compared), and a transaction that writes nothing appends nothing.
/// So equal bytes after a refusal mean that nothing was written, not even a transaction that
/// was rolled back after spilling pages.
@Suite struct SavePropertyTests {
  /// Cases per property: a few seconds with every `swift test`, many more in the reliability
  /// suite's full form (`OPENEVENTKIT_RELIABILITY=full`, scripts/reliability).
  static let cases =
    ProcessInfo.processInfo.environment["OPENEVENTKIT_RELIABILITY"] == "full" ? 3_000 : 120

  @Test func eventsReadBackEqualOrChangeNothing() async throws {
    let worlds = Worlds()
    await checkSeeds(count: Self.cases) { seed in
      let world = try worlds.next()
      var choices = Choices(seed: seed)
      let event = try world.randomEvent(&choices)
      let mode = choices.pick(SaveWorld.Commit.allCases)
      try world.attempt(seed: seed, event, mode: mode) { commit in
        try world.store.save(
          event, span: choices.pick([.thisEvent, .futureEvents]), commit: commit)
      }
    }
    worlds.expectBothOutcomes()
  }

  @Test func remindersReadBackEqualOrChangeNothing() async throws {
    let worlds = Worlds()
    await checkSeeds(count: Self.cases) { seed in
      let world = try worlds.next()
      var choices = Choices(seed: seed)
      let reminder = try world.randomReminder(&choices)
      let mode = choices.pick(SaveWorld.Commit.allCases)
      try world.attempt(seed: seed, reminder, mode: mode) { commit in
        try world.store.save(reminder, commit: commit)
      }
    }
    worlds.expectBothOutcomes()
  }

  /// Several saves staged with `commit: false`, some refused, then one `commit()` or `reset()`:
  /// a commit writes every staged save, a reset none, and a refused save stages nothing.
  @Test func batchesCommitWholeOrResetToNothing() async throws {
    let worlds = Worlds()
    await checkSeeds(count: Self.cases / 2) { seed in
      let world = try worlds.next()
      var choices = Choices(seed: seed)
      // Made first: an item saved before is saved (and committed) as it is made.
      let items: [EKCalendarItem] = try (0..<choices.int(1...4)).map { _ in
        choices.chance(60) ? try world.randomEvent(&choices) : try world.randomReminder(&choices)
      }
      let before = try world.settledFiles()
      var staged: [(item: EKCalendarItem, expected: SaveWorld.Expected, wasNew: Bool)] = []
      for item in items {
        let expected = world.expected(item)
        let wasNew = item.isNew
        do {
          if let event = item as? EKEvent {
            try world.store.save(event, span: .thisEvent, commit: false)
          } else if let reminder = item as? EKReminder {
            try world.store.save(reminder, commit: false)
          }
          staged.append((item, expected, wasNew))
        } catch {
          #expect(error is EKError, "seed \(seed): \(type(of: error)) \(error)")
          worlds.refused += 1
        }
      }
      if choices.chance(50) {
        world.store.reset()
        #expect(try world.files() == before, "seed \(seed): reset() left a write behind")
        for (item, _, wasNew) in staged where wasNew {
          #expect(item.isNew, "seed \(seed): a reset item is not new again")
          #expect(world.fresh().calendarItem(withIdentifier: item.calendarItemIdentifier) == nil)
        }
      } else {
        do {
          try world.store.commit()
        } catch {
          #expect(error is EKError, "seed \(seed): commit threw \(type(of: error)) \(error)")
          #expect(try world.files() == before, "seed \(seed): a refused commit wrote")
          world.store.reset()
          return
        }
        let fresh = world.fresh()
        for (item, expected, _) in staged {
          worlds.saved += 1
          world.expectReadBack(seed: seed, item, expected: expected, in: fresh)
        }
        if let item = staged.last?.item { world.expectExportImports(seed: seed, item) }
      }
    }
    worlds.expectBothOutcomes()
  }

  /// An occurrence of a saved series changed at random and saved with a span: the occurrence
  /// reads back as saved (a detached one, or the first of the series it now starts), or the
  /// save is refused and nothing was written.
  @Test func occurrencesSavedWithASpanReadBackOrChangeNothing() async throws {
    let worlds = Worlds()
    await checkSeeds(count: Self.cases) { seed in
      let world = try worlds.next()
      var choices = Choices(seed: seed)
      guard let (occurrence, index, series) = try world.randomOccurrence(&choices) else {
        Issue.record("seed \(seed): no occurrence of a valid series")
        return
      }
      let span = choices.pick([EKSpan.thisEvent, .futureEvents])
      world.change(occurrence, &choices)
      let mode = choices.pick(SaveWorld.Commit.allCases)
      guard occurrence.hasChanges else {
        // Nothing to save: nothing may be written.
        let before = try world.settledFiles()
        try world.store.save(occurrence, span: span, commit: true)
        #expect(try world.files() == before, "seed \(seed): a save of nothing wrote")
        return
      }
      try world.attempt(
        seed: seed, occurrence, mode: mode,
        adjust: { expected in
          world.adjustForSpan(
            &expected, occurrence: occurrence, index: index, series: series,
            span: span)
        }
      ) { commit in
        try world.store.save(occurrence, span: span, commit: commit)
      }
    }
    worlds.expectBothOutcomes()
  }
}

/// `propertyCheck` over random seeds, with what a case throws recorded beside its seed
/// (`propertyCheck` names the input alone).
func checkSeeds(
  count: Int, sourceLocation: SourceLocation = #_sourceLocation, _ body: (UInt64) throws -> Void
) async {
  await propertyCheck(
    count: count, input: Gen.uint64(),
    perform: { seed in
      do {
        try body(seed)
      } catch {
        Issue.record("seed \(seed) threw \(error)", sourceLocation: sourceLocation)
      }
    }, sourceLocation: sourceLocation)
}

/// Worlds made afresh every few cases, so that 100 kB texts do not grow one database without
/// end (each case reads the whole file), and the outcomes counted across them.
final class Worlds {
  private var current: SaveWorld?
  private var uses = 0
  var saved = 0
  var refused = 0

  func next() throws -> SaveWorld {
    if let current, uses < 25 {
      uses += 1
      return current
    }
    let world = try SaveWorld(counting: self)
    current = world
    uses = 1
    return world
  }

  /// A property that only ever saved, or only ever refused, tested half of what it claims.
  func expectBothOutcomes(sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(saved >= 10, "only \(saved) saves succeeded", sourceLocation: sourceLocation)
    #expect(refused >= 10, "only \(refused) saves were refused", sourceLocation: sourceLocation)
  }
}

/// A store with full access in a temporary folder, the calendars an item may be given, and the
/// checks of one save.
final class SaveWorld {
  let fixture: StoreFixture
  /// A store on another folder, whose calendars this store does not have.
  let elsewhere: StoreFixture
  /// Another store on the same folder, as another object of the same app would open.
  let twin: EKEventStore
  /// A calendar the person made.
  let extra: EKCalendar
  /// A store the saved items' calendars are exported to, as an .ics file.
  let importer: StoreFixture
  /// The current zone, on whose clock floating and all-day times are read.
  let zone: ZoneRules
  private unowned let counts: Worlds

  var store: EKEventStore { fixture.store }

  init(counting counts: Worlds) throws {
    self.counts = counts
    fixture = try StoreFixture()
    elsewhere = try StoreFixture()
    importer = try StoreFixture()
    twin = fixture.secondStore()
    extra = EKCalendar(for: .event, eventStore: fixture.store)
    extra.title = "Extra"
    extra.source = fixture.store.sources.first { $0.sourceType == .local }
    try fixture.store.saveCalendar(extra, commit: true)
    zone = (try? ZoneRules.named(TimeZone.current.identifier)) ?? .utc
  }

  /// A new store on the same folder, to read back what was saved.
  func fresh() -> EKEventStore { EKEventStore(folder: fixture.folder.url) }

  // MARK: The files

  struct Files: Equatable {
    var database: Data
    var wal: Data
  }

  /// Calendar.sqlite and its WAL as they are.
  func files() throws -> Files {
    let file = fixture.folder.url.appendingPathComponent("Calendar.sqlite")
    return Files(
      database: try Data(contentsOf: file),
      wal: FileManager.default.contents(atPath: file.path + "-wal") ?? Data())
  }

  /// The files after a TRUNCATE checkpoint: the database holds everything, the WAL nothing.
  func settledFiles() throws -> Files {
    let pool = try #require(store.database?.pool)
    _ = try pool.writeWithoutTransaction { try $0.checkpoint(.truncate) }
    let files = try files()
    #expect(files.wal.isEmpty, "the checkpoint left \(files.wal.count) bytes in the WAL")
    return files
  }

  // MARK: Random items

  /// Most often the right calendar; else one of the wrong kind, a read-only one, one of
  /// another store (on this folder, or another), one never saved, or none.
  func calendar(for kind: EKEntityType, _ choices: inout Choices) -> EKCalendar? {
    let right =
      kind == .event ? store.defaultCalendarForNewEvents : store.defaultCalendarForNewReminders()
    guard choices.wild() else { return kind == .event && choices.chance(30) ? extra : right }
    let holidays = store.calendars(for: .event).first { !$0.allowsContentModifications }
    let wrongKind =
      kind == .event ? store.defaultCalendarForNewReminders() : store.defaultCalendarForNewEvents
    let twinCalendar =
      kind == .event ? twin.defaultCalendarForNewEvents : twin.defaultCalendarForNewReminders()
    let foreign =
      kind == .event
      ? elsewhere.store.defaultCalendarForNewEvents
      : elsewhere.store.defaultCalendarForNewReminders()
    let unsaved = EKCalendar(for: kind, eventStore: store)
    unsaved.title = "Never saved"
    return choices.pick([nil, holidays, wrongKind, twinCalendar, foreign, unsaved])
  }

  /// A new event, or one in four times an event saved before and fetched again, given random
  /// values, valid and not.
  func randomEvent(_ choices: inout Choices) throws -> EKEvent {
    let event = choices.chance(25) ? try savedEvent() : EKEvent(eventStore: store)
    event.calendar = calendar(for: .event, &choices)
    event.title = Hostile.text(&choices)
    if choices.chance(30) { event.location = Hostile.text(&choices) }
    if choices.chance(30) { event.notes = Hostile.text(&choices) }
    if choices.chance(20) { event.url = choices.pick(Hostile.urls) }
    if choices.chance(25) { event.isAllDay = true }
    if choices.chance(60) { event.timeZone = Hostile.zone(&choices) }
    if !choices.wild() || choices.chance(90) {
      var start = Hostile.date(&choices)
      if let zone = event.timeZone?.identifier, let repeated = Hostile.repeatedReadings[zone],
        choices.chance(30)
      {
        start = Date(timeIntervalSince1970: repeated)
      }
      event.startDate = start
      if !choices.wild() || choices.chance(80) {
        if let length = Hostile.length(&choices) {
          event.endDate = start.addingTimeInterval(length)
        }
      } else {
        event.endDate = Hostile.date(&choices)
      }
    }
    if choices.chance(20) {
      event.availability = choices.pick([.notSupported, .busy, .free, .tentative, .unavailable])
    }
    if choices.chance(25) { event.structuredLocation = Hostile.place(&choices) }
    event.alarms = choices.some(upTo: 3, noneOutOf: 2, Hostile.alarm)
    event.recurrenceRules = choices.some(upTo: 2, noneOutOf: 2, Hostile.rule)
    return event
  }

  /// A new reminder, or one in four times a reminder saved before and fetched again, given
  /// random values, valid and not.
  func randomReminder(_ choices: inout Choices) throws -> EKReminder {
    let reminder = choices.chance(25) ? try savedReminder() : EKReminder(eventStore: store)
    reminder.calendar = calendar(for: .reminder, &choices)
    reminder.title = Hostile.text(&choices)
    if choices.chance(30) { reminder.notes = Hostile.text(&choices) }
    if choices.chance(20) { reminder.url = choices.pick(Hostile.urls) }
    reminder.dueDateComponents = Hostile.components(&choices)
    if choices.chance(30) { reminder.startDateComponents = Hostile.components(&choices) }
    if choices.chance(30) {
      reminder.priority =
        choices.wild() ? choices.pick([-1, 10, Int.max, Int.min]) : choices.int(0...9)
    }
    switch choices.int(0...5) {
    case 0: reminder.isCompleted = true
    case 1: reminder.completionDate = Hostile.date(&choices)
    default: break
    }
    reminder.alarms = choices.some(upTo: 3, noneOutOf: 2, Hostile.alarm)
    reminder.recurrenceRules = choices.some(upTo: 2, noneOutOf: 2, Hostile.rule)
    return reminder
  }

  /// An ordinary event, saved and fetched again.
  func savedEvent() throws -> EKEvent {
    let event = EKEvent(eventStore: store)
    event.calendar = store.defaultCalendarForNewEvents
    event.title = "Saved before"
    event.startDate = Date(timeIntervalSince1970: 1_780_000_200)
    event.endDate = event.startDate.addingTimeInterval(3600)
    event.alarms = [EKAlarm(relativeOffset: -600)]
    try store.save(event, span: .thisEvent)
    return try #require(store.event(withIdentifier: event.eventIdentifier))
  }

  /// An ordinary reminder, saved and fetched again.
  func savedReminder() throws -> EKReminder {
    let reminder = EKReminder(eventStore: store)
    reminder.calendar = store.defaultCalendarForNewReminders()
    reminder.title = "Saved before"
    reminder.dueDateComponents = DateComponents(year: 2026, month: 6, day: 1)
    try store.save(reminder, commit: true)
    return try #require(
      store.calendarItem(withIdentifier: reminder.calendarItemIdentifier) as? EKReminder)
  }

  /// A valid series saved and committed, and one of its first occurrences as fetched: the
  /// occurrence, its place in the series (0 for the first), and the series' first occurrence.
  func randomOccurrence(_ choices: inout Choices) throws -> (EKEvent, Int, EKEvent)? {
    let series = EKEvent(eventStore: store)
    series.calendar = store.defaultCalendarForNewEvents
    series.title = "Series \(choices.int(0...999))"
    series.isAllDay = choices.chance(20)
    series.timeZone = choices.pick([
      nil, TimeZone.current, TimeZone(identifier: "America/New_York"),
      TimeZone(identifier: "Australia/Lord_Howe"),
    ])
    let start = Date(
      timeIntervalSince1970: Double(choices.int(1_767_225_600...1_798_761_600) / 900 * 900))
    series.startDate = start
    // One day at most when all-day (an end past midnight would make it two, longer than a
    // day between daily occurrences).
    let length = series.isAllDay ? 0 : Double(choices.pick([0, 1800, 3600, 5400]))
    series.endDate = start.addingTimeInterval(length)
    if choices.chance(30) { series.alarms = [EKAlarm(relativeOffset: -900)] }
    let end: EKRecurrenceEnd? =
      choices.chance(50) ? EKRecurrenceEnd(occurrenceCount: choices.int(3...20)) : nil
    series.recurrenceRules = [
      EKRecurrenceRule(
        recurrenceWith: choices.pick([.daily, .weekly]), interval: choices.int(1...2), end: end)
    ]
    try store.save(series, span: .futureEvents, commit: true)
    let window = store.predicateForEvents(
      withStart: start.addingTimeInterval(-2 * 86_400), end: start.addingTimeInterval(20 * 86_400),
      calendars: [store.defaultCalendarForNewEvents!])
    let occurrences = store.events(matching: window).filter {
      $0.eventIdentifier == series.eventIdentifier
    }
    guard let first = occurrences.first else { return nil }
    let index = choices.int(0...min(occurrences.count - 1, 3))
    return (occurrences[index], index, first)
  }

  /// Changes some of an occurrence's properties, to ordinary or hostile values.
  func change(_ event: EKEvent, _ choices: inout Choices) {
    if choices.chance(40) { event.title = Hostile.text(&choices) }
    if choices.chance(40) {
      let move = choices.pick([3600.0, -3600, 86_400, 1800.5, -86_400 * 30, 1e13, .nan])
      event.startDate = event.startDate.addingTimeInterval(move)
      if choices.chance(80) { event.endDate = event.endDate.addingTimeInterval(move) }
    }
    if choices.chance(15) {
      event.endDate = event.startDate.addingTimeInterval(choices.pick([-60, 7200, 8 * 86_400]))
    }
    if choices.chance(15) { event.isAllDay.toggle() }
    if choices.chance(15) { event.timeZone = Hostile.zone(&choices) }
    if choices.chance(20) { event.alarms = choices.some(upTo: 2, noneOutOf: 3, Hostile.alarm) }
    if choices.chance(20) {
      event.recurrenceRules = choices.some(upTo: 1, noneOutOf: 4, Hostile.rule)
    }
    if choices.chance(15) { event.structuredLocation = Hostile.place(&choices) }
  }

  // MARK: What is expected back

  /// The kind of DTSTART an item's rules are written against, which decides how UNTIL is kept.
  enum Clock {
    case date, floating, zoned
  }

  /// What a save is expected to keep: the fingerprint of the properties set, normalised as the
  /// docs say, and the dates set (checked apart, see ``expectDates``).
  struct Expected {
    var print: Fingerprint
    var start: Date?
    var end: Date?
    var isAllDay = false
    var zone: String?
    var isSeries = false
    var due: DateComponents?
    var started: DateComponents?
  }

  /// Whole seconds, as the store keeps every date (OpenEventKit.docc/SavingAndBatching.md).
  static func exact(_ seconds: Double) -> String {
    seconds.isFinite && seconds == seconds.rounded(.down) && abs(seconds) < 1e17
      ? "\(Int(seconds))" : "\(seconds)"
  }

  static func whole(_ date: Date) -> String {
    exact(date.timeIntervalSince1970.rounded(.down))
  }

  /// The first instant whose reading on `zone`'s clock is `reading`: the one RFC 5545 §3.3.5
  /// gives a reading repeated when clocks go back.
  static func firstInstant(_ reading: Int, _ zone: ZoneRules) -> Int {
    zone.instant(forLocal: reading).seconds
  }

  /// UNTIL as the store keeps it (OpenEventKit.docc/RecurringEvents.md): a UTC instant against a zoned start,
  /// a reading against a floating one, a day against an all-day one.
  func until(_ date: Date, clock: Clock) -> String {
    let seconds = date.timeIntervalSince1970.rounded(.down)
    guard seconds.isFinite, abs(seconds) < 1e17 else { return "\(seconds)" }
    switch clock {
    case .zoned: return Self.exact(seconds)
    case .floating: return "\(Self.firstInstant(zone.local(forUTC: Int(seconds)), zone))"
    case .date:
      let day = zone.local(forUTC: Int(seconds)).floorDivided(by: 86_400)
      return "\(Self.firstInstant(day * 86_400, zone))"
    }
  }

  /// The object as the caller set it: exact values, for "the object is as it was".
  func asSet(_ item: EKCalendarItem) -> Fingerprint {
    var print = Fingerprints.item(
      item, absolute: { "\($0.timeIntervalSince1970)" }, until: { "\($0.timeIntervalSince1970)" })
    print["isNew"] = "\(item.isNew)"
    if let event = item as? EKEvent {
      print["start"] = Fingerprints.seconds(event.startDate)
      print["end"] = Fingerprints.seconds(event.endDate)
      print["allDay"] = "\(event.isAllDay)"
      print["timeZone"] = event.timeZone?.identifier ?? "nil"
      print["place"] = Fingerprints.place(event.structuredLocation)
    } else if let reminder = item as? EKReminder {
      print["due"] = "\(reminder.dueDateComponents.map { "\($0)" } ?? "nil")"
      print["startComponents"] = "\(reminder.startDateComponents.map { "\($0)" } ?? "nil")"
      print["completed"] =
        "\(reminder.isCompleted) \(Fingerprints.seconds(reminder.completionDate))"
      print["priority"] = "\(reminder.priority)"
    }
    return print
  }

  /// The item's properties, one per line, for a failure message.
  func describe(_ item: EKCalendarItem) -> String {
    asSet(item).sorted { $0.key < $1.key }.map { "\n  \($0.key): \($0.value)" }.joined()
  }

  /// What a successful save of `item`, as it is now, must read back as.
  func expected(_ item: EKCalendarItem) -> Expected {
    let clock: Clock
    var expected = Expected(print: [:])
    if let event = item as? EKEvent {
      clock = event.isAllDay ? .date : event.timeZone == nil ? .floating : .zoned
      expected.start = event.startDate
      expected.end = event.endDate
      expected.isAllDay = event.isAllDay
      expected.zone = event.isAllDay ? nil : event.timeZone?.identifier
      expected.isSeries = !(event.recurrenceRules ?? []).isEmpty
    } else {
      let reminder = item as! EKReminder
      let due = reminder.dueDateComponents
      clock = due?.hour == nil ? .date : due?.timeZone == nil ? .floating : .zoned
      expected.due = reminder.dueDateComponents
      expected.started = reminder.startDateComponents
    }
    expected.print = Fingerprints.item(
      item, absolute: Self.whole, until: { self.until($0, clock: clock) })
    if let event = item as? EKEvent {
      expected.print["allDay"] = "\(event.isAllDay)"
      expected.print["timeZone"] = expected.zone ?? "nil"
      expected.print["availability"] = "\(event.availability.rawValue)"
      expected.print["place"] = Fingerprints.place(event.structuredLocation)
    } else if let reminder = item as? EKReminder {
      let completion = reminder.completionDate.map(Self.whole) ?? "nil"
      expected.print["completed"] = "\(reminder.isCompleted) \(completion)"
      expected.print["priority"] = "\(reminder.priority)"
    }
    return expected
  }

  /// The fingerprint of an item read back, in the form of ``expected(_:)``.
  func read(_ item: EKCalendarItem) -> Fingerprint {
    let exact = { (date: Date) in Self.exact(date.timeIntervalSince1970) }
    var print = Fingerprints.item(item, absolute: exact, until: exact)
    if let event = item as? EKEvent {
      print["allDay"] = "\(event.isAllDay)"
      print["timeZone"] = event.timeZone?.identifier ?? "nil"
      print["availability"] = "\(event.availability.rawValue)"
      print["place"] = Fingerprints.place(event.structuredLocation)
    } else if let reminder = item as? EKReminder {
      let completion = reminder.completionDate.map(exact) ?? "nil"
      print["completed"] = "\(reminder.isCompleted) \(completion)"
      print["priority"] = "\(reminder.priority)"
    }
    return print
  }

  /// For a span save, what the occurrence's rules become: none of its own for a detached
  /// occurrence; the series' with what remained of a COUNT for a split (OpenEventKit.docc/RecurringEvents.md).
  func adjustForSpan(
    _ expected: inout Expected, occurrence: EKEvent, index: Int, series: EKEvent, span: EKSpan
  ) {
    guard span == .futureEvents else {
      expected.print["rules"] = ""
      expected.isSeries = false
      return
    }
    let seriesRules = (series.recurrenceRules ?? []).map {
      Fingerprints.rule($0, until: { self.until($0, clock: .zoned) })
    }
    let rulesUnchanged =
      (occurrence.recurrenceRules ?? []).map {
        Fingerprints.rule($0, until: { self.until($0, clock: .zoned) })
      } == seriesRules
    guard rulesUnchanged, index > 0, let rule = series.recurrenceRules?.first,
      let count = rule.recurrenceEnd?.occurrenceCount, count > 0
    else { return }
    let remaining = EKRecurrenceRule(
      recurrenceWith: rule.frequency, interval: rule.interval,
      end: EKRecurrenceEnd(occurrenceCount: count - index))
    expected.print["rules"] = Fingerprints.rule(remaining, until: { "\($0)" })
  }

  /// Checks the dates read back against the dates set: whole seconds; an all-day event from the
  /// first instant of its first day to the last second of its last day (OpenEventKit.docc/FetchingEvents.md);
  /// a floating time, or a repeating event's start, in the hour repeated when clocks go back,
  /// at the first of the two instants (RFC 5545 §3.3.5).
  func expectDates(seed: UInt64, _ expected: Expected, read: EKEvent) {
    guard let setStart = expected.start, let setEnd = expected.end, let start = read.startDate,
      let end = read.endDate
    else {
      Issue.record("seed \(seed): an event read back without dates")
      return
    }
    let (setStartSeconds, setEndSeconds) = (
      setStart.timeIntervalSince1970.rounded(.down), setEnd.timeIntervalSince1970.rounded(.down)
    )
    guard abs(setStartSeconds) < 1e12, abs(setEndSeconds) < 1e12 else {
      Issue.record("seed \(seed): saved with dates \(setStartSeconds)…\(setEndSeconds)")
      return
    }
    let (s, e) = (Int(setStartSeconds), Int(setEndSeconds))
    let readStart = start.timeIntervalSince1970
    let readEnd = end.timeIntervalSince1970
    guard readStart == readStart.rounded(.down), readEnd == readEnd.rounded(.down),
      abs(readStart) < 1e12, abs(readEnd) < 1e12
    else {
      Issue.record("seed \(seed): dates read back as \(readStart)…\(readEnd)")
      return
    }
    let (rs, re) = (Int(readStart), Int(readEnd))
    let message = "seed \(seed): set \(s)…\(e), read \(rs)…\(re)"
    if expected.isAllDay {
      let day = { (instant: Int) in self.zone.local(forUTC: instant).floorDivided(by: 86_400) }
      let firstDay = day(s)
      let endReading = zone.local(forUTC: e)
      var lastDay = endReading.floorDivided(by: 86_400)
      if endReading == lastDay * 86_400 && lastDay > firstDay { lastDay -= 1 }
      lastDay = max(lastDay, firstDay)
      #expect(day(rs) == firstDay && day(rs - 1) == firstDay - 1, "\(message) (all-day start)")
      #expect(day(re) == lastDay && day(re + 1) == lastDay + 1, "\(message) (all-day end)")
    } else if let identifier = expected.zone {
      guard let clock = try? ZoneRules.named(identifier) else {
        Issue.record("\(message): saved in \(identifier), which is no zone")
        return
      }
      if expected.isSeries {
        let sameReading = clock.local(forUTC: rs) == clock.local(forUTC: s) && rs <= s
        #expect(sameReading && re - rs == e - s, "\(message) (zoned series)")
      } else {
        #expect(rs == s && re == e, "\(message) (zoned)")
      }
    } else {
      #expect(rs == Self.firstInstant(zone.local(forUTC: s), zone), "\(message) (floating start)")
      #expect(re == Self.firstInstant(zone.local(forUTC: e), zone), "\(message) (floating end)")
    }
  }

  /// Reads `item` back through `store` and compares it with what was expected.
  func expectReadBack(
    seed: UInt64, _ item: EKCalendarItem, expected: Expected, in store: EKEventStore
  ) {
    let identifier =
      (item as? EKEvent)?.eventIdentifier ?? item.calendarItemIdentifier
    let found: EKCalendarItem? =
      item is EKEvent
      ? store.event(withIdentifier: identifier) : store.calendarItem(withIdentifier: identifier)
    guard let found else {
      Issue.record("seed \(seed): saved, but a fresh store does not find it: \(describe(item))")
      return
    }
    let wanted = expected.print
    let readPrint = read(found).filter { wanted[$0.key] != nil }
    let readEqual = readPrint == wanted
    #expect(
      readEqual,
      "seed \(seed): read back differently:\n\(Fingerprints.differences(expected: wanted, read: readPrint))"
    )
    // The saved object shows what the store keeps.
    let shown = read(item).filter { wanted[$0.key] != nil }
    let shownEqual = shown == readPrint
    #expect(
      shownEqual,
      "seed \(seed): the saved object shows other values than the store keeps:\n\(Fingerprints.differences(expected: shown, read: readPrint))"
    )
    if let event = found as? EKEvent {
      expectDates(seed: seed, expected, read: event)
      if let saved = item as? EKEvent {
        #expect(
          saved.startDate == event.startDate && saved.endDate == event.endDate,
          "seed \(seed): the saved object shows \(Fingerprints.seconds(saved.startDate))…\(Fingerprints.seconds(saved.endDate))"
        )
      }
    } else if let reminder = found as? EKReminder {
      #expect(reminder.dueDateComponents == expected.due, "seed \(seed): due date components")
      #expect(reminder.startDateComponents == expected.started, "seed \(seed): start components")
    }
  }

  /// What the store keeps it can write as a file it reads again: the calendar of `item` (all
  /// that was saved in it so far) exports, and the file imports into another store.
  func expectExportImports(seed: UInt64, _ item: EKCalendarItem) {
    guard let id = item.calendar?.calendarIdentifier,
      let calendar = store.calendar(withIdentifier: id)
    else {
      Issue.record("seed \(seed): the saved item's calendar is not in its store")
      return
    }
    do {
      let file = try store.exportICalendar(calendars: [calendar])
      _ = try importer.store.importICalendar(file)
    } catch {
      Issue.record("seed \(seed): the calendar does not export and import again: \(error)")
    }
  }

  // MARK: One save

  /// How a save is made: committed at once; staged, then committed; staged, then dropped.
  enum Commit: CaseIterable {
    case now, thenCommit, thenReset
  }

  /// Saves `item` through `save` (given whether to commit) as `mode` says, and checks the
  /// outcome: read back equal, or refused with an `EKError` that changed nothing.
  func attempt(
    seed: UInt64, _ item: EKCalendarItem, mode: Commit, adjust: (inout Expected) -> Void = { _ in },
    save: (Bool) throws -> Void
  ) throws {
    let before = try settledFiles()
    let asSet = asSet(item)
    var expected = expected(item)
    adjust(&expected)
    let wasNew = item.isNew
    do {
      try save(mode == .now)
    } catch {
      #expect(error is EKError, "seed \(seed): \(type(of: error)): \(error)")
      #expect(try files() == before, "seed \(seed): a refused save changed the files")
      let now = self.asSet(item)
      #expect(
        now == asSet,
        "seed \(seed): a refused save changed the object:\n\(Fingerprints.differences(expected: asSet, read: now))"
      )
      counts.refused += 1
      return
    }
    switch mode {
    case .now: break
    case .thenCommit:
      do {
        try store.commit()
      } catch {
        #expect(error is EKError, "seed \(seed): commit: \(type(of: error)): \(error)")
        #expect(try files() == before, "seed \(seed): a refused commit changed the files")
        store.reset()
        counts.refused += 1
        return
      }
    case .thenReset:
      store.reset()
      #expect(try files() == before, "seed \(seed): reset() left a write behind")
      #expect(item.isNew == wasNew, "seed \(seed): reset() did not make the object new again")
      if wasNew {
        #expect(fresh().calendarItem(withIdentifier: item.calendarItemIdentifier) == nil)
      }
      return
    }
    counts.saved += 1
    expectReadBack(seed: seed, item, expected: expected, in: fresh())
    expectExportImports(seed: seed, item)
  }
}
