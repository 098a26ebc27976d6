import Foundation

/// A recurrence set (RFC 5545 §3.8.5): DTSTART, the instances of its RRULEs and RDATEs, less
/// those its EXDATEs name. Expansion is lazy and in start order; a window query jumps to the
/// window instead of walking from DTSTART wherever the rules allow.
public struct RecurrenceSet: Hashable, Sendable {
  public var start: DateTimeValue
  public var rules: [RecurrenceRule]
  public var dates: [RecurrenceDate]
  public var exceptionDates: [DateTimeValue]

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
  public func occurrences() throws(RecurrenceSetError) -> Occurrences {
    try Occurrences(set: self, from: nil, to: nil)
  }

  /// The instances starting at or after `from` and before `to`, both instants in seconds since
  /// 1970 (for floating and DATE starts: wall-clock readings taken as UTC, as in
  /// ``Occurrence/secondsSinceEpoch``).
  public func occurrences(from: Int?, to: Int?) throws(RecurrenceSetError) -> Occurrences {
    try Occurrences(set: self, from: from, to: to)
  }

  /// The instances starting in `[start, end)`.
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
public enum RecurrenceSetError: Error, Hashable, Sendable, CustomStringConvertible {
  case rule(RecurrenceRuleError)
  case timeZone(TimeZoneError)

  public var description: String {
    switch self {
    case .rule(let error): error.description
    case .timeZone(let error): error.description
    }
  }
}

/// The instances of a ``RecurrenceSet``, lazily, in start order, each once.
public struct Occurrences: Sequence, Sendable {
  private let set: RecurrenceSet
  private let zone: ZoneRules?
  private let startInstant: Int
  private let from: Int?
  private let to: Int?
  /// RDATE instances, sorted.
  private let extraDates: [Occurrence]
  private let excludedInstants: Set<Int>
  /// DATE-valued EXDATEs of a DATE-TIME set exclude every instance on that day.
  private let excludedDays: Set<Int>

  init(set: RecurrenceSet, from: Int?, to: Int?) throws(RecurrenceSetError) {
    self.set = set
    // Bounds far outside years 0–9999 mean "no bound"; clamping keeps the arithmetic on them
    // from overflowing.
    let limit = 1 << 40
    self.from = from.map { Swift.min(Swift.max($0, -limit), limit) }
    self.to = to.map { Swift.min(Swift.max($0, -limit), limit) }
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
    startInstant = try set.instant(of: set.start)
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

  public func makeIterator() -> Iterator {
    let startOccurrence = Occurrence(
      local: zone.map { CivilDateTime(localSeconds: $0.local(forUTC: startInstant)) }
        ?? set.start.local,
      secondsSinceEpoch: startInstant)
    let rules = set.rules.map {
      RuleIterator(
        rule: $0, start: set.start, startInstant: startInstant, zone: zone, skippingTo: from)
    }
    var dates = extraDates
    if set.rules.isEmpty {
      dates.insert(startOccurrence, at: dates.firstIndex { $0 > startOccurrence } ?? dates.endIndex)
    }
    let firstDate = from.map { from in dates.firstIndex { $0.secondsSinceEpoch >= from } }
    return Iterator(
      rules: rules, dates: dates, nextDate: (firstDate ?? 0) ?? dates.count,
      from: from ?? Int.min, to: to ?? Int.max, excludedInstants: excludedInstants,
      excludedDays: excludedDays)
  }

  /// Merges the rules' instances and the RDATEs in order, dropping repeats, EXDATEs, and what
  /// lies outside the window.
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
      rules: [RuleIterator], dates: [Occurrence], nextDate: Int, from: Int, to: Int,
      excludedInstants: Set<Int>, excludedDays: Set<Int>
    ) {
      self.rules = rules
      self.dates = dates
      self.nextDate = nextDate
      self.from = from
      self.to = to
      self.excludedInstants = excludedInstants
      self.excludedDays = excludedDays
      ruleHeads = []
      for index in self.rules.indices { ruleHeads.append(self.rules[index].next()) }
    }

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
