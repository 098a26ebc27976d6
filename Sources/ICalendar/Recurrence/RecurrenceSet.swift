import Foundation

/// A recurrence set (RFC 5545 §3.8.5): DTSTART, the instances of its RRULEs and RDATEs, less
/// those its EXDATEs name. Expansion is lazy and in start order; a window query jumps to the
/// window instead of walking from DTSTART wherever the rules allow.
///
/// Instances are computed on DTSTART's clock: a zoned start keeps its wall-clock time across
/// daylight-saving changes, and a time the clocks skip moves forward (§3.3.5);
/// <doc:RecurrenceEngine> describes the rules followed.
///
/// ```swift
/// let set = RecurrenceSet(
///   start: try DateTimeValue(parsing: "20250106T090000", tzid: "Europe/London"),
///   rules: [try RecurrenceRule(parsing: "FREQ=WEEKLY;BYDAY=MO,WE;COUNT=6")],
///   dates: [try RecurrenceDate(parsing: "20250111T100000", tzid: "Europe/London")],
///   exceptionDates: [try DateTimeValue(parsing: "20250108T090000", tzid: "Europe/London")])
///
/// for occurrence in try set.occurrences() {
///   print(occurrence.local)
/// }
/// // 20250106T090000, 20250111T100000, 20250113T090000, 20250115T090000,
/// // 20250120T090000, 20250122T090000 (the EXDATE removed the 8th)
/// ```
public struct RecurrenceSet: Hashable, Sendable {
  /// DTSTART: the first instance, and where the rules take missing parts from; its zone is
  /// the clock instances are computed on.
  public var start: DateTimeValue
  /// The RRULEs, whose instances are merged; with none, DTSTART is an instance alone.
  public var rules: [RecurrenceRule]
  /// The RDATEs, each an instance more.
  public var dates: [RecurrenceDate]
  /// The EXDATEs, each removing the instance that starts at the same instant; a DATE here
  /// removes every instance on that day when DTSTART is a DATE-TIME.
  public var exceptionDates: [DateTimeValue]

  /// A recurrence set, as an event's DTSTART, RRULE, RDATE and EXDATE properties give it.
  ///
  /// Nothing is checked here; the `occurrences` methods validate the rules and load the
  /// zones.
  ///
  /// ```swift
  /// let set = RecurrenceSet(
  ///   start: try DateTimeValue(parsing: "20250303T080000Z"),
  ///   rules: [try RecurrenceRule(parsing: "FREQ=DAILY;COUNT=5")],
  ///   exceptionDates: [try DateTimeValue(parsing: "20250305T080000Z")])
  /// print(try set.occurrences().map(\.local.date))  // [20250303, 20250304, 20250306, 20250307]
  /// ```
  ///
  /// - Parameters:
  ///   - start: DTSTART.
  ///   - rules: The RRULEs; none for a set of DTSTART and its RDATEs only.
  ///   - dates: The RDATEs.
  ///   - exceptionDates: The EXDATEs.
  public init(
    start: DateTimeValue, rules: [RecurrenceRule] = [], dates: [RecurrenceDate] = [],
    exceptionDates: [DateTimeValue] = []
  ) {
    self.start = start
    self.rules = rules
    self.dates = dates
    self.exceptionDates = exceptionDates
  }

  /// Every instance, in order.
  ///
  /// A rule without COUNT or UNTIL runs to the year 9999, so take a prefix or use a window
  /// (``occurrences(from:to:)``) to bound the work.
  ///
  /// ```swift
  /// let set = RecurrenceSet(
  ///   start: try DateTimeValue(parsing: "20250101"),
  ///   rules: [try RecurrenceRule(parsing: "FREQ=YEARLY")])
  /// let firstThree = try set.occurrences().prefix(3).map(\.local.date)
  /// print(firstThree)  // [20250101, 20260101, 20270101]
  /// ```
  ///
  /// - Returns: The instances, computed lazily as they are iterated.
  /// - Throws: ``RecurrenceSetError/rule(_:)`` when a rule fails
  ///   ``RecurrenceRule/validate()``, or repeats HOURLY, MINUTELY or SECONDLY from a DATE
  ///   (``RecurrenceRuleError/Reason/incompatibleStart``);
  ///   ``RecurrenceSetError/timeZone(_:)`` when DTSTART's zone, or that of an RDATE or
  ///   EXDATE, cannot be loaded.
  public func occurrences() throws(RecurrenceSetError) -> Occurrences {
    try Occurrences(set: self, from: nil, to: nil)
  }

  /// The instances starting at or after `from` and before `to`, both instants in seconds since
  /// 1970 (for floating and DATE starts: wall-clock readings taken as UTC, as in
  /// ``Occurrence/secondsSinceEpoch``).
  ///
  /// Each rule's expansion jumps to the period that holds `from` instead of walking from
  /// DTSTART; a rule with COUNT still counts the instances before the window, arithmetically
  /// where every period yields the same number.
  ///
  /// ```swift
  /// let set = RecurrenceSet(
  ///   start: try DateTimeValue(parsing: "20250101T120000Z"),
  ///   rules: [try RecurrenceRule(parsing: "FREQ=DAILY")])
  /// let from = try DateTimeValue(parsing: "20300101T000000Z").secondsSinceEpoch()
  /// for occurrence in try set.occurrences(from: from, to: from + 3 * 86_400) {
  ///   print(occurrence.local)  // 20300101T120000, 20300102T120000, 20300103T120000
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - from: The first instant to include, or nil for no lower bound.
  ///   - to: The first instant past the window, excluded, or nil for no upper bound.
  /// - Returns: The instances in the window, in order, computed lazily.
  /// - Throws: ``RecurrenceSetError``, as ``occurrences()`` does.
  public func occurrences(from: Int?, to: Int?) throws(RecurrenceSetError) -> Occurrences {
    try Occurrences(set: self, from: from, to: to)
  }

  /// The instances starting in `[start, end)`.
  ///
  /// The dates are rounded up to whole seconds; for floating and DATE sets they are compared
  /// with the wall-clock readings taken as UTC, as in ``occurrences(from:to:)``.
  ///
  /// ```swift
  /// let set = RecurrenceSet(
  ///   start: try DateTimeValue(parsing: "20250106T090000", tzid: "Europe/Berlin"),
  ///   rules: [try RecurrenceRule(parsing: "FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR")])
  /// let now = Date()
  /// let nextWeek = try set.occurrences(between: now, and: now.addingTimeInterval(7 * 86_400))
  /// let dates = nextWeek.map(\.date)  // five workdays at 09:00 Berlin time
  /// ```
  ///
  /// - Parameters:
  ///   - start: The first instant to include.
  ///   - end: The first instant past the window, excluded.
  /// - Returns: The instances in the window, in order, computed lazily.
  /// - Throws: ``RecurrenceSetError``, as ``occurrences()`` does.
  public func occurrences(between start: Date, and end: Date) throws(RecurrenceSetError)
    -> Occurrences
  {
    func seconds(_ date: Date) -> Int {
      let value = date.timeIntervalSince1970.rounded(.up)
      guard value.isFinite else { return value < 0 ? -(1 << 40) : 1 << 40 }
      return Int(Swift.min(Swift.max(value, -1e12), 1e12))
    }
    return try occurrences(from: seconds(start), to: seconds(end))
  }

  /// The instances whose wall-clock start in DTSTART's zone lies in `[from, to)`.
  ///
  /// For a day view or a month grid on the event's own clock: the bounds are read as
  /// floating values are, on DTSTART's clock (``instant(of:)``).
  ///
  /// ```swift
  /// let set = RecurrenceSet(
  ///   start: try DateTimeValue(parsing: "20250106T090000", tzid: "America/New_York"),
  ///   rules: [try RecurrenceRule(parsing: "FREQ=WEEKLY;BYDAY=MO")])
  /// let march = try set.occurrences(
  ///   fromLocal: CivilDateTime(year: 2025, month: 3, day: 1),
  ///   toLocal: CivilDateTime(year: 2025, month: 4, day: 1))
  /// print(march.map(\.local.date))  // [20250303, 20250310, 20250317, 20250324, 20250331]
  /// ```
  ///
  /// - Parameters:
  ///   - from: The first wall-clock reading to include, or nil for no lower bound.
  ///   - to: The first reading past the window, excluded, or nil for no upper bound.
  /// - Returns: The instances in the window, in order, computed lazily.
  /// - Throws: ``RecurrenceSetError``, as ``occurrences()`` does.
  public func occurrences(fromLocal from: CivilDateTime?, toLocal to: CivilDateTime?)
    throws(RecurrenceSetError) -> Occurrences
  {
    try occurrences(
      from: from.map { reading throws(RecurrenceSetError) in try instant(of: .floating(reading)) },
      to: to.map { reading throws(RecurrenceSetError) in try instant(of: .floating(reading)) })
  }

  /// The instant of a value as this set reads it: UTC values as they are, zoned values in their
  /// zone, floating and DATE values on DTSTART's wall clock (for a floating or DATE set, the
  /// reading taken as UTC, as in ``Occurrence/secondsSinceEpoch``).
  ///
  /// A reading that a change of offset skips or repeats resolves as
  /// ``ZoneRules/instant(forLocal:)`` says (§3.3.5).
  ///
  /// ```swift
  /// let set = RecurrenceSet(
  ///   start: try DateTimeValue(parsing: "20250101T090000", tzid: "Asia/Tokyo"))
  /// // A floating reading is read on DTSTART's clock: 09:00 in Tokyo is 00:00 UTC.
  /// print(try set.instant(of: DateTimeValue(parsing: "20250101T090000")))  // 1735689600
  /// ```
  ///
  /// - Parameter value: A DTSTART, RDATE, EXDATE or window bound.
  /// - Returns: Seconds since 1970-01-01T00:00:00Z, or the reading taken as UTC.
  /// - Throws: ``RecurrenceSetError/timeZone(_:)`` when the value's zone, or DTSTART's for a
  ///   floating or DATE value, cannot be loaded.
  public func instant(of value: DateTimeValue) throws(RecurrenceSetError) -> Int {
    switch value {
    case .utc(let reading):
      return reading.localSeconds
    case .zoned(let reading, let tzid) where tzid != start.tzid:
      do {
        return try ZoneRules.named(tzid).instant(forLocal: reading.localSeconds).seconds
      } catch {
        throw .timeZone(error)
      }
    default:
      let reading = value.local.localSeconds
      return try zoneRules()?.instant(forLocal: reading).seconds ?? reading
    }
  }

  /// DTSTART's zone, nil unless DTSTART is zoned.
  func zoneRules() throws(RecurrenceSetError) -> ZoneRules? {
    guard let tzid = start.tzid else { return nil }
    do {
      return try ZoneRules.named(tzid)
    } catch {
      throw .timeZone(error)
    }
  }
}

/// Why a recurrence set cannot be expanded.
///
/// ```swift
/// let set = RecurrenceSet(
///   start: try DateTimeValue(parsing: "20250101"),
///   rules: [try RecurrenceRule(parsing: "FREQ=HOURLY")])
/// do {
///   _ = try set.occurrences()
/// } catch {
///   print(error)  // FREQ=HOURLY cannot repeat a DTSTART that is a DATE
/// }
/// ```
public enum RecurrenceSetError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A rule is invalid (``RecurrenceRule/validate()``) or cannot repeat from this start.
  case rule(RecurrenceRuleError)
  /// A zone that DTSTART, an RDATE or an EXDATE names cannot be loaded.
  case timeZone(TimeZoneError)

  /// The wrapped error's description.
  public var description: String {
    switch self {
    case .rule(let error): error.description
    case .timeZone(let error): error.description
    }
  }
}

/// The instances of a ``RecurrenceSet``, lazily, in start order, each once.
///
/// The `occurrences` methods of ``RecurrenceSet`` make it; each iteration starts over from
/// the beginning of the window. Iterating a set without end runs to the year 9999, so bound
/// it with a window, `prefix(_:)` or a `break`.
///
/// ```swift
/// let set = RecurrenceSet(
///   start: try DateTimeValue(parsing: "20250101T090000Z"),
///   rules: [try RecurrenceRule(parsing: "FREQ=DAILY")])
/// let occurrences = try set.occurrences()
/// for occurrence in occurrences {
///   if occurrence.local.date.weekday == .saturday { break }
///   print(occurrence.local.date)  // 20250101, 20250102, 20250103
/// }
/// ```
public struct Occurrences: Sequence, Sendable {
  private let set: RecurrenceSet
  private let zone: ZoneRules?
  private let startInstant: Int
  private var from: Int?
  private var to: Int?
  /// Each rule's iterator at DTSTART, made once; every iteration starts from a copy.
  private let ruleStarts: [RuleIterator]
  /// RDATE instances, sorted.
  private let extraDates: [Occurrence]
  private let excludedInstants: Set<Int>
  /// DATE-valued EXDATEs of a DATE-TIME set exclude every instance on that day.
  private let excludedDays: Set<Int>

  init(set: RecurrenceSet, from: Int?, to: Int?) throws(RecurrenceSetError) {
    self.set = set
    self.from = Occurrences.clamped(from)
    self.to = Occurrences.clamped(to)
    let zone = try set.zoneRules()
    self.zone = zone
    for rule in set.rules {
      do {
        try rule.validate()
      } catch {
        throw .rule(error)
      }
      if set.start.isDate, [.hourly, .minutely, .secondly].contains(rule.frequency) {
        throw .rule(
          RecurrenceRuleError(
            .incompatibleStart, part: "FREQ",
            "FREQ=\(rule.frequency.rawValue) cannot repeat a DTSTART that is a DATE"))
      }
    }
    func occurrence(at instant: Int, reading: CivilDateTime) -> Occurrence {
      Occurrence(
        local: zone.map { CivilDateTime(localSeconds: $0.local(forUTC: instant)) } ?? reading,
        secondsSinceEpoch: instant)
    }
    let startInstant = try set.instant(of: set.start)
    self.startInstant = startInstant
    ruleStarts = set.rules.map {
      RuleIterator(rule: $0, start: set.start, startInstant: startInstant, zone: zone)
    }
    var extra: [Occurrence] = []
    for date in set.dates {
      extra.append(occurrence(at: try set.instant(of: date.start), reading: date.start.local))
    }
    extraDates = extra.sorted()
    var instants: Set<Int> = []
    var days: Set<Int> = []
    for value in set.exceptionDates {
      if value.isDate && !set.start.isDate {
        days.insert(value.local.dayNumber)
      } else {
        instants.insert(try set.instant(of: value))
      }
    }
    excludedInstants = instants
    excludedDays = days
  }

  /// Bounds far outside years 0–9999 mean "no bound"; clamping keeps the arithmetic on them
  /// from overflowing.
  private static func clamped(_ bound: Int?) -> Int? {
    let limit = 1 << 40
    return bound.map { Swift.min(Swift.max($0, -limit), limit) }
  }

  /// The same set's instances starting at or after `from` and before `to`, in the terms of
  /// ``RecurrenceSet/occurrences(from:to:)``; this value's own window does not narrow it.
  ///
  /// The rules were validated, the zones loaded and the RDATEs and EXDATEs read when this value
  /// was made; the window reuses all of it. A calendar showing one series month after month
  /// prepares it once:
  ///
  /// ```swift
  /// let set = RecurrenceSet(
  ///   start: try DateTimeValue(parsing: "20250106T090000", tzid: "Europe/Paris"),
  ///   rules: [try RecurrenceRule(parsing: "FREQ=WEEKLY;BYDAY=MO")])
  /// let prepared = try set.occurrences()
  /// let june = try DateTimeValue(parsing: "20250601T000000Z").secondsSinceEpoch()
  /// for occurrence in prepared.window(from: june, to: june + 30 * 86_400) {
  ///   print(occurrence.local.date)  // 20250602, 20250609, 20250616, 20250623, 20250630
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - from: The first instant to include, or nil for no lower bound.
  ///   - to: The first instant past the window, excluded, or nil for no upper bound.
  /// - Returns: The instances in the new window, in order, computed lazily.
  public func window(from: Int?, to: Int?) -> Occurrences {
    var windowed = self
    windowed.from = Occurrences.clamped(from)
    windowed.to = Occurrences.clamped(to)
    return windowed
  }

  /// An iterator from the first instance of the window.
  ///
  /// ```swift
  /// let set = RecurrenceSet(
  ///   start: try DateTimeValue(parsing: "20250101"),
  ///   rules: [try RecurrenceRule(parsing: "FREQ=MONTHLY;COUNT=3")])
  /// let occurrences = try set.occurrences()
  /// var first = occurrences.makeIterator()
  /// var second = occurrences.makeIterator()
  /// print(first.next()!.local.date, first.next()!.local.date)  // 20250101 20250201
  /// print(second.next()!.local.date)  // 20250101: its own progress
  /// ```
  ///
  /// - Returns: A new iterator; iterators do not share progress.
  public func makeIterator() -> Iterator {
    let startOccurrence = Occurrence(
      local: zone.map { CivilDateTime(localSeconds: $0.local(forUTC: startInstant)) }
        ?? set.start.local,
      secondsSinceEpoch: startInstant)
    // The rules are copied once, moved to the window and read to their first instances
    // here, and handed over: mutating them in the iterator, which shares them with this
    // value's `ruleStarts` until then, would copy them again.
    var rules = ruleStarts
    var heads: [Occurrence?] = []
    heads.reserveCapacity(rules.count)
    for index in rules.indices {
      if let from { rules[index].skip(toward: from) }
      heads.append(rules[index].next())
    }
    var dates = extraDates
    if set.rules.isEmpty {
      dates.insert(startOccurrence, at: dates.firstIndex { $0 > startOccurrence } ?? dates.endIndex)
    }
    let firstDate = from.map { from in dates.firstIndex { $0.secondsSinceEpoch >= from } }
    return Iterator(
      rules: rules, heads: heads, dates: dates, nextDate: (firstDate ?? 0) ?? dates.count,
      from: from ?? Int.min, to: to ?? Int.max, excludedInstants: excludedInstants,
      excludedDays: excludedDays)
  }

  /// Merges the rules' instances and the RDATEs in order, dropping repeats, EXDATEs, and what
  /// lies outside the window.
  ///
  /// ```swift
  /// let set = RecurrenceSet(
  ///   start: try DateTimeValue(parsing: "20250101T090000Z"),
  ///   rules: [try RecurrenceRule(parsing: "FREQ=WEEKLY")])
  /// var iterator = try set.occurrences().makeIterator()
  /// while let occurrence = iterator.next(), occurrence.local.date.month == 1 {
  ///   print(occurrence.local.date)  // 20250101, 20250108, 20250115, 20250122, 20250129
  /// }
  /// ```
  public struct Iterator: IteratorProtocol {
    private var rules: [RuleIterator]
    /// The next instance of each rule, nil once it has no more.
    private var ruleHeads: [Occurrence?]
    /// RDATE instances (and DTSTART when there is no rule), sorted.
    private let dates: [Occurrence]
    private var nextDate: Int
    private let from: Int
    private let to: Int
    private let excludedInstants: Set<Int>
    private let excludedDays: Set<Int>
    private var last = Int.min

    init(
      rules: [RuleIterator], heads: [Occurrence?], dates: [Occurrence], nextDate: Int,
      from: Int, to: Int, excludedInstants: Set<Int>, excludedDays: Set<Int>
    ) {
      self.rules = rules
      ruleHeads = heads
      self.dates = dates
      self.nextDate = nextDate
      self.from = from
      self.to = to
      self.excludedInstants = excludedInstants
      self.excludedDays = excludedDays
    }

    /// The next instance in start order.
    ///
    /// ```swift
    /// let set = RecurrenceSet(
    ///   start: try DateTimeValue(parsing: "20250101T090000Z"),
    ///   rules: [try RecurrenceRule(parsing: "FREQ=DAILY;COUNT=2")])
    /// var iterator = try set.occurrences().makeIterator()
    /// print(iterator.next()?.local.date as Any)  // Optional(20250101)
    /// print(iterator.next()?.local.date as Any)  // Optional(20250102)
    /// print(iterator.next() as Any)  // nil
    /// ```
    ///
    /// - Returns: The next instance, or nil once the rules, RDATEs or window are exhausted.
    public mutating func next() -> Occurrence? {
      while let occurrence = nextInOrder() {
        let instant = occurrence.secondsSinceEpoch
        if instant >= to { return nil }
        if instant == last || instant < from { continue }
        last = instant
        if !excludedInstants.isEmpty, excludedInstants.contains(instant) { continue }
        if !excludedDays.isEmpty, excludedDays.contains(occurrence.local.dayNumber) { continue }
        return occurrence
      }
      return nil
    }

    /// The earliest head among the rules and the RDATEs, moving that source on.
    @inline(__always)
    private mutating func nextInOrder() -> Occurrence? {
      var best = -1
      var bestInstant = Int.max
      for index in ruleHeads.indices {
        if let head = ruleHeads[index], head.secondsSinceEpoch < bestInstant || best < 0 {
          best = index
          bestInstant = head.secondsSinceEpoch
        }
      }
      if nextDate < dates.count, best < 0 || dates[nextDate].secondsSinceEpoch < bestInstant {
        nextDate += 1
        return dates[nextDate - 1]
      }
      guard best >= 0 else { return nil }
      let occurrence = ruleHeads[best]
      ruleHeads[best] = rules[best].next()
      return occurrence
    }
  }
}
