extension ZoneRules {
  /// The rules a VTIMEZONE component defines (RFC 5545 §3.6.5), for zones the tz database
  /// does not know.
  ///
  /// Each STANDARD or DAYLIGHT observance starts at the local times its DTSTART, RRULE and
  /// RDATEs give, read on the clock of TZOFFSETFROM; the onsets of all observances, in order,
  /// are the zone's transitions. They are computed up to the year 2100; after that the
  /// last offset holds.
  ///
  /// ```swift
  /// let text = try String(contentsOfFile: "calendar.ics", encoding: .utf8)
  /// let calendar = try ICalendarDocument(parsing: text).calendars[0]
  /// if let definition = calendar.components(named: "VTIMEZONE").first {
  ///   let rules = try ZoneRules(timeZone: definition)
  ///   print(rules.identifier, rules.minimumOffset, rules.maximumOffset)
  /// }
  /// ```
  ///
  /// - Parameter component: A VTIMEZONE component, with its STANDARD and DAYLIGHT
  ///   observances.
  /// - Throws: ``ICalendarParseError`` naming the line when the VTIMEZONE has no TZID or no
  ///   observance, when an observance lacks DTSTART, TZOFFSETFROM or TZOFFSETTO, or when one
  ///   of those, an RRULE or an RDATE cannot be read.
  public convenience init(timeZone component: ICalendarComponent) throws(ICalendarParseError) {
    guard let tzid = component.property("TZID")?.value.trimmingWhitespace(), !tzid.isEmpty
    else {
      throw ICalendarParseError(line: component.line, reason: "VTIMEZONE has no TZID")
    }
    var onsets: [(utc: Int, from: Int, to: Int)] = []
    for observance in component.components
    where observance.name == "STANDARD" || observance.name == "DAYLIGHT" {
      onsets += try Self.onsets(of: observance)
    }
    guard !onsets.isEmpty else {
      throw ICalendarParseError(
        line: component.line,
        reason:
          "VTIMEZONE \(ICalendarText.excerpt(tzid)) has no STANDARD or DAYLIGHT observance")
    }
    onsets.sort { $0.utc < $1.utc }
    var transitions: [ZoneTransition] = []
    var offset = onsets[0].from
    for onset in onsets where onset.to != offset {
      transitions.append(
        ZoneTransition(utc: onset.utc, offsetBefore: offset, offsetAfter: onset.to))
      offset = onset.to
    }
    self.init(
      identifier: String(tzid), transitions: transitions, initialOffset: onsets[0].from,
      footer: nil)
  }

  /// Observances are expanded this far; a VTIMEZONE's rules rarely outlive their writer.
  static let lastComputedYear = 2100

  private static func onsets(of observance: ICalendarComponent) throws(ICalendarParseError)
    -> [(utc: Int, from: Int, to: Int)]
  {
    func required(_ name: String) throws(ICalendarParseError) -> ICalendarProperty {
      guard let property = observance.property(name) else {
        throw ICalendarParseError(
          line: observance.line, reason: "\(observance.name) has no \(name)")
      }
      return property
    }
    func offset(_ name: String) throws(ICalendarParseError) -> Int {
      let property = try required(name)
      guard let seconds = UTCOffset.seconds(parsing: property.value) else {
        throw ICalendarParseError(
          line: property.line, property: name,
          reason:
            "'\(ICalendarText.excerpt(property.value))' is not a UTC offset such as +0100 or -0500")
      }
      return seconds
    }
    let from = try offset("TZOFFSETFROM")
    let to = try offset("TZOFFSETTO")
    let dtstart = try required("DTSTART")
    let start: CivilDateTime
    do {
      start = try DateTimeValue(parsing: dtstart.value).local
    } catch {
      throw ICalendarParseError(line: dtstart.line, property: "DTSTART", reason: error.description)
    }
    var rules: [RecurrenceRule] = []
    for property in observance.properties(named: "RRULE") {
      do {
        var rule = try RecurrenceRule(parsing: property.value)
        // §3.6.5: UNTIL is in UTC here, while DTSTART is local; read it on this clock.
        if case .until(.utc(let until)) = rule.end {
          rule.end = .until(.floating(until.adding(seconds: from)))
        }
        rules.append(rule)
      } catch {
        throw ICalendarParseError(line: property.line, property: "RRULE", reason: error.description)
      }
    }
    var dates: [RecurrenceDate] = []
    for property in observance.properties(named: "RDATE") {
      for text in property.value.split(separator: ",") {
        do {
          dates.append(try RecurrenceDate(parsing: text))
        } catch {
          throw ICalendarParseError(
            line: property.line, property: "RDATE", reason: error.description)
        }
      }
    }
    let set = RecurrenceSet(start: .floating(start), rules: rules, dates: dates)
    let end = CivilDateTime(date: CivilDate(year: lastComputedYear + 1, month: 1, day: 1)!)
    var onsets: [(utc: Int, from: Int, to: Int)] = []
    do {
      for occurrence in try set.occurrences(fromLocal: nil, toLocal: end) {
        onsets.append((occurrence.local.localSeconds - from, from, to))
        if onsets.count > 5_000 { break }
      }
    } catch {
      throw ICalendarParseError(line: observance.line, reason: error.description)
    }
    return onsets
  }

  /// Whether two zones give the same offsets through `years`, changing them at the same
  /// instants: how a VTIMEZONE that the tz database does not name is matched to a zone it
  /// does.
  func agrees(with other: ZoneRules, years: ClosedRange<Int>) -> Bool {
    // Mid-winter and mid-summer of each year first: that rules out most zones at once.
    for year in years {
      for month in [1, 7] {
        let instant = CivilDate(year: year, month: month, day: 15)!.dayNumber * 86_400
        if offset(atUTC: instant) != other.offset(atUTC: instant) { return false }
      }
    }
    let from = CivilDate(year: years.lowerBound, month: 1, day: 1)!.dayNumber * 86_400
    let to = CivilDate(year: years.upperBound, month: 12, day: 31)!.dayNumber * 86_400
    return transitions(from: from, to: to) == other.transitions(from: from, to: to)
  }

  /// The instants in `[from, to]` at which the offset changes.
  func transitions(from: Int, to: Int) -> [Int] {
    var result: [Int] = []
    var previous = offset(atUTC: from)
    // Offsets change at most a few times a year; a daily probe then a search finds each.
    var instant = from
    while instant < to {
      let next = min(instant + 86_400, to)
      let offset = offset(atUTC: next)
      if offset != previous {
        var low = instant
        var high = next
        while high - low > 1 {
          let middle = (low + high) / 2
          if self.offset(atUTC: middle) == previous { low = middle } else { high = middle }
        }
        result.append(high)
        previous = offset
      }
      instant = next
    }
    return result
  }
}
