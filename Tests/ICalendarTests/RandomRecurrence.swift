import ICalendar

/// Random but valid recurrence sets for property tests, built from one seed so that a failing
/// case can be rebuilt from the seed the test reports.
struct RandomRecurrence: CustomStringConvertible {
  var start: DateTimeValue
  var rule: RecurrenceRule

  var set: RecurrenceSet { RecurrenceSet(start: start, rules: [rule]) }
  var description: String { "DTSTART \(start) RRULE \(rule.text)" }

  /// Rough length of one period of the rule's frequency, in seconds, for sizing windows.
  var periodSeconds: Int { Self.period(rule.frequency) * rule.interval }

  init(seed: UInt64, allowCount: Bool = true) {
    var random = SplitMix(seed: seed)
    let zones: [String?] = [
      nil, "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "Europe/London",
    ]
    let zone = zones[random.int(0..<zones.count)]
    let frequencies = RecurrenceRule.Frequency.allCases
    var frequency = frequencies[random.int(0..<frequencies.count)]
    let isDate = zone == nil && random.int(0..<4) == 0
    if isDate, [.hourly, .minutely, .secondly].contains(frequency) { frequency = .daily }
    let reading = CivilDateTime(
      year: random.int(1995..<2031), month: random.int(1..<13), day: random.int(1..<29),
      hour: isDate ? 0 : random.int(0..<24),
      minute: isDate ? 0 : [0, 15, 30, 45][random.int(0..<4)],
      second: 0)!
    start =
      isDate
      ? .date(reading.date) : zone.map { .zoned(reading, tzid: $0) } ?? .floating(reading)

    var rule = RecurrenceRule(frequency: frequency)
    rule.interval = random.int(0..<3) == 0 ? random.int(2..<13) : random.int(1..<3)
    func some(_ range: Range<Int>, count: Range<Int> = 1..<4, signed: Bool = false) -> [Int] {
      (0..<random.int(count)).map { _ in
        let value = random.int(range)
        return signed && random.int(0..<3) == 0 ? -value : value
      }
    }
    let chance = { (percent: Int) in random.int(0..<100) < percent }
    if chance(30) { rule.byMonth = some(1..<13) }
    if frequency != .weekly, chance(25) { rule.byMonthDay = some(1..<32, signed: true) }
    if [.yearly, .hourly, .minutely, .secondly].contains(frequency), chance(15) {
      rule.byYearDay = some(1..<367, signed: true)
    }
    if frequency == .yearly, chance(20) { rule.byWeekNo = some(1..<54, signed: true) }
    if chance(45) {
      let ordinals = [.monthly, .yearly].contains(frequency) && rule.byWeekNo.isEmpty
      rule.byDay = (0..<random.int(1..<4)).map { _ in
        let weekday = Weekday.allCases[random.int(0..<7)]
        guard ordinals, chance(40) else { return .init(weekday) }
        let ordinal = random.int(1..<(frequency == .monthly ? 6 : 54))
        return .init(weekday, ordinal: chance(40) ? -ordinal : ordinal)
      }
    }
    if !isDate {
      if chance(20) { rule.byHour = some(0..<24) }
      if chance(15) { rule.byMinute = some(0..<60) }
      if chance(10) { rule.bySecond = some(0..<60) }
    }
    let hasOther =
      !(rule.byMonth.isEmpty && rule.byMonthDay.isEmpty && rule.byYearDay.isEmpty
      && rule.byWeekNo.isEmpty && rule.byDay.isEmpty && rule.byHour.isEmpty
      && rule.byMinute.isEmpty && rule.bySecond.isEmpty)
    if hasOther, chance(20) { rule.bySetPos = some(1..<6, count: 1..<3, signed: true) }
    if chance(25) { rule.weekStart = Weekday.allCases[random.int(0..<7)] }
    switch random.int(0..<3) {
    case 0 where allowCount:
      rule.end = .count(random.int(1..<60))
    case 1:
      let until = reading.adding(
        seconds: random.int(0..<400) * (Self.period(frequency) * rule.interval / 4 + 1))
      rule.end = .until(
        isDate ? .date(until.date) : zone == nil ? .floating(until) : .utc(until))
    default:
      break
    }
    self.rule = rule
  }

  static func period(_ frequency: RecurrenceRule.Frequency) -> Int {
    switch frequency {
    case .yearly: 365 * 86_400
    case .monthly: 30 * 86_400
    case .weekly: 7 * 86_400
    case .daily: 86_400
    case .hourly: 3600
    case .minutely: 60
    case .secondly: 1
    }
  }
}

/// A small, fast, seedable generator (SplitMix64), so cases rebuild exactly from a seed.
struct SplitMix {
  private var state: UInt64
  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  mutating func int(_ range: Range<Int>) -> Int {
    range.lowerBound + Int(next() % UInt64(range.count))
  }
}
