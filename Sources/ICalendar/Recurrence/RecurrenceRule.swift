/// An RFC 5545 recurrence rule (RRULE, §3.3.10): how often an event repeats, until when, and
/// on which months, days and times.
///
/// A value: parse it from text with ``init(parsing:)``, write it back with ``text``, and
/// expand it from a start with ``RecurrenceSet``. Lists keep the order they were written in,
/// so that parsing the text a rule writes gives back the same rule.
///
/// A rule built in code is not checked until it is expanded or ``validate()`` is called.
///
/// ```swift
/// let lastWorkday = try RecurrenceRule(parsing: "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1")
/// print(lastWorkday.inWords())  // Monthly on the last weekday
///
/// let rule = RecurrenceRule(
///   frequency: .weekly, interval: 2, end: .count(10),
///   byDay: [RecurrenceRule.WeekdayNum(.monday), RecurrenceRule.WeekdayNum(.friday)])
/// try rule.validate()
/// print(rule.text)  // FREQ=WEEKLY;INTERVAL=2;COUNT=10;BYDAY=MO,FR
/// ```
public struct RecurrenceRule: Hashable, Sendable {
  /// FREQ: the period the rule repeats in, from a second to a year.
  public var frequency: Frequency
  /// Every how many periods of `frequency` the rule repeats; at least 1.
  public var interval: Int
  /// COUNT or UNTIL; nil repeats to the end of time (year 9999 here).
  public var end: End?
  /// BYSECOND: the seconds of the minute, 0…60; empty for DTSTART's. Second 60, a leap
  /// second, matches no instant, as instants here are POSIX time.
  public var bySecond: [Int]
  /// BYMINUTE: the minutes of the hour, 0…59; empty for DTSTART's.
  public var byMinute: [Int]
  /// BYHOUR: the hours of the day, 0…23; empty for DTSTART's.
  public var byHour: [Int]
  /// BYDAY: the weekdays, each with an optional ordinal (`MO`, `-1FR`).
  public var byDay: [WeekdayNum]
  /// BYMONTHDAY: the days of the month, 1…31 or -31…-1 counting back from the last day.
  public var byMonthDay: [Int]
  /// BYYEARDAY: the days of the year, 1…366 or -366…-1 counting back from December 31.
  public var byYearDay: [Int]
  /// BYWEEKNO: the ISO 8601 weeks of the year (week 1 holds at least four days of the new
  /// year, counted from ``weekStart``), 1…53 or -53…-1; YEARLY rules only.
  public var byWeekNo: [Int]
  /// BYMONTH: the months, 1…12.
  public var byMonth: [Int]
  /// BYSETPOS: which of each period's candidates to keep, 1…366 or -366…-1 counting back
  /// from the last.
  public var bySetPos: [Int]
  /// WKST: the day weeks start on, for WEEKLY rules with INTERVAL > 1 and for BYWEEKNO.
  public var weekStart: Weekday

  /// A rule built part by part; each argument is the rule part of the same name in §3.3.10,
  /// and an empty list leaves the part out.
  ///
  /// Nothing is checked here: ``validate()`` checks ranges and combinations, and expanding
  /// the rule in a ``RecurrenceSet`` calls it.
  ///
  /// ```swift
  /// let rule = RecurrenceRule(
  ///   frequency: .monthly, end: .count(6),
  ///   byDay: [RecurrenceRule.WeekdayNum(.tuesday, ordinal: 1)])
  /// try rule.validate()
  /// print(rule.text)  // FREQ=MONTHLY;COUNT=6;BYDAY=1TU
  /// ```
  ///
  /// - Parameters:
  ///   - frequency: FREQ, the period the rule repeats in.
  ///   - interval: INTERVAL, every how many periods; 1 by default.
  ///   - end: COUNT or UNTIL; nil for a rule without end.
  ///   - bySecond: BYSECOND, the seconds of the minute.
  ///   - byMinute: BYMINUTE, the minutes of the hour.
  ///   - byHour: BYHOUR, the hours of the day.
  ///   - byDay: BYDAY, the weekdays with optional ordinals.
  ///   - byMonthDay: BYMONTHDAY, the days of the month.
  ///   - byYearDay: BYYEARDAY, the days of the year.
  ///   - byWeekNo: BYWEEKNO, the weeks of the year.
  ///   - byMonth: BYMONTH, the months.
  ///   - bySetPos: BYSETPOS, the positions to keep within each period.
  ///   - weekStart: WKST, the first day of the week; Monday by default, as in the RFC.
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

  /// FREQ: the period a rule repeats in; the raw value is the RFC 5545 name.
  ///
  /// ```swift
  /// let frequency = RecurrenceRule.Frequency(rawValue: "WEEKLY")  // .weekly
  /// print(RecurrenceRule(frequency: .daily, interval: 3).text)  // FREQ=DAILY;INTERVAL=3
  /// ```
  public enum Frequency: String, CaseIterable, Hashable, Sendable, Codable {
    /// Every second (times INTERVAL).
    case secondly = "SECONDLY"
    /// Every minute.
    case minutely = "MINUTELY"
    /// Every hour.
    case hourly = "HOURLY"
    /// Every day.
    case daily = "DAILY"
    /// Every week, the weeks starting on WKST.
    case weekly = "WEEKLY"
    /// Every month.
    case monthly = "MONTHLY"
    /// Every year.
    case yearly = "YEARLY"
  }

  /// How a rule ends: after a number of instances, or at an instant.
  ///
  /// ```swift
  /// let tenTimes = RecurrenceRule.End.count(10)
  /// let untilSummer = RecurrenceRule.End.until(try DateTimeValue(parsing: "20250621T000000Z"))
  /// print(RecurrenceRule(frequency: .daily, end: untilSummer).text)
  /// // FREQ=DAILY;UNTIL=20250621T000000Z
  /// ```
  public enum End: Hashable, Sendable {
    /// COUNT: this many instances, the start included (§3.3.10).
    case count(Int)
    /// UNTIL: the last instant an instance may start at, inclusive.
    case until(DateTimeValue)
  }

  /// A BYDAY entry: a weekday, with an ordinal for "the nth such day" in MONTHLY and YEARLY
  /// rules (`2MO`, `-1FR`), or without one for every such day.
  ///
  /// ```swift
  /// let thanksgiving = RecurrenceRule(
  ///   frequency: .yearly, byDay: [RecurrenceRule.WeekdayNum(.thursday, ordinal: 4)],
  ///   byMonth: [11])
  /// print(thanksgiving.text)  // FREQ=YEARLY;BYDAY=4TH;BYMONTH=11
  /// ```
  public struct WeekdayNum: Hashable, Sendable {
    /// The day of the week.
    public var weekday: Weekday
    /// nil for every such day; otherwise 1…53 or -53…-1.
    public var ordinal: Int?

    /// A BYDAY entry.
    ///
    /// ```swift
    /// print(RecurrenceRule.WeekdayNum(.friday, ordinal: -1).text)  // -1FR
    /// print(RecurrenceRule.WeekdayNum(.sunday).text)  // SU
    /// ```
    ///
    /// - Parameters:
    ///   - weekday: The day of the week.
    ///   - ordinal: Which such day of the month or year (negative counting from the end),
    ///     or nil for every one.
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
  ///
  /// ```swift
  /// let rule = try RecurrenceRule(parsing: "FREQ=YEARLY;BYMONTH=3")
  /// let json = try JSONEncoder().encode([rule])  // ["FREQ=YEARLY;BYMONTH=3"]
  /// let back = try JSONDecoder().decode([RecurrenceRule].self, from: json)
  /// ```
  ///
  /// - Parameter decoder: The decoder to read a single string from.
  /// - Throws: `DecodingError.dataCorrupted` when the string is not a rule that
  ///   ``init(parsing:)`` accepts, with the ``RecurrenceRuleError``'s message; any error the
  ///   decoder throws for a value that is not a string.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    do {
      self = try RecurrenceRule(parsing: text)
    } catch {
      throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
    }
  }

  /// Encodes the rule as its RRULE text (``text``), a single string.
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: Whatever error `encoder` throws for a single string.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(text)
  }
}
