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
      // DTSTART first, unless an UNTIL before it leaves no instance at all.
      if instances.isEmpty {
        #expect(random.rule.until != nil, "seed \(seed): \(random)")
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

  @Test func instancesSatisfyTheRule() async {
    await propertyCheck(count: 300, input: Gen.uint64()) { seed in
      let random = RandomRecurrence(seed: seed)
      let rule = random.rule
      let zone = try random.start.tzid.map { try ZoneRules.named($0) }
      for occurrence in try random.set.occurrences().dropFirst().prefix(200) {
        let local = occurrence.local
        // A reading moved out of a DST gap no longer shows the rule's hour or day; skip the
        // instances that come soon after the clocks jump forward.
        let instant = occurrence.secondsSinceEpoch
        if let zone, zone.hasGap(fromUTC: instant - 2 * 86_400, toUTC: instant) { continue }
        let date = local.date
        if !rule.byMonth.isEmpty { #expect(rule.byMonth.contains(date.month), "seed \(seed)") }
        if !rule.byHour.isEmpty { #expect(rule.byHour.contains(local.hour), "seed \(seed)") }
        if !rule.byMinute.isEmpty { #expect(rule.byMinute.contains(local.minute), "seed \(seed)") }
        let plain = rule.byDay.filter { $0.ordinal == nil }.map(\.weekday)
        if plain.count == rule.byDay.count, !plain.isEmpty {
          #expect(plain.contains(date.weekday), "seed \(seed): \(random)")
        }
        if !rule.byMonthDay.isEmpty {
          let length = CivilDate.daysIn(month: date.month, year: date.year)
          #expect(
            rule.byMonthDay.contains(date.day) || rule.byMonthDay.contains(date.day - length - 1),
            "seed \(seed): \(random)")
        }
        if let until = rule.until, case .utc(let reading) = until {
          #expect(occurrence.secondsSinceEpoch <= reading.localSeconds, "seed \(seed)")
        }
      }
    }
  }
}
