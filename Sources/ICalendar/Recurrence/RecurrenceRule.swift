/// An RFC 5545 recurrence rule (RRULE, §3.3.10): how often an event repeats, until when, and
/// on which months, days and times.
///
/// A value: parse it from text with ``init(parsing:)``, write it back with ``text``, and
/// expand it from a start with ``RecurrenceSet``. Lists keep the order they were written in,
/// so that parsing the text a rule writes gives back the same rule.
public struct RecurrenceRule: Hashable, Sendable {
  public var frequency: Frequency
  /// Every how many periods of `frequency` the rule repeats; at least 1.
  public var interval: Int
  /// COUNT or UNTIL; nil repeats to the end of time (year 9999 here).
  public var end: End?
  public var bySecond: [Int]
  public var byMinute: [Int]
  public var byHour: [Int]
  public var byDay: [WeekdayNum]
  public var byMonthDay: [Int]
  public var byYearDay: [Int]
  public var byWeekNo: [Int]
  public var byMonth: [Int]
  public var bySetPos: [Int]
  /// WKST: the day weeks start on, for WEEKLY rules with INTERVAL > 1 and for BYWEEKNO.
  public var weekStart: Weekday

  public init(
    frequency: Frequency, interval: Int = 1, end: End? = nil, bySecond: [Int] = [],
    byMinute: [Int] = [], byHour: [Int] = [], byDay: [WeekdayNum] = [], byMonthDay: [Int] = [],
    byYearDay: [Int] = [], byWeekNo: [Int] = [], byMonth: [Int] = [], bySetPos: [Int] = [],
    weekStart: Weekday = .monday
  ) {
    self.frequency = frequency
    self.interval = interval
    self.end = end
    self.bySecond = bySecond
    self.byMinute = byMinute
    self.byHour = byHour
    self.byDay = byDay
    self.byMonthDay = byMonthDay
    self.byYearDay = byYearDay
    self.byWeekNo = byWeekNo
    self.byMonth = byMonth
    self.bySetPos = bySetPos
    self.weekStart = weekStart
  }

  /// FREQ: the period a rule repeats in.
  public enum Frequency: String, CaseIterable, Hashable, Sendable, Codable {
    case secondly = "SECONDLY"
    case minutely = "MINUTELY"
    case hourly = "HOURLY"
    case daily = "DAILY"
    case weekly = "WEEKLY"
    case monthly = "MONTHLY"
    case yearly = "YEARLY"
  }

  /// How a rule ends.
  public enum End: Hashable, Sendable {
    /// COUNT: this many instances, the start included (§3.3.10).
    case count(Int)
    /// UNTIL: the last instant an instance may start at, inclusive.
    case until(DateTimeValue)
  }

  /// A BYDAY entry: a weekday, with an ordinal for "the nth such day" in MONTHLY and YEARLY
  /// rules (`2MO`, `-1FR`), or without one for every such day.
  public struct WeekdayNum: Hashable, Sendable {
    public var weekday: Weekday
    /// nil for every such day; otherwise 1…53 or -53…-1.
    public var ordinal: Int?

    public init(_ weekday: Weekday, ordinal: Int? = nil) {
      self.weekday = weekday
      self.ordinal = ordinal
    }

    /// `MO`, `2MO`, `-1FR`.
    public var text: String {
      (ordinal.map { $0 > 0 ? "\($0)" : "\($0)" } ?? "") + weekday.abbreviation
    }
  }

  /// The COUNT, if the rule has one.
  public var count: Int? {
    if case .count(let count) = end { return count }
    return nil
  }

  /// The UNTIL, if the rule has one.
  public var until: DateTimeValue? {
    if case .until(let until) = end { return until }
    return nil
  }
}

extension RecurrenceRule: Codable {
  /// A rule is coded as its RRULE text, the form every calendar understands.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    do {
      self = try RecurrenceRule(parsing: text)
    } catch {
      throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(text)
  }
}
