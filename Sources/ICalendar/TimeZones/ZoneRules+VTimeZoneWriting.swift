extension ZoneRules {
  /// A VTIMEZONE (RFC 5545 §3.6.5) that gives this zone's offsets exactly for every instant
  /// from `from` on (seconds since 1970, UTC).
  ///
  /// The changes the tz database lists are written as observances with RDATEs, one
  /// observance per kind of change; the rule that continues them for ever (the TZif footer)
  /// as a STANDARD and a DAYLIGHT observance with a yearly RRULE. A reader that knows the
  /// zone by its TZID needs none of it; a strict reader computes the same offsets from it.
  ///
  /// ```swift
  /// let zone = try ZoneRules.named("Europe/Paris")
  /// let since = try DateTimeValue(parsing: "20250101T000000Z").secondsSinceEpoch()
  /// var calendar = ICalendarComponent(name: "VCALENDAR")
  /// calendar.components.append(zone.timeZoneComponent(from: since))
  /// ```
  ///
  /// - Parameter instant: The earliest instant the component must cover, in seconds since
  ///   1970 UTC; it is written from January 1 of that instant's year.
  /// - Returns: A VTIMEZONE with TZID ``identifier``, ready to put in a VCALENDAR.
  public func timeZoneComponent(from instant: Int) -> ICalendarComponent {
    var component = ICalendarComponent(name: "VTIMEZONE")
    component.append(ICalendarProperty(name: "TZID", value: identifier))
    // From the start of that year, with the offset then in force as an observance of its own.
    let year = CivilDate(dayNumber: local(forUTC: instant).floorDivided(by: 86_400)).year
    let startOfYear = CivilDate(year: year, month: 1, day: 1)!
    let from = startOfYear.dayNumber * 86_400 - maximumOffset
    let base = offset(atUTC: from)
    component.components.append(
      observance(
        daylight: false, from: base, to: base,
        start: CivilDateTime(date: startOfYear), rule: nil, dates: []))

    let footerStart = transitions.last?.utc ?? Int.min
    var groups: [ObservanceKey: [CivilDateTime]] = [:]
    var order: [ObservanceKey] = []
    for transition in transitions where transition.utc >= from {
      let key = ObservanceKey(from: transition.offsetBefore, to: transition.offsetAfter)
      if groups[key] == nil { order.append(key) }
      groups[key, default: []].append(
        CivilDateTime(localSeconds: transition.utc + transition.offsetBefore))
    }
    for key in order {
      let onsets = groups[key]!
      component.components.append(
        observance(
          daylight: key.to > key.from, from: key.from, to: key.to, start: onsets[0], rule: nil,
          dates: Array(onsets.dropFirst())))
    }
    if let footer, let daylight = footer.daylight,
      let toDaylight = Self.yearlyRule(daylight.start),
      let toStandard = Self.yearlyRule(daylight.end),
      (0..<86_400).contains(daylight.startTime), (0..<86_400).contains(daylight.endTime)
    {
      // The first year whose changes both come after the listed ones and the range start.
      var year = CivilDate(dayNumber: max(from, footerStart).floorDivided(by: 86_400)).year
      while let (first, _) = footer.orderedTransitions(year: year),
        first.utc <= max(from, footerStart)
      {
        year += 1
      }
      let daylightStart = CivilDateTime(
        date: CivilDate(dayNumber: daylight.start.dayNumber(year: year)),
        secondOfDay: daylight.startTime)
      let standardStart = CivilDateTime(
        date: CivilDate(dayNumber: daylight.end.dayNumber(year: year)),
        secondOfDay: daylight.endTime)
      component.components.append(
        observance(
          daylight: true, from: footer.standardOffset, to: daylight.offset, start: daylightStart,
          rule: toDaylight, dates: []))
      component.components.append(
        observance(
          daylight: false, from: daylight.offset, to: footer.standardOffset, start: standardStart,
          rule: toStandard, dates: []))
    }
    return component
  }

  private struct ObservanceKey: Hashable {
    let from: Int
    let to: Int
  }

  private func observance(
    daylight: Bool, from: Int, to: Int, start: CivilDateTime, rule: String?,
    dates: [CivilDateTime]
  ) -> ICalendarComponent {
    var observance = ICalendarComponent(name: daylight ? "DAYLIGHT" : "STANDARD")
    observance.append(ICalendarProperty(name: "DTSTART", value: ICalendarFormat.dateTime(start)))
    observance.append(ICalendarProperty(name: "TZOFFSETFROM", value: UTCOffset.text(from)))
    observance.append(ICalendarProperty(name: "TZOFFSETTO", value: UTCOffset.text(to)))
    if let rule { observance.append(ICalendarProperty(name: "RRULE", value: rule)) }
    // One RDATE property per few dates keeps lines short for readers that do not unfold well.
    var index = 0
    while index < dates.count {
      let chunk = dates[index..<min(index + 8, dates.count)]
      observance.append(
        ICalendarProperty(
          name: "RDATE", value: chunk.map { ICalendarFormat.dateTime($0) }.joined(separator: ",")))
      index += 8
    }
    return observance
  }

  /// The RRULE of a POSIX `Mm.w.d` change; nil for the rare day-of-year forms.
  private static func yearlyRule(_ rule: PosixTimeZoneRule.DateRule) -> String? {
    guard case .monthWeekDay(let month, let week, let weekday) = rule else { return nil }
    let day = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"][weekday]
    return "FREQ=YEARLY;BYMONTH=\(month);BYDAY=\(week == 5 ? -1 : week)\(day)"
  }
}
