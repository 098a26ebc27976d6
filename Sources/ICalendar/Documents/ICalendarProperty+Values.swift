/// Typed readings of property values, each failing with an error that names the property and
/// its line.
extension ICalendarProperty {
  /// An error about this property's value, at its line and naming it.
  ///
  /// ```swift
  /// let priority = ICalendarProperty(name: "PRIORITY", value: "high", line: 8)
  /// if Int(priority.value) == nil {
  ///   print(priority.error("not a number"))  // line 8: PRIORITY: not a number
  /// }
  /// ```
  ///
  /// - Parameter reason: What is wrong with the value, for a person.
  /// - Returns: An ``ICalendarParseError`` with this property's ``line`` and ``name``.
  public func error(_ reason: String) -> ICalendarParseError {
    ICalendarParseError(line: line, property: name, reason: reason)
  }

  /// A DATE or DATE-TIME (DTSTART, DTEND, DUE, RECURRENCE-ID…), its TZID resolved.
  ///
  /// A TZID that resolves to a tz database zone gives a zoned value under that zone's
  /// identifier; one whose VTIMEZONE matches no such zone gives the instant, in UTC.
  ///
  /// ```swift
  /// let document = try ICalendarDocument(parsing: """
  ///   BEGIN:VCALENDAR
  ///   BEGIN:VEVENT
  ///   DTSTART;TZID=W. Europe Standard Time:20250301T090000
  ///   END:VEVENT
  ///   END:VCALENDAR
  ///   """)
  /// let calendar = document.calendars[0]
  /// var zones = TimeZoneResolver(calendar: calendar)
  /// let start = try calendar.components[0].property("DTSTART")!.dateTimeValue(zones: &zones)
  /// print(start)  // TZID=Europe/Berlin:20250301T090000
  /// ```
  ///
  /// - Parameter zones: The resolver of the calendar the property belongs to; it caches each
  ///   TZID it resolves.
  /// - Returns: The value: a DATE, a floating or UTC DATE-TIME, or a zoned one.
  /// - Throws: ``ICalendarParseError`` at this property's line when the value is not a DATE or
  ///   DATE-TIME (§3.3.4, §3.3.5), when `VALUE=DATE` is given with a DATE-TIME, or when the
  ///   TZID names no zone that ``TimeZoneResolver/resolve(_:line:property:)`` can find.
  public func dateTimeValue(zones: inout TimeZoneResolver) throws(ICalendarParseError)
    -> DateTimeValue
  {
    try dateTimeValue(value, zones: &zones)
  }

  /// Every DATE or DATE-TIME of a list property (EXDATE, and RDATE without periods).
  ///
  /// ```swift
  /// let calendar = ICalendarComponent(name: "VCALENDAR")
  /// var zones = TimeZoneResolver(calendar: calendar)
  /// let exdate = ICalendarProperty(
  ///   name: "EXDATE", parameters: [ICalendarParameter(name: "TZID", value: "Europe/Rome")],
  ///   value: "20250310T090000,20250317T090000")
  /// print(try exdate.dateTimeValues(zones: &zones).count)  // 2
  /// ```
  ///
  /// - Parameter zones: The resolver of the calendar the property belongs to.
  /// - Returns: The comma-separated values, in order, each read as
  ///   ``dateTimeValue(zones:)`` reads one.
  /// - Throws: ``ICalendarParseError`` at this property's line for the first value that
  ///   ``dateTimeValue(zones:)`` would refuse.
  public func dateTimeValues(zones: inout TimeZoneResolver) throws(ICalendarParseError)
    -> [DateTimeValue]
  {
    var values: [DateTimeValue] = []
    for text in value.split(separator: ",") {
      values.append(try dateTimeValue(text, zones: &zones))
    }
    return values
  }

  /// Every value of an RDATE (RFC 5545 §3.8.5.2): dates, date-times and periods.
  ///
  /// A value with a `/` is a PERIOD (§3.3.9): its second half is read as a DURATION when it
  /// is one, and otherwise as the end.
  ///
  /// ```swift
  /// var zones = TimeZoneResolver(calendar: ICalendarComponent(name: "VCALENDAR"))
  /// let rdate = ICalendarProperty(name: "RDATE", value: "20250704T160000Z/PT2H,20250705")
  /// for date in try rdate.recurrenceDates(zones: &zones) {
  ///   print(date.text)  // 20250704T160000Z/PT2H, then 20250705
  /// }
  /// ```
  ///
  /// - Parameter zones: The resolver of the calendar the property belongs to.
  /// - Returns: The comma-separated values, in order.
  /// - Throws: ``ICalendarParseError`` at this property's line when a start or end is not a
  ///   DATE or DATE-TIME, or names a zone that cannot be resolved, as
  ///   ``dateTimeValue(zones:)`` says.
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

  /// The value read as a DURATION (§3.3.6), as DURATION and TRIGGER take.
  ///
  /// ```swift
  /// let trigger = ICalendarProperty(name: "TRIGGER", value: "-PT15M")
  /// let duration = try trigger.durationValue()
  /// print(duration.exactSeconds)  // -900
  /// ```
  ///
  /// - Returns: The duration, as ``DurationValue/init(parsing:)`` reads it.
  /// - Throws: ``ICalendarParseError`` at this property's line when the value is not a
  ///   DURATION.
  public func durationValue() throws(ICalendarParseError) -> DurationValue {
    do {
      return try DurationValue(parsing: value)
    } catch {
      throw self.error(error.description)
    }
  }

  /// The value read as an INTEGER (§3.3.8), within `range`, as PRIORITY and SEQUENCE take.
  ///
  /// ```swift
  /// let priority = ICalendarProperty(name: "PRIORITY", value: "5")
  /// print(try priority.integerValue(in: 0...9))  // 5
  /// let wrong = ICalendarProperty(name: "PRIORITY", value: "12", line: 4)
  /// print((try? wrong.integerValue(in: 0...9)) == nil)  // true: outside 0…9
  /// ```
  ///
  /// - Parameter range: The values the property allows (`0...9` for PRIORITY); any `Int` by
  ///   default.
  /// - Returns: The number; whitespace around it is ignored.
  /// - Throws: ``ICalendarParseError`` at this property's line when the value is not a whole
  ///   number or lies outside `range`.
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

  /// The value read as a RECUR value (§3.3.10), as RRULE takes.
  ///
  /// ```swift
  /// let rrule = ICalendarProperty(name: "RRULE", value: "FREQ=WEEKLY;BYDAY=MO,FR;COUNT=4")
  /// let rule = try rrule.recurrenceRuleValue()
  /// print(rule.frequency, rule.byDay.count)  // weekly 2
  /// ```
  ///
  /// - Returns: The rule, parsed and validated by ``RecurrenceRule/init(parsing:)``.
  /// - Throws: ``ICalendarParseError`` at this property's line when the rule is refused; its
  ///   reason is the ``RecurrenceRuleError``'s message.
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
