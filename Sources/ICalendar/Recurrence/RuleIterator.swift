/// The instances of one RRULE from one DTSTART, in order: DTSTART first (§3.8.5.3: it "always
/// counts as the first occurrence"), then the rule's candidates after it, turned into instants
/// in DTSTART's zone and ended by COUNT, UNTIL or the end of year 9999.
struct RuleIterator: IteratorProtocol {
  private var expander: RuleExpander
  private var candidates: [Int] = []
  private var nextCandidate = 0
  private let start: Occurrence
  /// DTSTART's wall-clock reading as written (before any DST-gap adjustment).
  private let startReading: Int
  private var startPending = true
  private let countLimit: Int
  private var emitted = 0
  /// UNTIL as an instant (as a reading for floating and DATE starts); Int.max without one.
  private let untilInstant: Int
  /// Present for a zoned DTSTART: the rule runs on the wall clock and each candidate is
  /// converted.
  private var zone: ZoneCursor?
  /// Zoned candidates moved forward out of a DST gap can overtake the candidates after them
  /// (02:45 becomes 03:45, after 03:00 and 03:30). They wait here, in order, until a regular
  /// candidate shows no earlier one can follow.
  private var held = HeldOccurrences()
  private var releasableThrough = Int.min
  private var lastInstant = Int.min
  private var exhausted = false

  /// An iterator at DTSTART; ``skip(toward:)`` moves it to a window.
  ///
  /// - Parameters:
  ///   - startInstant: DTSTART as an instant (its reading for floating and DATE starts).
  ///   - zone: DTSTART's zone; nil for floating, UTC and DATE starts.
  init(rule: RecurrenceRule, start: DateTimeValue, startInstant: Int, zone: ZoneRules?) {
    let reading = start.local
    startReading = reading.localSeconds
    self.start = Occurrence(
      local: zone.map { CivilDateTime(localSeconds: $0.local(forUTC: startInstant)) } ?? reading,
      secondsSinceEpoch: startInstant)
    countLimit = rule.count ?? Int.max
    let until = RuleIterator.untilInstant(rule.until, start: start, zone: zone)
    untilInstant = until
    self.zone = zone.map(ZoneCursor.init)
    // No reading after UNTIL's reading in the zone's widest offset can start in time.
    let lastLocal = until == Int.max ? Int.max : until + (zone?.maximumOffset ?? 0)
    expander = RuleExpander(rule: rule, start: reading, isDate: start.isDate, lastLocal: lastLocal)
  }

  /// Before the first `next()`: jumps over the periods that end before `target`, an instant
  /// before which no instance is wanted (instances before it can still come out).
  mutating func skip(toward target: Int) {
    if target > start.secondsSinceEpoch { skip(to: target) }
  }

  /// UNTIL in the terms candidates are compared in. §3.3.10 wants UNTIL in UTC for a zoned
  /// start, floating for a floating one and a DATE for a DATE; the other mixtures occur in the
  /// wild and are read leniently: a floating UNTIL in DTSTART's zone, a DATE UNTIL as the end
  /// of that day.
  private static func untilInstant(_ until: DateTimeValue?, start: DateTimeValue, zone: ZoneRules?)
    -> Int
  {
    guard let until else { return Int.max }
    let reading: Int
    switch until {
    case .date(let date):
      reading = start.isDate ? date.dayNumber * 86_400 : date.dayNumber * 86_400 + 86_399
    case .utc(let value):
      // A UTC UNTIL is an instant; with a floating or DATE start it is read as a reading.
      return value.localSeconds
    case .floating(let value), .zoned(let value, _):
      reading = value.localSeconds
    }
    return zone?.instant(forLocal: reading).seconds ?? reading
  }

  /// Jumps over the periods that end before `target` (an instant).
  private mutating func skip(to target: Int) {
    // A candidate read on the wall clock is at least `target + minimumOffset` if it starts at
    // or after `target`.
    let local = target + (zone?.rules.minimumOffset ?? 0)
    guard countLimit != Int.max else {
      startPending = false
      expander.skip(toPeriodHolding: local)
      return
    }
    // With COUNT the instances before the window must be counted. When every period yields
    // the same number, count them arithmetically; otherwise walk (COUNT bounds the walk). A
    // zone's DST gap can merge two instances into one instant, which then counts once: the
    // periods around each gap are walked, and counted arithmetically only between gaps.
    guard let perPeriod = expander.candidatesPerPeriod, perPeriod > 0 else { return }
    var gapsFrom = start.secondsSinceEpoch - 86_400
    while true {
      let gap = zone?.rules.firstGap(fromUTC: gapsFrom, toUTC: target)
      // The first reading a gap skips: the periods before the one holding it are whole.
      let stretchEnd = gap.map { $0.utc + $0.offsetBefore } ?? local
      let periods = expander.periodsUntil(holding: stretchEnd)
      if startPending {
        if periods > 1 {
          // DTSTART, then whatever of the first period comes after it.
          var counted = 1
          var firstPeriod = expander
          var buffer: [Int] = []
          if firstPeriod.period == 0, firstPeriod.fillNextPeriod(&buffer) {
            counted += buffer.filter { $0 > startReading }.count
          }
          expander.advance(periods: 1)
          startPending = false
          emitted = counted
          guard countWholePeriods(periods - 1, perPeriod: perPeriod) else { return }
        }
      } else {
        guard countWholePeriods(periods, perPeriod: perPeriod) else { return }
      }
      guard let gap else { return }
      // The readings the gap skips, and those it moves them onto, come out one by one.
      let disturbedEnd = gap.utc + 2 * gap.offsetAfter - gap.offsetBefore
      guard walk(pastReading: disturbedEnd, before: target) else { return }
      gapsFrom = gap.utc + 1
    }
  }

  /// Counts up to `periods` whole periods of `perPeriod` instances each without expanding
  /// them; false when COUNT ends the rule among them (the rest is walked).
  private mutating func countWholePeriods(_ periods: Int, perPeriod: Int) -> Bool {
    guard periods > 0 else { return true }
    let whole = min(periods, (countLimit - emitted) / perPeriod)
    expander.advance(periods: whole)
    emitted += whole * perPeriod
    return whole == periods
  }

  /// Takes the instances up to the end of the period holding `end - 1`, dropping them, when
  /// all of them come before `target`; false, leaving the iterator as it was, when one does
  /// not or the rule ends first.
  private mutating func walk(pastReading end: Int, before target: Int) -> Bool {
    var probe = self
    while probe.startPending || probe.nextCandidate < probe.candidates.count
      || !probe.held.isEmpty || !probe.expander.hasFilled(throughPeriodHolding: end - 1)
    {
      guard let occurrence = probe.next(), occurrence.secondsSinceEpoch < target else {
        return false
      }
    }
    self = probe
    return true
  }

  mutating func next() -> Occurrence? {
    if startPending {
      startPending = false
      // An UNTIL before DTSTART ends the rule before it starts: no instance at all, not even
      // DTSTART. Producers write it to cancel a series (Confluence does); dateutil and
      // recurring-ical-events read it so.
      guard start.secondsSinceEpoch <= untilInstant else {
        exhausted = true
        emitted = countLimit
        return nil
      }
      return emit(start)
    }
    while emitted < countLimit {
      if let first = held.first, first.secondsSinceEpoch <= releasableThrough {
        held.removeFirst()
        if let occurrence = emit(first) { return occurrence }
        continue
      }
      guard !exhausted, let local = nextLocalCandidate() else {
        exhausted = true
        guard !held.isEmpty else { return nil }
        if let occurrence = emit(held.removeFirst()) { return occurrence }
        continue
      }
      // Candidates of DTSTART's own period that come before it, or are it.
      if local <= startReading { continue }
      guard var cursor = zone else {
        if local > untilInstant {
          exhausted = true
          continue
        }
        if let occurrence = emit(
          Occurrence(local: CivilDateTime(localSeconds: local), secondsSinceEpoch: local))
        {
          return occurrence
        }
        continue
      }
      let (instant, shifted) = cursor.instant(forLocal: local)
      zone = cursor
      // A DTSTART in a DST gap starts later than its reading: candidates between the reading
      // and the instant come before the first instance and are not in the set.
      if instant <= start.secondsSinceEpoch { continue }
      if shifted {
        if instant <= untilInstant {
          let reading = cursor.rules.local(forUTC: instant)
          let occurrence = Occurrence(
            local: CivilDateTime(localSeconds: reading), secondsSinceEpoch: instant)
          held.insert(occurrence)
        }
        continue
      }
      if instant > untilInstant {
        exhausted = true
        releasableThrough = Int.max
        continue
      }
      let occurrence = Occurrence(
        local: CivilDateTime(localSeconds: local), secondsSinceEpoch: instant)
      if held.isEmpty {
        if let emitted = emit(occurrence) { return emitted }
        continue
      }
      held.insert(occurrence)
      releasableThrough = instant
    }
    return nil
  }

  /// Counts and returns an instance unless it repeats the previous instant (a DST gap can
  /// move one candidate onto the next; the set holds it once).
  private mutating func emit(_ occurrence: Occurrence) -> Occurrence? {
    guard occurrence.secondsSinceEpoch != lastInstant else { return nil }
    lastInstant = occurrence.secondsSinceEpoch
    emitted += 1
    return occurrence
  }

  private mutating func nextLocalCandidate() -> Int? {
    if nextCandidate == candidates.count {
      guard expander.fillNextPeriod(&candidates) else { return nil }
      nextCandidate = 0
    }
    let local = candidates[nextCandidate]
    nextCandidate += 1
    return local <= expander.lastLocal ? local : nil
  }
}

/// Instances waiting for their turn, in order. Candidates moved out of a DST gap arrive in
/// order among themselves, so inserting is almost always appending, and taking the first
/// moves an index instead of shifting the array: a whole day skipped by a zone (Samoa, 2011)
/// costs linear time even for a SECONDLY rule.
struct HeldOccurrences {
  private var items: [Occurrence] = []
  private var start = 0

  var isEmpty: Bool { start == items.count }
  var first: Occurrence? { isEmpty ? nil : items[start] }

  mutating func insert(_ occurrence: Occurrence) {
    if items.last.map({ $0 <= occurrence }) ?? true {
      items.append(occurrence)
    } else {
      let index = items[start...].firstIndex { $0 > occurrence } ?? items.endIndex
      items.insert(occurrence, at: index)
    }
  }

  @discardableResult
  mutating func removeFirst() -> Occurrence {
    let occurrence = items[start]
    start += 1
    if start == items.count {
      items.removeAll(keepingCapacity: true)
      start = 0
    }
    return occurrence
  }
}
