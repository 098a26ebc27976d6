/// Typed readings of property values, each failing with an error that names the property and
/// its line.
extension ICalendarProperty {
  /// An error about this property's value.
  public func error(_ reason: String) -> ICalendarParseError {
    ICalendarParseError(line: line, property: name, reason: reason)
  }

  /// A DATE or DATE-TIME (DTSTART, DTEND, DUE, RECURRENCE-ID…), its TZID resolved.
  ///
  /// A TZID that resolves to a tz database zone gives a zoned value under that zone's
  /// identifier; one whose VTIMEZONE matches no such zone gives the instant, in UTC.
  public func dateTimeValue(zones: inout TimeZoneResolver) throws(ICalendarParseError)
    -> DateTimeValue
  {
    try dateTimeValue(value, zones: &zones)
  }

  /// Every DATE or DATE-TIME of a list property (EXDATE, and RDATE without periods).
  public func dateTimeValues(zones: inout TimeZoneResolver) throws(ICalendarParseError)
    -> [DateTimeValue]
  {
    var values: [DateTimeValue] = []
    for text in value.split(separator: ",") {
      values.append(try dateTimeValue(text, zones: &zones))
    }
    return values
  }

  /// Every value of an RDATE: dates, date-times and periods.
  public func recurrenceDates(zones: inout TimeZoneResolver) throws(ICalendarParseError)
    -> [RecurrenceDate]
  {
    var dates: [RecurrenceDate] = []
    for text in value.split(separator: ",") {
      let parts = text.split(separator: "/", maxSplits: 1)
      let start = try dateTimeValue(parts[0], zones: &zones)
      guard parts.count == 2 else {
        dates.append(.dateTime(start))
        continue
      }
      if let duration = try? DurationValue(parsing: parts[1]) {
        dates.append(.periodWithDuration(start: start, duration: duration))
      } else {
        dates.append(.period(start: start, end: try dateTimeValue(parts[1], zones: &zones)))
      }
    }
    return dates
  }

  /// A DURATION (§3.3.6).
  public func durationValue() throws(ICalendarParseError) -> DurationValue {
    do {
      return try DurationValue(parsing: value)
    } catch {
      throw self.error(error.description)
    }
  }

  /// An INTEGER (§3.3.8), within `range`.
  public func integerValue(in range: ClosedRange<Int> = Int.min...Int.max)
    throws(ICalendarParseError) -> Int
  {
    guard let number = Int(value.trimmingWhitespace()), range.contains(number) else {
      throw error(
        "'\(ICalendarText.excerpt(value))' is not a whole number in"
          + " \(range.lowerBound)…\(range.upperBound)")
    }
    return number
  }

  /// A RECUR value (§3.3.10).
  public func recurrenceRuleValue() throws(ICalendarParseError) -> RecurrenceRule {
    do {
      return try RecurrenceRule(parsing: value)
    } catch {
      throw self.error(error.description)
    }
  }

  private func dateTimeValue(_ text: some StringProtocol, zones: inout TimeZoneResolver)
    throws(ICalendarParseError) -> DateTimeValue
  {
    let parsed: DateTimeValue
    do {
      parsed = try DateTimeValue(parsing: text)
    } catch {
      throw self.error(error.description)
    }
    if parameter("VALUE")?.uppercased() == "DATE", !parsed.isDate {
      throw self.error("VALUE=DATE, but '\(ICalendarText.excerpt(text))' is a DATE-TIME")
    }
    guard case .floating(let reading) = parsed, let tzid = parameter("TZID"), !tzid.isEmpty else {
      return parsed
    }
    switch try zones.resolve(tzid, line: line, property: name) {
    case .named(let identifier):
      return .zoned(reading, tzid: identifier)
    case .defined(let rules):
      let instant = rules.instant(forLocal: reading.localSeconds).seconds
      return .utc(CivilDateTime(localSeconds: instant))
    }
  }
}
