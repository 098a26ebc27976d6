/// Reading and writing the RRULE value text of RFC 5545 §3.3.10.
extension RecurrenceRule {
  /// Parses and validates a rule such as `FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1`.
  ///
  /// Names and values are read without regard to case, an `RRULE:` prefix and a trailing `;`
  /// are accepted, and anything else that is not RFC 5545 is a ``RecurrenceRuleError`` naming
  /// the part at fault.
  ///
  /// ```swift
  /// let rule = try RecurrenceRule(parsing: "rrule:freq=yearly;bymonth=11;byday=4th")
  /// print(rule.frequency, rule.byMonth)  // yearly [11]
  /// print(rule.text)  // FREQ=YEARLY;BYDAY=4TH;BYMONTH=11
  /// ```
  ///
  /// - Parameter text: An RRULE value (§3.3.10), with or without the `RRULE:` property name.
  /// - Throws: ``RecurrenceRuleError``, its ``RecurrenceRuleError/part`` naming the part at
  ///   fault: ``RecurrenceRuleError/Reason/empty`` for no parts,
  ///   ``RecurrenceRuleError/Reason/malformedPart`` for a part that is not `NAME=VALUE`,
  ///   ``RecurrenceRuleError/Reason/unknownPart`` or
  ///   ``RecurrenceRuleError/Reason/repeatedPart`` for a part not in the RFC or given twice,
  ///   ``RecurrenceRuleError/Reason/missingFrequency`` without FREQ,
  ///   ``RecurrenceRuleError/Reason/countWithUntil`` for COUNT with UNTIL,
  ///   ``RecurrenceRuleError/Reason/invalidValue`` for a value not of its part's form (a
  ///   FREQ, UNTIL, WKST or weekday the RFC does not define, a number that is not one, more
  ///   than 400 values in a list), and whatever ``validate()`` throws for the parsed rule.
  public init(parsing text: some StringProtocol) throws(RecurrenceRuleError) {
    var body = text.trimmingWhitespace()
    if body.uppercased().hasPrefix("RRULE:") { body = body.dropFirst(6) }
    guard !body.isEmpty else { throw RecurrenceRuleError(.empty, part: nil, "the rule is empty") }

    var seen: Set<String> = []
    var values: [String: Substring] = [:]
    for rawPart in body.split(separator: ";", omittingEmptySubsequences: false) {
      let part = rawPart.trimmingWhitespace()
      if part.isEmpty { continue }
      guard let equals = part.firstIndex(of: "=") else {
        throw RecurrenceRuleError(
          .malformedPart, part: String(part).uppercased(),
          "rule part '\(Self.excerpt(part))' is not of the form NAME=VALUE")
      }
      let name = part[..<equals].trimmingWhitespace().uppercased()
      guard !name.isEmpty else {
        throw RecurrenceRuleError(
          .malformedPart, part: nil, "rule part '\(Self.excerpt(part))' has no name")
      }
      guard RecurrenceRule.partNames.contains(name) else {
        throw RecurrenceRuleError(
          .unknownPart, part: name, "unknown rule part '\(Self.excerpt(name))'")
      }
      guard seen.insert(name).inserted else {
        throw RecurrenceRuleError(.repeatedPart, part: name, "rule part \(name) is given twice")
      }
      values[name] = part[part.index(after: equals)...].trimmingWhitespace()
    }
    guard !values.isEmpty else { throw RecurrenceRuleError(.empty, part: nil, "the rule is empty") }
    guard let frequencyText = values["FREQ"] else {
      throw RecurrenceRuleError(.missingFrequency, part: "FREQ", "the rule has no FREQ")
    }
    guard let frequency = Frequency(rawValue: frequencyText.uppercased()) else {
      throw RecurrenceRuleError(
        .invalidValue, part: "FREQ",
        "FREQ=\(Self.excerpt(frequencyText)) is not one of SECONDLY, MINUTELY, HOURLY, DAILY,"
          + " WEEKLY, MONTHLY, YEARLY")
    }
    self.init(frequency: frequency)

    if let text = values["INTERVAL"] { interval = try Self.integer(text, part: "INTERVAL") }
    if let text = values["COUNT"] { end = .count(try Self.integer(text, part: "COUNT")) }
    if let text = values["UNTIL"] {
      guard values["COUNT"] == nil else {
        throw RecurrenceRuleError(
          .countWithUntil, part: "UNTIL", "COUNT and UNTIL cannot both be given")
      }
      do {
        end = .until(try DateTimeValue(parsing: text))
      } catch {
        throw RecurrenceRuleError(
          .invalidValue, part: "UNTIL", "UNTIL=\(Self.excerpt(text)) is not a DATE or DATE-TIME")
      }
    }
    if let text = values["BYSECOND"] { bySecond = try Self.integers(text, part: "BYSECOND") }
    if let text = values["BYMINUTE"] { byMinute = try Self.integers(text, part: "BYMINUTE") }
    if let text = values["BYHOUR"] { byHour = try Self.integers(text, part: "BYHOUR") }
    if let text = values["BYDAY"] { byDay = try Self.weekdayNums(text) }
    if let text = values["BYMONTHDAY"] {
      byMonthDay = try Self.integers(text, part: "BYMONTHDAY")
    }
    if let text = values["BYYEARDAY"] { byYearDay = try Self.integers(text, part: "BYYEARDAY") }
    if let text = values["BYWEEKNO"] { byWeekNo = try Self.integers(text, part: "BYWEEKNO") }
    if let text = values["BYMONTH"] { byMonth = try Self.integers(text, part: "BYMONTH") }
    if let text = values["BYSETPOS"] { bySetPos = try Self.integers(text, part: "BYSETPOS") }
    if let text = values["WKST"] {
      guard let weekday = Weekday(abbreviation: text) else {
        throw RecurrenceRuleError(
          .invalidValue, part: "WKST",
          "WKST=\(Self.excerpt(text)) is not one of SU, MO, TU, WE, TH, FR, SA")
      }
      weekStart = weekday
    }
    try validate()
  }

  /// The canonical RRULE text: FREQ first, then INTERVAL (when not 1), COUNT or UNTIL, the
  /// BY-parts from the smallest unit to the largest, BYSETPOS, and WKST (when not Monday).
  ///
  /// Without the `RRULE:` name, as a property's value holds it; ``init(parsing:)`` reads it
  /// back as the same rule.
  public var text: String {
    var parts = ["FREQ=\(frequency.rawValue)"]
    if interval != 1 { parts.append("INTERVAL=\(interval)") }
    switch end {
    case .count(let count): parts.append("COUNT=\(count)")
    case .until(let until): parts.append("UNTIL=\(until.text)")
    case nil: break
    }
    func list(_ name: String, _ values: [Int]) {
      if !values.isEmpty {
        parts.append(name + "=" + values.map(String.init).joined(separator: ","))
      }
    }
    list("BYSECOND", bySecond)
    list("BYMINUTE", byMinute)
    list("BYHOUR", byHour)
    if !byDay.isEmpty { parts.append("BYDAY=" + byDay.map(\.text).joined(separator: ",")) }
    list("BYMONTHDAY", byMonthDay)
    list("BYYEARDAY", byYearDay)
    list("BYWEEKNO", byWeekNo)
    list("BYMONTH", byMonth)
    list("BYSETPOS", bySetPos)
    if weekStart != .monday { parts.append("WKST=\(weekStart.abbreviation)") }
    return parts.joined(separator: ";")
  }

  static let partNames: Set<String> = [
    "FREQ", "UNTIL", "COUNT", "INTERVAL", "BYSECOND", "BYMINUTE", "BYHOUR", "BYDAY",
    "BYMONTHDAY", "BYYEARDAY", "BYWEEKNO", "BYMONTH", "BYSETPOS", "WKST",
  ]

  /// A whole number, optionally signed. One of more than 18 digits (leading zeros aside) is
  /// outside every part's range and is said to be so, with the range, without converting it,
  /// which could overflow; a smaller one is converted and checked by ``validate()``.
  private static func integer(_ text: Substring, part: String, subject: String? = nil)
    throws(RecurrenceRuleError) -> Int
  {
    var digits = text
    var sign = 1
    if digits.first == "+" || digits.first == "-" {
      sign = digits.first == "-" ? -1 : 1
      digits = digits.dropFirst()
    }
    guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
      throw RecurrenceRuleError(
        .invalidValue, part: part,
        "\(subject ?? "\(part)=\(excerpt(text))") is not a whole number")
    }
    let significant = digits.drop { $0 == "0" }
    guard significant.utf8.count <= 18, let value = Int(significant.isEmpty ? "0" : significant)
    else {
      throw outOfRange(subject ?? "\(part)=\(excerpt(text))", part: part)
    }
    return sign * value
  }

  private static func excerpt(_ text: some StringProtocol) -> String {
    ICalendarText.excerpt(text)
  }

  private static func integers(_ text: Substring, part: String) throws(RecurrenceRuleError)
    -> [Int]
  {
    guard !text.isEmpty else {
      throw RecurrenceRuleError(.invalidValue, part: part, "\(part) has no values")
    }
    var values: [Int] = []
    for item in text.split(separator: ",", omittingEmptySubsequences: false) {
      let item = item.trimmingWhitespace()
      guard !item.isEmpty else {
        throw RecurrenceRuleError(
          .invalidValue, part: part, "\(part)=\(excerpt(text)) has an empty value")
      }
      values.append(try integer(item, part: part, subject: "\(part) value \(excerpt(item))"))
      guard values.count <= 400 else {
        throw RecurrenceRuleError(.invalidValue, part: part, "\(part) has too many values")
      }
    }
    return values
  }

  private static func weekdayNums(_ text: Substring) throws(RecurrenceRuleError) -> [WeekdayNum] {
    guard !text.isEmpty else {
      throw RecurrenceRuleError(.invalidValue, part: "BYDAY", "BYDAY has no values")
    }
    var values: [WeekdayNum] = []
    for item in text.split(separator: ",", omittingEmptySubsequences: false) {
      let item = item.trimmingWhitespace()
      let notAWeekday = RecurrenceRuleError(
        .invalidValue, part: "BYDAY",
        "BYDAY value '\(excerpt(item))' is not a weekday such as MO or -1FR")
      guard item.count >= 2, let weekday = Weekday(abbreviation: item.suffix(2)) else {
        throw notAWeekday
      }
      let ordinalText = item.dropLast(2)
      var ordinal: Int? = nil
      if !ordinalText.isEmpty {
        let digits = ordinalText.drop { $0 == "+" || $0 == "-" }
        guard ordinalText.count - digits.count <= 1, !digits.isEmpty,
          digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
        else { throw notAWeekday }
        ordinal = try integer(
          ordinalText, part: "BYDAY", subject: "BYDAY ordinal in '\(excerpt(item))'")
      }
      values.append(WeekdayNum(weekday, ordinal: ordinal))
      guard values.count <= 400 else {
        throw RecurrenceRuleError(.invalidValue, part: "BYDAY", "BYDAY has too many values")
      }
    }
    return values
  }
}

extension RecurrenceRule: CustomStringConvertible {
  /// The canonical RRULE text, ``text``.
  public var description: String { text }
}
