/// The checks of RFC 5545 §3.3.10 that a rule's parts must pass, alone and together.
extension RecurrenceRule {
  /// Throws the first problem found, naming its rule part. ``init(parsing:)`` calls this; a
  /// rule built in code is checked when it is expanded.
  ///
  /// ```swift
  /// let firstMonday = RecurrenceRule.WeekdayNum(.monday, ordinal: 1)
  /// let rule = RecurrenceRule(frequency: .daily, byDay: [firstMonday])
  /// do {
  ///   try rule.validate()
  /// } catch {
  ///   print(error.reason, error.part ?? "")  // ordinalNotAllowed BYDAY
  /// }
  /// ```
  ///
  /// - Throws: ``RecurrenceRuleError`` with reason
  ///   ``RecurrenceRuleError/Reason/invalidValue`` for a number outside its part's range
  ///   (INTERVAL 1…1,000,000,000, COUNT 1…2,147,483,647, BYMONTH 1…12, BYMONTHDAY ±1…31 and
  ///   so on) or an UNTIL with a TZID; ``RecurrenceRuleError/Reason/notAllowedForFrequency``
  ///   for a BY-part the §3.3.10 table marks "N/A" for this FREQ (BYMONTHDAY in a WEEKLY
  ///   rule, BYYEARDAY in a DAILY, WEEKLY or MONTHLY one, BYWEEKNO outside YEARLY);
  ///   ``RecurrenceRuleError/Reason/ordinalNotAllowed`` for a BYDAY ordinal outside MONTHLY
  ///   and YEARLY rules or with BYWEEKNO; and
  ///   ``RecurrenceRuleError/Reason/setPositionWithoutOtherPart`` for BYSETPOS alone.
  public func validate() throws(RecurrenceRuleError) {
    guard Self.allows(interval, in: "INTERVAL") else {
      throw Self.outOfRange("INTERVAL=\(interval)", part: "INTERVAL")
    }
    if case .count(let count) = end, !Self.allows(count, in: "COUNT") {
      throw Self.outOfRange("COUNT=\(count)", part: "COUNT")
    }
    try Self.check(bySecond, "BYSECOND")
    try Self.check(byMinute, "BYMINUTE")
    try Self.check(byHour, "BYHOUR")
    try Self.check(byMonthDay, "BYMONTHDAY")
    try Self.check(byYearDay, "BYYEARDAY")
    try Self.check(byWeekNo, "BYWEEKNO")
    try Self.check(byMonth, "BYMONTH")
    try Self.check(bySetPos, "BYSETPOS")
    for day in byDay {
      if let ordinal = day.ordinal, !Self.allows(ordinal, in: "BYDAY") {
        throw Self.outOfRange("BYDAY ordinal in '\(day.text)'", part: "BYDAY")
      }
    }

    // Which BY-parts a FREQ allows: the table in §3.3.10 ("N/A" entries are errors).
    if !byMonthDay.isEmpty, frequency == .weekly {
      throw notAllowed("BYMONTHDAY")
    }
    if !byYearDay.isEmpty, [.daily, .weekly, .monthly].contains(frequency) {
      throw notAllowed("BYYEARDAY")
    }
    if !byWeekNo.isEmpty, frequency != .yearly {
      throw notAllowed("BYWEEKNO")
    }
    if byDay.contains(where: { $0.ordinal != nil }) {
      // §3.3.10: ordinals only "within a MONTHLY or YEARLY rule", and not with BYWEEKNO.
      guard frequency == .monthly || frequency == .yearly else {
        throw RecurrenceRuleError(
          .ordinalNotAllowed, part: "BYDAY",
          "BYDAY ordinals such as 2MO are only allowed in MONTHLY and YEARLY rules")
      }
      guard byWeekNo.isEmpty else {
        throw RecurrenceRuleError(
          .ordinalNotAllowed, part: "BYDAY", "BYDAY ordinals cannot be combined with BYWEEKNO")
      }
    }
    if !bySetPos.isEmpty {
      let others = [bySecond, byMinute, byHour, byMonthDay, byYearDay, byWeekNo, byMonth]
      guard others.contains(where: { !$0.isEmpty }) || !byDay.isEmpty else {
        throw RecurrenceRuleError(
          .setPositionWithoutOtherPart, part: "BYSETPOS",
          "BYSETPOS needs another BY-part to choose from")
      }
    }
    if case .until(let until) = end, case .zoned = until {
      throw RecurrenceRuleError(
        .invalidValue, part: "UNTIL", "UNTIL must be a DATE, a UTC DATE-TIME or a floating one")
    }
  }

  private func notAllowed(_ part: String) -> RecurrenceRuleError {
    RecurrenceRuleError(
      .notAllowedForFrequency, part: part,
      "\(part) is not allowed with FREQ=\(frequency.rawValue)")
  }

  private static func check(_ values: [Int], _ part: String) throws(RecurrenceRuleError) {
    for value in values where !allows(value, in: part) {
      throw outOfRange("\(part) value \(value)", part: part)
    }
  }

  /// The values each numeric part takes; a `signed` part takes their negatives too (a BYDAY
  /// range is its ordinals'). COUNT stops at 2,147,483,647, the largest 32-bit integer and
  /// what producers write for "no end"; INTERVAL at a billion, which keeps period arithmetic
  /// far from overflow.
  static let allowedValues: [String: (range: ClosedRange<Int>, signed: Bool)] = [
    "INTERVAL": (1...1_000_000_000, false), "COUNT": (1...Int(Int32.max), false),
    "BYSECOND": (0...60, false), "BYMINUTE": (0...59, false), "BYHOUR": (0...23, false),
    "BYMONTHDAY": (1...31, true), "BYYEARDAY": (1...366, true), "BYWEEKNO": (1...53, true),
    "BYMONTH": (1...12, false), "BYSETPOS": (1...366, true), "BYDAY": (1...53, true),
  ]

  static func allows(_ value: Int, in part: String) -> Bool {
    guard let (range, signed) = allowedValues[part] else { return true }
    return range.contains(value) || (signed && value != Int.min && range.contains(-value))
  }

  /// "`subject` is out of range (1 to 31 or -31 to -1)", with the range of `part`.
  static func outOfRange(_ subject: String, part: String) -> RecurrenceRuleError {
    var allowed = ""
    if let (range, signed) = allowedValues[part] {
      allowed = " (\(range.lowerBound) to \(range.upperBound)"
      if signed { allowed += " or -\(range.upperBound) to -\(range.lowerBound)" }
      allowed += ")"
    }
    return RecurrenceRuleError(.invalidValue, part: part, "\(subject) is out of range\(allowed)")
  }
}
