/// The checks of RFC 5545 §3.3.10 that a rule's parts must pass, alone and together.
extension RecurrenceRule {
  /// Throws the first problem found, naming its rule part. ``init(parsing:)`` calls this; a
  /// rule built in code is checked when it is expanded.
  public func validate() throws(RecurrenceRuleError) {
    guard interval >= 1 else {
      throw RecurrenceRuleError(.invalidValue, part: "INTERVAL", "INTERVAL must be at least 1")
    }
    guard interval <= 1_000_000_000 else {
      throw RecurrenceRuleError(.invalidValue, part: "INTERVAL", "INTERVAL is too large")
    }
    if case .count(let count) = end, count < 1 {
      throw RecurrenceRuleError(.invalidValue, part: "COUNT", "COUNT must be at least 1")
    }
    try Self.check(bySecond, "BYSECOND", 0...60, signed: false)
    try Self.check(byMinute, "BYMINUTE", 0...59, signed: false)
    try Self.check(byHour, "BYHOUR", 0...23, signed: false)
    try Self.check(byMonthDay, "BYMONTHDAY", 1...31, signed: true)
    try Self.check(byYearDay, "BYYEARDAY", 1...366, signed: true)
    try Self.check(byWeekNo, "BYWEEKNO", 1...53, signed: true)
    try Self.check(byMonth, "BYMONTH", 1...12, signed: false)
    try Self.check(bySetPos, "BYSETPOS", 1...366, signed: true)
    for day in byDay {
      if let ordinal = day.ordinal, !(1...53).contains(abs(ordinal)) {
        throw RecurrenceRuleError(
          .invalidValue, part: "BYDAY",
          "BYDAY ordinal in '\(day.text)' must be 1 to 53 or -53 to -1")
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

  private static func check(
    _ values: [Int], _ part: String, _ range: ClosedRange<Int>, signed: Bool
  ) throws(RecurrenceRuleError) {
    for value in values where !(range.contains(value) || (signed && range.contains(-value))) {
      let allowed =
        signed
        ? "\(range.lowerBound) to \(range.upperBound) or -\(range.upperBound) to -\(range.lowerBound)"
        : "\(range.lowerBound) to \(range.upperBound)"
      throw RecurrenceRuleError(
        .invalidValue, part: part, "\(part) value \(value) is out of range (\(allowed))")
    }
  }
}
