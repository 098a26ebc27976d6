import ICalendar
import PropertyBased
import Testing

/// Properties that must hold for every valid rule, checked on random rules.
@Suite struct RecurrencePropertyTests {
  @Test func textRoundTrips() async {
    await propertyCheck(count: 500, input: Gen.uint64()) { seed in
      let rule = RandomRecurrence(seed: seed).rule
      let text = rule.text
      let parsed = try RecurrenceRule(parsing: text)
      #expect(parsed == rule, "seed \(seed): \(text)")
      #expect(parsed.text == text, "seed \(seed)")
    }
  }

  /// The instants of a walk from DTSTART that start before `limit`, or nil when the walk is
  /// too long to be worth it for one case (more than ``longestWalk`` instances).
  func walk(_ set: RecurrenceSet, before limit: Int) throws -> [Occurrence]? {
    var result: [Occurrence] = []
    for occurrence in try set.occurrences() {
      if occurrence.secondsSinceEpoch >= limit { return result }
      result.append(occurrence)
      if result.count > Self.longestWalk { return nil }
    }
    return result
  }

  static let longestWalk = 20_000

  /// The share of cases a property compared with a walk must keep: a case whose walk is too
  /// long is dropped, and counted, so that a property cannot pass on few cases, or none.
  /// About one case in a hundred is dropped (a frequent rule far from DTSTART).
  static func expectMostKept(
    _ kept: Int, dropped: Int, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let cases = kept + dropped
    #expect(
      kept * 10 >= cases * 9, "\(dropped) of \(cases) cases dropped (walks over \(longestWalk))",
      sourceLocation: sourceLocation)
  }

  @Test func instancesAreStrictlyIncreasingAndStartWithDTSTART() async {
    await propertyCheck(count: 400, input: Gen.uint64()) { seed in
      let random = RandomRecurrence(seed: seed)
      let instances = Array(try random.set.occurrences().prefix(300))
      // DTSTART first (RFC 5545 §3.8.5.3: it is the first instance, whether or not the rule
      // matches it), unless an UNTIL before it leaves no instance at all.
      if instances.isEmpty {
        #expect(try Self.untilPrecedesStart(random), "seed \(seed): \(random)")
      } else {
        #expect(
          instances.first?.secondsSinceEpoch == (try random.start.secondsSinceEpoch()),
          "seed \(seed): \(random)")
      }
      for (earlier, later) in zip(instances, instances.dropFirst()) {
        #expect(earlier.secondsSinceEpoch < later.secondsSinceEpoch, "seed \(seed): \(random)")
      }
      if let count = random.rule.count { #expect(instances.count <= count) }
    }
  }

  @Test func windowEqualsFilteredWalk() async {
    var kept = 0
    var dropped = 0
    await propertyCheck(count: 300, input: Gen.uint64(), Gen.int(in: 0...150), Gen.int(in: 1...40))
    {
      seed, offset, length in
      let random = RandomRecurrence(seed: seed)
      let startInstant = try random.start.secondsSinceEpoch()
      let from = startInstant - random.periodSeconds + offset * random.periodSeconds
      let to = from + length * random.periodSeconds
      guard let walked = try walk(random.set, before: to) else {
        dropped += 1
        return
      }
      kept += 1
      let expected = walked.filter { $0.secondsSinceEpoch >= from }
      let window = Array(try random.set.occurrences(from: from, to: to))
      #expect(window == expected, "seed \(seed) offset \(offset) length \(length): \(random)")
    }
    #expect(kept + dropped == 300)
    Self.expectMostKept(kept, dropped: dropped)
  }

  @Test func skipAheadEqualsWalkFarFromDTSTART() async {
    var kept = 0
    var dropped = 0
    await propertyCheck(count: 200, input: Gen.uint64(), Gen.int(in: 200...2_000)) {
      seed, offset in
      var random = RandomRecurrence(seed: seed)
      // Keep walks affordable: at most a few thousand periods of a frequent rule.
      if [.secondly, .minutely].contains(random.rule.frequency) { random.rule.interval *= 7 }
      let startInstant = try random.start.secondsSinceEpoch()
      let from = startInstant + offset * random.periodSeconds
      let to = from + 5 * random.periodSeconds
      guard let walked = try walk(random.set, before: to) else {
        dropped += 1
        return
      }
      kept += 1
      let window = Array(try random.set.occurrences(from: from, to: to))
      #expect(
        window == walked.filter { $0.secondsSinceEpoch >= from },
        "seed \(seed) offset \(offset): \(random)")
    }
    #expect(kept + dropped == 200)
    Self.expectMostKept(kept, dropped: dropped)
  }

  /// A window of a prepared value (rules validated and iterators made once) is the window a
  /// new expansion gives, whatever window the prepared value had, and however often reused.
  @Test func aWindowOfPreparedOccurrencesEqualsANewExpansion() async {
    await propertyCheck(
      count: 200, input: Gen.uint64(), Gen.int(in: -3...300), Gen.int(in: 1...40)
    ) { seed, offset, length in
      var random = RandomRecurrence(seed: seed)
      if [.secondly, .minutely].contains(random.rule.frequency) { random.rule.interval *= 7 }
      let startInstant = try random.start.secondsSinceEpoch()
      let prepared = try random.set.occurrences(
        from: startInstant + 2 * random.periodSeconds, to: startInstant + 3 * random.periodSeconds)
      for _ in 0..<2 {
        let from = startInstant + offset * random.periodSeconds
        let to = from + length * random.periodSeconds
        let expected = Array(try random.set.occurrences(from: from, to: to))
        #expect(
          Array(prepared.window(from: from, to: to)) == expected,
          "seed \(seed) offset \(offset) length \(length): \(random)")
      }
      #expect(
        Array(prepared.window(from: nil, to: nil).prefix(50))
          == Array(try random.set.occurrences().prefix(50)), "seed \(seed): \(random)")
    }
  }

  /// Whether the rule's UNTIL comes before DTSTART: a UTC UNTIL compared with the start's
  /// instant, a floating or DATE one with the start's reading (§3.3.10).
  static func untilPrecedesStart(_ random: RandomRecurrence) throws -> Bool {
    guard let until = random.rule.until else { return false }
    let reading: CivilDateTime
    switch random.start {
    case .date(let day): reading = CivilDateTime(localSeconds: day.dayNumber * 86_400)
    case .floating(let value), .utc(let value), .zoned(let value, _): reading = value
    }
    switch until {
    case .utc(let value): return value.localSeconds < (try random.start.secondsSinceEpoch())
    case .floating(let value), .zoned(let value, _): return value < reading
    case .date(let day): return day < reading.date
    }
  }

  /// The week of `date` as BYWEEKNO counts it (§3.3.10): weeks start on `weekStart`, and week
  /// 1 of a year is the first with at least four of its days, so a week belongs to the year of
  /// its fourth day. Returns the week and the number of weeks of that year, for a negative
  /// BYWEEKNO.
  static func week(of date: CivilDate, start weekStart: Weekday) -> (week: Int, weeks: Int) {
    func first(_ day: CivilDate) -> CivilDate {  // the first day of `day`'s week
      day.adding(days: -((day.weekday.rawValue - weekStart.rawValue + 7) % 7))
    }
    let year = first(date).adding(days: 3).year
    let weekOne = first(CivilDate(year: year, month: 1, day: 4)!)
    let last = first(CivilDate(year: year, month: 12, day: 28)!)
    return (
      (first(date).dayNumber - weekOne.dayNumber) / 7 + 1,
      (last.dayNumber - weekOne.dayNumber) / 7 + 1
    )
  }

  /// Whether `day` is the weekday and ordinal of `entry` counted in the days `from`…`to`
  /// (a month, or a year): 2MO the second Monday from the start, -1FR the last Friday.
  static func matches(
    _ entry: RecurrenceRule.WeekdayNum, _ day: CivilDate, in from: CivilDate, _ to: CivilDate
  )
    -> Bool
  {
    guard entry.weekday == day.weekday else { return false }
    guard let ordinal = entry.ordinal else { return true }
    return ordinal > 0
      ? (day.dayNumber - from.dayNumber) / 7 + 1 == ordinal
      : (to.dayNumber - day.dayNumber) / 7 + 1 == -ordinal
  }

  /// The period of `frequency` an instance falls in, as a key: instances of one period are
  /// the candidates BYSETPOS chose among.
  static func period(of local: CivilDateTime, _ rule: RecurrenceRule) -> Int {
    let date = local.date
    switch rule.frequency {
    case .yearly: return date.year
    case .monthly: return date.year * 12 + date.month
    case .weekly:
      return date.dayNumber - (date.weekday.rawValue - rule.weekStart.rawValue + 7) % 7
    case .daily: return date.dayNumber
    case .hourly: return local.localSeconds.floorDivided(by: 3600)
    case .minutely: return local.localSeconds.floorDivided(by: 60)
    case .secondly: return local.localSeconds
    }
  }

  /// How many instances and rules a property looked at, part by part, so that it cannot pass
  /// on none.
  final class Checked: @unchecked Sendable {
    var instances = 0
    var parts: [String: Int] = [:]
    func saw(_ part: String) { parts[part, default: 0] += 1 }
  }

  @Test func instancesSatisfyTheRule() async {
    let checked = Checked()
    await propertyCheck(count: 1_000, input: Gen.uint64()) { seed in
      let random = RandomRecurrence(seed: seed)
      let rule = random.rule
      let zone = try random.start.tzid.map { try ZoneRules.named($0) }
      var perPeriod: [Int: Int] = [:]
      for occurrence in try random.set.occurrences().dropFirst().prefix(200) {
        let local = occurrence.local
        // A reading moved out of a DST gap no longer shows the rule's hour or day; skip the
        // instances that come soon after the clocks jump forward.
        let instant = occurrence.secondsSinceEpoch
        if let zone, zone.hasGap(fromUTC: instant - 2 * 86_400, toUTC: instant) { continue }
        checked.instances += 1
        let date = local.date
        let place = "seed \(seed): \(random) at \(local)"
        if !rule.byMonth.isEmpty { #expect(rule.byMonth.contains(date.month), "\(place)") }
        if !rule.byHour.isEmpty { #expect(rule.byHour.contains(local.hour), "\(place)") }
        if !rule.byMinute.isEmpty { #expect(rule.byMinute.contains(local.minute), "\(place)") }
        if !rule.bySecond.isEmpty { #expect(rule.bySecond.contains(local.second), "\(place)") }
        if !rule.byMonthDay.isEmpty {
          let length = CivilDate.daysIn(month: date.month, year: date.year)
          #expect(
            rule.byMonthDay.contains(date.day) || rule.byMonthDay.contains(date.day - length - 1),
            "\(place)")
        }
        if !rule.byYearDay.isEmpty {
          let length = CivilDate.daysIn(year: date.year)
          #expect(
            rule.byYearDay.contains(date.dayOfYear)
              || rule.byYearDay.contains(date.dayOfYear - length - 1), "\(place)")
        }
        if !rule.byWeekNo.isEmpty {
          let (week, weeks) = Self.week(of: date, start: rule.weekStart)
          #expect(
            rule.byWeekNo.contains(week) || rule.byWeekNo.contains(week - weeks - 1), "\(place)")
        }
        if !rule.byDay.isEmpty {
          // An ordinal counts in the month (MONTHLY, or YEARLY with BYMONTH), else in the year.
          let inMonth = rule.frequency == .monthly || !rule.byMonth.isEmpty
          let from = CivilDate(year: date.year, month: inMonth ? date.month : 1, day: 1)!
          let to =
            inMonth
            ? CivilDate(
              year: date.year, month: date.month,
              day: CivilDate.daysIn(month: date.month, year: date.year))!
            : CivilDate(year: date.year, month: 12, day: 31)!
          #expect(rule.byDay.contains { Self.matches($0, date, in: from, to) }, "\(place)")
        }
        if let until = rule.until {
          switch until {
          case .utc(let reading): #expect(instant <= reading.localSeconds, "\(place)")
          case .floating(let reading), .zoned(let reading, _): #expect(local <= reading, "\(place)")
          case .date(let day): #expect(date <= day, "\(place)")
          }
        }
        perPeriod[Self.period(of: local, rule), default: 0] += 1
      }
      // BYSETPOS keeps at most one instance per position from each period's candidates.
      if !rule.bySetPos.isEmpty, let most = perPeriod.values.max() {
        #expect(most <= Set(rule.bySetPos).count, "seed \(seed): \(random)")
      }
      for (part, used) in [
        ("BYSECOND", !rule.bySecond.isEmpty), ("BYYEARDAY", !rule.byYearDay.isEmpty),
        ("BYWEEKNO", !rule.byWeekNo.isEmpty), ("BYSETPOS", !rule.bySetPos.isEmpty),
        ("ordinal BYDAY", rule.byDay.contains { $0.ordinal != nil }), ("UNTIL", rule.until != nil),
      ] where used && !perPeriod.isEmpty {
        checked.saw(part)
      }
    }
    print(
      "recurrence properties: \(checked.instances) instances checked; rules with \(checked.parts)")
    #expect(checked.instances >= 10_000, "only \(checked.instances) instances were checked")
    for part in ["BYSECOND", "BYYEARDAY", "BYWEEKNO", "BYSETPOS", "ordinal BYDAY", "UNTIL"] {
      #expect(
        checked.parts[part, default: 0] >= 5,
        "only \(checked.parts[part, default: 0]) rules with \(part)")
    }
  }
}
