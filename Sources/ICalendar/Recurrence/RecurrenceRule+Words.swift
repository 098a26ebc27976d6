/// Recurrence rules in English words, phrased as Apple Calendar and Google Calendar show a
/// repeating event ("Every 2 weeks on Monday and Friday, 10 times").
extension RecurrenceRule {
  /// The rule in English words: "Monthly on the last weekday, until 3 May 2026".
  ///
  /// Common shapes read as a calendar app writes them; every other rule part still gets a plain
  /// clause (", only on Fridays", "; only the first of these in each month") rather than being
  /// left out, so that the words always say what the rule does. Parts the rule leaves to
  /// DTSTART (§3.3.10), such as the time of a plain "Daily", are not mentioned, as the rule
  /// does not know them; BYHOUR without BYMINUTE reads as on the hour, as calendars write it.
  ///
  /// ```swift
  /// let rule = try RecurrenceRule(parsing: "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,FR;COUNT=10")
  /// print(rule.inWords())  // Every 2 weeks on Monday and Friday, 10 times
  /// print(rule.inWords(endingOn: CivilDate(year: 2026, month: 5, day: 3)))
  /// // Every 2 weeks on Monday and Friday, until 3 May 2026
  /// ```
  ///
  /// - Parameters:
  ///   - endDay: The last day, said instead of whatever `end` says. Callers that keep the end
  ///     apart from the rule (as EventKit's `EKRecurrenceRule` does), or that want a UTC
  ///     UNTIL said as a local day, pass it. Otherwise COUNT reads ", 10 times" and UNTIL
  ///     ", until 3 May 2026", the date of the UNTIL value as written.
  ///   - lastDay: The day of the last occurrence the event has, when the caller knows it
  ///     (from expanding the whole event, exception dates included): said as ", last on
  ///     2 May 2027" instead of UNTIL, and after COUNT (", 10 times, last on 2 May 2027"),
  ///     as an UNTIL can fall after the last occurrence left and an EXDATE can remove it.
  /// - Returns: One sentence, capitalised, without a final full stop.
  public func inWords(endingOn endDay: CivilDate? = nil, lastOn lastDay: CivilDate? = nil)
    -> String
  {
    var words = RuleWords(self)
    return words.sentence(endingOn: endDay, lastOn: lastDay)
  }
}

/// The words of one rule. Each BY-part is marked once phrased, so that whatever the common
/// shapes leave over is still said, as a limit (", only …") or a BYSETPOS clause.
private struct RuleWords {
  let rule: RecurrenceRule
  var monthsLeft: Bool
  var weekdaysLeft: Bool
  var monthDaysLeft: Bool
  var yearDaysLeft: Bool
  var weekNumbersLeft: Bool
  var setPositionsLeft: Bool

  init(_ rule: RecurrenceRule) {
    self.rule = rule
    monthsLeft = !rule.byMonth.isEmpty
    weekdaysLeft = !rule.byDay.isEmpty
    monthDaysLeft = !rule.byMonthDay.isEmpty
    yearDaysLeft = !rule.byYearDay.isEmpty
    weekNumbersLeft = !rule.byWeekNo.isEmpty
    setPositionsLeft = !rule.bySetPos.isEmpty
  }

  /// Period, days, months, limits, times of day, BYSETPOS, end: the order a reader needs.
  mutating func sentence(endingOn endDay: CivilDate?, lastOn lastDay: CivilDate?) -> String {
    var text = mainPhrase()
    if monthsLeft, rule.frequency != .yearly {
      text += " in " + monthNames
      monthsLeft = false
    }
    let limits = remainingLimits()
    if !limits.isEmpty { text += ", only " + list(limits) }
    text += timesOfDay
    if setPositionsLeft {
      // §3.3.10: BYSETPOS picks among the instances of each period of FREQ.
      text += "; only the \(positions) of these in each \(unit)"
    }
    return text + ending(endDay, lastOn: lastDay)
  }

  // MARK: Period and days

  /// The singular unit of FREQ ("week") and the word for an INTERVAL of 1 ("Weekly").
  var unit: String {
    switch rule.frequency {
    case .secondly: "second"
    case .minutely: "minute"
    case .hourly: "hour"
    case .daily: "day"
    case .weekly: "week"
    case .monthly: "month"
    case .yearly: "year"
    }
  }

  /// "Weekly", "Every 2 weeks"; "Every minute" and "Every second", as no one says "Minutely".
  var period: String {
    guard rule.interval == 1 else { return "Every \(rule.interval) \(unit)s" }
    switch rule.frequency {
    case .secondly, .minutely: return "Every \(unit)"
    case .hourly: return "Hourly"
    case .daily: return "Daily"
    case .weekly: return "Weekly"
    case .monthly: return "Monthly"
    case .yearly: return "Yearly"
    }
  }

  /// The period with the days it repeats on, in the words a calendar uses for its FREQ.
  mutating func mainPhrase() -> String {
    switch rule.frequency {
    case .secondly, .minutely, .hourly:
      return period
    case .daily:
      // With INTERVAL=1, BYDAY keeps whole weekdays, which reads as "Every Monday".
      guard rule.interval == 1, weekdaysLeft, !hasOrdinals else { return period }
      weekdaysLeft = false
      switch WeekdaySet(plainWeekdays) {
      case .everyDay: return period
      case .weekdays: return "Every weekday"
      case .weekend: return "Every weekend day"
      case .days(let days): return "Every " + list(days.map(\.name))
      }
    case .weekly:
      guard weekdaysLeft, !hasOrdinals else { return period }
      weekdaysLeft = false
      let isEveryWeek = rule.interval == 1
      switch WeekdaySet(plainWeekdays) {
      case .weekdays: return isEveryWeek ? "Every weekday" : period + " on weekdays"
      case .weekend: return period + " on weekends"
      case .everyDay:
        return isEveryWeek ? "Every day of the week" : period + " on every day of the week"
      case .days(let days): return period + " on " + list(days.map(\.name))
      }
    case .monthly:
      if let days = setPositionDays() { return period + " on " + days }
      if monthDaysLeft {
        monthDaysLeft = false
        return period + " on " + monthDays
      }
      if weekdaysLeft {
        weekdaysLeft = false
        return period + " on " + list(everyPlainWeekday + ordinalWeekdays)
      }
      return period
    case .yearly:
      return period + yearlyDays()
    }
  }

  /// The days of a YEARLY rule: "in March", "on 15 March", "on the fourth Thursday of
  /// November", "on day 100", "on Monday of week 20".
  mutating func yearlyDays() -> String {
    let months = distinctSorted(rule.byMonth)
    if months.count <= 1, let days = setPositionDays() {
      monthsLeft = false
      return " on " + days + " of " + (months.first.map(Self.monthName) ?? "the year")
    }
    if yearDaysLeft {
      yearDaysLeft = false
      return " on " + counted(rule.byYearDay, unit: "day")
    }
    if weekNumbersLeft {
      weekNumbersLeft = false
      let weeks = counted(rule.byWeekNo, unit: "week")
      guard weekdaysLeft, !hasOrdinals else { return " in " + weeks }
      weekdaysLeft = false
      switch WeekdaySet(plainWeekdays) {
      case .everyDay: return " in " + weeks
      case .weekdays: return " on weekdays of " + weeks
      case .weekend: return " on the weekend of " + weeks
      case .days(let days): return " on " + list(days.map(\.name)) + " of " + weeks
      }
    }
    if monthDaysLeft {
      monthDaysLeft = false
      guard !months.isEmpty else { return " on " + monthDays + " of every month" }
      monthsLeft = false
      let days = distinctSorted(rule.byMonthDay)
      if days.allSatisfy({ $0 > 0 }) {
        if months.count == 1 { return " on " + list(days.map(String.init)) + " " + monthNames }
        if days.count == 1, let day = days.first {
          return " on " + list(months.map { "\(day) " + Self.monthName($0) })
        }
      }
      return " on " + monthDays + " of " + monthNames
    }
    if weekdaysLeft {
      weekdaysLeft = false
      // §3.3.10: ordinals count within the month when BYMONTH is given, else within the year.
      let plain = everyPlainWeekday
      let ordinals = ordinalWeekdays
      guard !months.isEmpty else {
        return " on " + list(plain + ordinals) + (ordinals.isEmpty ? "" : " of the year")
      }
      monthsLeft = false
      if plain.isEmpty { return " on " + list(ordinals) + " of " + monthNames }
      if ordinals.isEmpty { return " on " + list(plain) + " in " + monthNames }
      return " on " + list(plain + ordinals) + " of the month in " + monthNames
    }
    if monthsLeft {
      monthsLeft = false
      return " in " + monthNames
    }
    return ""
  }

  /// "the last weekday", "the second Tuesday": BYSETPOS choosing among plain weekdays of a
  /// MONTHLY or YEARLY period, when each day has one instance so positions count days.
  mutating func setPositionDays() -> String? {
    guard setPositionsLeft, weekdaysLeft, !hasOrdinals, !monthDaysLeft, !yearDaysLeft,
      !weekNumbersLeft, Set(rule.byHour).count <= 1, Set(rule.byMinute).count <= 1,
      Set(rule.bySecond).count <= 1
    else { return nil }
    let noun: String
    switch WeekdaySet(plainWeekdays) {
    case .weekdays: noun = "weekday"
    case .weekend: noun = "weekend day"
    case .everyDay: noun = "day"
    case .days(let days):
      guard days.count == 1, let day = days.first else { return nil }
      noun = day.name
    }
    setPositionsLeft = false
    weekdaysLeft = false
    return "the \(positions) " + noun
  }

  /// The BY-parts no phrase above took, each as a limit on the days or times (§3.3.10's
  /// "Limit" entries): "in week 20", "on Fridays", "in the 09:00 hour".
  func remainingLimits() -> [String] {
    var limits: [String] = []
    if monthsLeft { limits.append("in " + monthNames) }
    if weekNumbersLeft { limits.append("in " + counted(rule.byWeekNo, unit: "week")) }
    if yearDaysLeft {
      let ofTheYear = rule.byYearDay.allSatisfy { $0 >= 0 } ? " of the year" : ""
      limits.append("on " + counted(rule.byYearDay, unit: "day") + ofTheYear)
    }
    if monthDaysLeft { limits.append("on " + monthDays + " of the month") }
    if weekdaysLeft {
      let plain = plainWeekdays
      let ordinals = ordinalWeekdays
      // Every weekday kept needs no words; BYDAY with only ordinals has no plain days.
      let plural = plain.isEmpty ? nil : WeekdaySet(plain).plural
      let days = (plural.map { [$0] } ?? []) + ordinals
      let within = rule.frequency == .monthly || !rule.byMonth.isEmpty ? "month" : "year"
      if !days.isEmpty {
        limits.append("on " + list(days) + (ordinals.isEmpty ? "" : " of the " + within))
      }
    }
    // Below a day, BYHOUR (and BYMINUTE, BYSECOND below their FREQ) limit the instances.
    switch rule.frequency {
    case .hourly, .minutely, .secondly:
      if !rule.byHour.isEmpty {
        let hours = distinctSorted(rule.byHour).map { clock($0, 0) }
        limits.append("in the " + list(hours) + (hours.count == 1 ? " hour" : " hours"))
      }
      if rule.frequency == .minutely, !rule.byMinute.isEmpty {
        limits.append("at minute " + numbers(rule.byMinute))
      }
      if rule.frequency == .secondly {
        if !rule.byMinute.isEmpty { limits.append("in minute " + numbers(rule.byMinute)) }
        if !rule.bySecond.isEmpty { limits.append("at second " + numbers(rule.bySecond)) }
      }
    default:
      break
    }
    return limits
  }

  // MARK: Times and end

  /// The times BYHOUR, BYMINUTE and BYSECOND add within each day or hour: " at 09:00 and
  /// 17:30", " at minute 15 and 45", " (second 30)". Second 0 is what calendars assume.
  var timesOfDay: String {
    let seconds = rule.bySecond.contains { $0 != 0 } ? numbers(rule.bySecond) : nil
    let secondsNote = seconds.map { " (second \($0))" } ?? ""
    switch rule.frequency {
    case .daily, .weekly, .monthly, .yearly:
      if !rule.byHour.isEmpty {
        let minutes = rule.byMinute.isEmpty ? [0] : distinctSorted(rule.byMinute)
        let times = distinctSorted(rule.byHour).flatMap { hour in minutes.map { clock(hour, $0) } }
        return " at " + list(times) + secondsNote
      }
      if !rule.byMinute.isEmpty {
        return " at minute " + numbers(rule.byMinute) + " of the starting hour" + secondsNote
      }
      return secondsNote
    case .hourly:
      return (rule.byMinute.isEmpty ? "" : " at minute " + numbers(rule.byMinute)) + secondsNote
    case .minutely:
      return seconds.map { " at second " + $0 } ?? ""
    case .secondly:
      return ""
    }
  }

  /// ", 10 times", ", once", ", until 3 May 2026", or nothing for a rule without end; with
  /// the last occurrence known, ", last on 2 May 2027" (after the count, for COUNT).
  func ending(_ endDay: CivilDate?, lastOn lastDay: CivilDate?) -> String {
    if let lastDay {
      let last = ", last on " + Self.dateText(lastDay)
      guard case .count = rule.end else { return last }
      return ending(nil, lastOn: nil) + last
    }
    if let endDay { return ", until " + Self.dateText(endDay) }
    switch rule.end {
    case .count(1): return ", once"
    case .count(let count): return ", \(count) times"
    case .until(let until): return ", until " + Self.dateText(until.local.date)
    case nil: return ""
    }
  }

  // MARK: Pieces

  var hasOrdinals: Bool { rule.byDay.contains { $0.ordinal != nil } }

  /// The BYDAY weekdays without an ordinal, each once, Monday first.
  var plainWeekdays: [Weekday] {
    Set(rule.byDay.filter { $0.ordinal == nil }.map(\.weekday)).sorted {
      $0.mondayFirst < $1.mondayFirst
    }
  }

  /// "every Monday and Friday", "every weekday", or nothing when BYDAY has only ordinals.
  var everyPlainWeekday: [String] {
    let days = plainWeekdays
    return days.isEmpty ? [] : ["every " + WeekdaySet(days).singular]
  }

  /// The BYDAY entries with an ordinal, one phrase per weekday: "the first and third Monday".
  var ordinalWeekdays: [String] {
    var ordinals: [Weekday: [Int]] = [:]
    for day in rule.byDay {
      if let ordinal = day.ordinal { ordinals[day.weekday, default: []].append(ordinal) }
    }
    return ordinals.sorted { $0.key.mondayFirst < $1.key.mondayFirst }.map { weekday, values in
      "the " + list(ordered(values).map(Self.ordinalWord)) + " " + weekday.name
    }
  }

  /// "the 1st, 15th and last day": BYMONTHDAY, counting back from the end when negative.
  var monthDays: String {
    let days = ordered(rule.byMonthDay).map {
      $0 >= 0 ? Self.numeral($0) : Self.ordinalWord($0) + " day"
    }
    return "the " + list(days)
  }

  /// "day 100", "weeks 1, 20 and the last week of the year": BYYEARDAY and BYWEEKNO.
  func counted(_ values: [Int], unit: String) -> String {
    let values = ordered(values)
    let forward = values.filter { $0 >= 0 }
    let backward = values.filter { $0 < 0 }
    var items = forward.map(String.init)
    if let first = items.first {
      items[0] = unit + (forward.count == 1 ? " " : "s ") + first
    }
    if !backward.isEmpty {
      let units = backward.count == 1 ? unit : unit + "s"
      items.append("the " + list(backward.map(Self.ordinalWord)) + " \(units) of the year")
    }
    return list(items)
  }

  /// "first and last": the BYSETPOS positions.
  var positions: String { list(ordered(rule.bySetPos).map(Self.ordinalWord)) }

  var monthNames: String { list(distinctSorted(rule.byMonth).map(Self.monthName)) }

  func numbers(_ values: [Int]) -> String { list(distinctSorted(values).map(String.init)) }

  /// "09:30", in 24-hour time as both calendars show it outside the US.
  func clock(_ hour: Int, _ minute: Int) -> String {
    func twoDigits(_ value: Int) -> String { (0..<10).contains(value) ? "0\(value)" : "\(value)" }
    return twoDigits(hour) + ":" + twoDigits(minute)
  }

  func distinctSorted(_ values: [Int]) -> [Int] { Set(values).sorted() }

  /// Positions in the order they fall: 1, 2, …, then …, -2, -1.
  func ordered(_ values: [Int]) -> [Int] {
    Set(values).sorted { ($0 < 0 ? 1 : 0, $0) < ($1 < 0 ? 1 : 0, $1) }
  }

  static let months = [
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
  ]

  static func monthName(_ month: Int) -> String {
    (1...12).contains(month) ? months[month - 1] : "month \(month)"
  }

  /// "3 May 2026".
  static func dateText(_ date: CivilDate) -> String {
    "\(date.day) \(monthName(date.month)) \(date.year)"
  }

  /// "first" … "fifth", "last", "second-to-last", "third-to-last"; then "6th", "6th-to-last".
  /// Out-of-range ordinals (0, 60) still read as numerals, never trap.
  static func ordinalWord(_ value: Int) -> String {
    switch value {
    case 1: "first"
    case 2: "second"
    case 3: "third"
    case 4: "fourth"
    case 5: "fifth"
    case -1: "last"
    case -2: "second-to-last"
    case -3: "third-to-last"
    default: numeral(value) + (value < 0 ? "-to-last" : "")
    }
  }

  /// "1st", "12th", "23rd", of the value's magnitude (which cannot overflow, unlike `abs`).
  static func numeral(_ value: Int) -> String {
    let magnitude = value.magnitude
    let suffix =
      switch (magnitude % 100, magnitude % 10) {
      case (11...13, _): "th"
      case (_, 1): "st"
      case (_, 2): "nd"
      case (_, 3): "rd"
      default: "th"
      }
    return "\(magnitude)" + suffix
  }
}

/// Plain BYDAY weekdays as people name them: Monday to Friday are "weekdays", Saturday and
/// Sunday the "weekend".
private enum WeekdaySet {
  case weekdays, weekend, everyDay
  case days([Weekday])

  init(_ days: [Weekday]) {
    let set = Set(days)
    if set.count == 7 {
      self = .everyDay
    } else if set == [.monday, .tuesday, .wednesday, .thursday, .friday] {
      self = .weekdays
    } else if set == [.saturday, .sunday] {
      self = .weekend
    } else {
      self = .days(days)
    }
  }

  /// After "every": "weekday", "weekend day", "day", "Monday and Friday".
  var singular: String {
    switch self {
    case .weekdays: "weekday"
    case .weekend: "weekend day"
    case .everyDay: "day"
    case .days(let days): list(days.map(\.name))
    }
  }

  /// After "only on": "weekdays", "Mondays and Fridays"; nil when every day is kept.
  var plural: String? {
    switch self {
    case .weekdays: "weekdays"
    case .weekend: "weekends"
    case .everyDay: nil
    case .days(let days): list(days.map { $0.name + "s" })
    }
  }
}

extension Weekday {
  /// 0 for Monday … 6 for Sunday: the order RFC 5545's default WKST and most calendars list.
  fileprivate var mondayFirst: Int { (index + 6) % 7 }
}

/// "a", "a and b", "a, b and c".
private func list(_ items: [String]) -> String {
  guard let last = items.last, items.count > 1 else { return items.first ?? "" }
  return items.dropLast().joined(separator: ", ") + " and " + last
}
