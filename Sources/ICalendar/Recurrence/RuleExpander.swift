/// Produces a rule's candidate starts period by period, as RFC 5545 §3.3.10 describes: for
/// each period of FREQ on the INTERVAL grid, the set of days the BY-parts select, times the
/// set of times of day, then BYSETPOS. COUNT, UNTIL and DTSTART are the iterator's business
/// (``RuleIterator``).
///
/// Candidates are wall-clock readings (``CivilDateTime/localSeconds``). Periods are numbered
/// from the one that holds DTSTART, in units of FREQ: `period` is always a multiple of
/// INTERVAL, so jumping to any period on the grid is one multiplication.
struct RuleExpander {
  let frequency: RecurrenceRule.Frequency
  let interval: Int
  let selection: DaySelection
  /// Per-kind-of-year day masks; nil when months and plain weekdays alone select days.
  let masks: YearMaskTable?
  /// Seconds of the day of each instance, for periods of a day or longer; ascending.
  let timesOfDay: [Int]
  /// Offsets within an hour (HOURLY) or a minute (MINUTELY) of each instance; ascending.
  let timesInPeriod: [Int]
  let hours: UInt32
  let minutes: UInt64
  let seconds: UInt64
  let setPositions: [Int]
  /// The period number of DTSTART's period, in FREQ units (a year, a month index, a day…).
  let base: Int
  /// Candidates after this reading are never needed (end of year 9999, or past UNTIL).
  let lastLocal: Int
  /// True when no period can ever produce a candidate.
  let producesNothing: Bool
  /// True when the day-level parts keep every day (no check per day is needed).
  let selectsEveryDay: Bool

  /// The last period (relative to `base`) that starts at or before `lastLocal`.
  private var lastPeriod = Int.max
  /// The mask of the year the last YEARLY or MONTHLY period was in, with that year's first day.
  private var maskYear = Int.min
  private var mask: YearMask?
  private var maskYearStart = 0

  /// The current period, relative to `base`, in FREQ units (weeks for WEEKLY, whose `base` is
  /// a day number); always a multiple of `interval`.
  private(set) var period = 0
  private var scratch: [Int] = []

  static let endOfTime = CivilDate.dayNumber(year: 9999, month: 12, day: 31) * 86_400 + 86_399

  init(rule: RecurrenceRule, start: CivilDateTime, isDate: Bool, lastLocal: Int) {
    frequency = rule.frequency
    interval = rule.interval
    selection = DaySelection(rule: rule, start: start)
    // YEARLY and MONTHLY periods take their days from the masks; shorter periods need them only
    // for parts beyond months and plain weekdays.
    let needsMasks = !selection.isSimple || rule.frequency == .yearly || rule.frequency == .monthly
    let table = needsMasks ? YearMaskTable.forSelection(selection) : nil
    masks = table
    setPositions = rule.bySetPos
    self.lastLocal = min(lastLocal, RuleExpander.endOfTime)

    func bits<T: FixedWidthInteger>(_ values: [Int], _: T.Type) -> T {
      values.isEmpty ? ~0 : values.reduce(0) { $0 | (1 << T($1)) }
    }
    // BYSECOND=60 names a leap second (§3.3.10); instants here are POSIX time, which has
    // none, so no candidate is ever at second 60.
    let bySecond = rule.bySecond.filter { $0 < 60 }
    let onlyLeapSeconds = !rule.bySecond.isEmpty && bySecond.isEmpty
    hours = bits(rule.byHour, UInt32.self)
    minutes = bits(rule.byMinute, UInt64.self)
    seconds = onlyLeapSeconds ? 0 : bits(bySecond, UInt64.self)

    // Missing time parts come from DTSTART; a DATE start has no time parts at all.
    let hourList = isDate ? [0] : (rule.byHour.isEmpty ? [start.hour] : rule.byHour)
    let minuteList = isDate ? [0] : (rule.byMinute.isEmpty ? [start.minute] : rule.byMinute)
    let secondList = isDate ? [0] : (rule.bySecond.isEmpty ? [start.second] : bySecond)
    var times: [Int] = []
    var inPeriod: [Int] = []
    for hour in hourList {
      for minute in minuteList {
        for second in secondList { times.append(hour * 3600 + minute * 60 + second) }
      }
    }
    switch frequency {
    case .hourly:
      for minute in minuteList {
        for second in secondList { inPeriod.append(minute * 60 + second) }
      }
    case .minutely:
      inPeriod = secondList
    default:
      break
    }
    // Sorted rather than gathered in a `Set`: every series a query prepares comes through
    // here, most with a single time of day.
    RuleExpander.sortUnique(&times)
    RuleExpander.sortUnique(&inPeriod)
    timesOfDay = times
    timesInPeriod = inPeriod

    let day = start.dayNumber
    switch frequency {
    case .yearly: base = start.date.year
    case .monthly: base = start.date.year * 12 + start.date.month - 1
    case .weekly: base = day - (Weekday(dayNumber: day).index - selection.weekStart + 7) % 7
    case .daily: base = day
    case .hourly: base = start.localSeconds.floorDivided(by: 3600)
    case .minutely: base = start.localSeconds.floorDivided(by: 60)
    case .secondly: base = start.localSeconds
    }
    selectsEveryDay = selection.selectsEveryDay
    producesNothing =
      onlyLeapSeconds || (table?.isEmpty ?? false) || selection.months == 0
      || RuleExpander.neverMeetsTimes(rule: rule, start: start, frequency: frequency)
      || RuleExpander.positionsBeyondEveryPeriod(
        rule.bySetPos, daysInPeriod: RuleExpander.mostDaysInAPeriod(frequency, selection, table),
        timesOfDay: timesOfDay.count, timesInPeriod: timesInPeriod.count, frequency: frequency)
    lastPeriod = periodNumber(holding: self.lastLocal) - base
  }

  // MARK: Periods

  /// Fills `buffer` with the candidates of the next period that has any, in ascending order,
  /// and moves past it. Returns false when no period up to `lastLocal` has one.
  mutating func fillNextPeriod(_ buffer: inout [Int]) -> Bool {
    buffer.removeAll(keepingCapacity: true)
    guard !producesNothing else { return false }
    while buffer.isEmpty {
      guard period <= lastPeriod else { return false }
      fillCurrentPeriod(&buffer)
      if positionsApplied {
        positionsApplied = false
      } else if !buffer.isEmpty, !setPositions.isEmpty {
        applySetPositions(&buffer)
      }
      if advancedInFill { advancedInFill = false } else { period += interval }
    }
    return true
  }

  /// Set by a fill that already applied BYSETPOS.
  private var positionsApplied = false

  /// Set by a fill that already moved `period` on (to skip days or hours that cannot match).
  private var advancedInFill = false

  private mutating func fillCurrentPeriod(_ buffer: inout [Int]) {
    let unit = base + period
    switch frequency {
    case .yearly:
      let mask = yearMask(unit)
      appendDays(mask.days[...], firstDay: maskYearStart, to: &buffer)
    case .monthly:
      let month = unit.floorModulo(12) + 1
      let mask = yearMask(unit.floorDivided(by: 12))
      let days = mask.days[mask.monthStart[month - 1]..<mask.monthStart[month]]
      appendDays(days, firstDay: maskYearStart, to: &buffer)
    case .weekly:
      let firstDay = weekFirstDay
      weekDays.removeAll(keepingCapacity: true)
      for offset in 0..<7
      where dayIsSelected(firstDay + offset, weekday: (selection.weekStart + offset) % 7) {
        weekDays.append(firstDay + offset)
      }
      appendDays(weekDays[...], firstDay: 0, to: &buffer)
    case .daily:
      if selectsEveryDay || dayIsSelected(unit, weekday: Weekday(dayNumber: unit).index) {
        if setPositions.isEmpty {
          for time in timesOfDay { buffer.append(unit * 86_400 + time) }
        } else {
          weekDays.removeAll(keepingCapacity: true)
          weekDays.append(unit)
          appendDays(weekDays[...], firstDay: 0, to: &buffer)
        }
      } else {
        jump(toUnit: nextPossibleDay(after: unit))
      }
    case .hourly, .minutely, .secondly:
      fillSubDaily(unit, &buffer)
    }
  }

  private var weekFirstDay: Int { base + period * 7 }
  /// The selected days of the current WEEKLY or DAILY period.
  private var weekDays: [Int] = []

  /// The mask of a year, kept while periods stay in that year.
  @inline(__always)
  private mutating func yearMask(_ year: Int) -> YearMask {
    if year != maskYear || mask == nil {
      maskYear = year
      mask = masks!.mask(forYear: year)
      maskYearStart = CivilDate.dayNumber(year: year, month: 1, day: 1)
    }
    return mask!
  }

  @inline(__always)
  private mutating func appendDays(
    _ days: ArraySlice<Int>, firstDay: Int, to buffer: inout [Int]
  ) {
    if !setPositions.isEmpty {
      // BYSETPOS picks from days × times in order: index the product instead of building it.
      let times = timesOfDay.count
      let count = days.count * times
      for position in setPositions {
        let index = position > 0 ? position - 1 : count + position
        guard index >= 0, index < count else { continue }
        let day = days[days.startIndex + index / times]
        buffer.append((firstDay + day) * 86_400 + timesOfDay[index % times])
      }
      if buffer.count > 1 { Self.sortUnique(&buffer) }
      positionsApplied = true
      return
    }
    if timesOfDay.count == 1 {
      let time = timesOfDay[0]
      for day in days { buffer.append((firstDay + day) * 86_400 + time) }
    } else {
      for day in days {
        for time in timesOfDay { buffer.append((firstDay + day) * 86_400 + time) }
      }
    }
  }

  /// Whether the day-level BY-parts keep a day.
  @inline(__always)
  private func dayIsSelected(_ day: Int, weekday: Int) -> Bool {
    if selectsEveryDay { return true }
    if let masks {
      let date = CivilDate(dayNumber: day)
      return masks.mask(forYear: date.year).contains(dayOfYear: day - yearStart(date.year))
    }
    if selection.hasWeekdays, selection.weekdays & (1 << UInt8(weekday)) == 0 { return false }
    if selection.months != DaySelection.allMonths {
      let month = CivilDate(dayNumber: day).month
      if selection.months & (1 << UInt16(month)) == 0 { return false }
    }
    return true
  }

  private func yearStart(_ year: Int) -> Int { CivilDate.dayNumber(year: year, month: 1, day: 1) }

  /// The first day after `day` (a day that does not match) that could: the next day, or the
  /// first day of the next month or year when the whole month or year cannot match, so sparse
  /// rules jump instead of walking day by day.
  private func nextPossibleDay(after day: Int) -> Int {
    let date = CivilDate(dayNumber: day)
    if let masks {
      // The next selected day of this year, or the first of the next year that has one.
      let days = masks.mask(forYear: date.year).days
      let dayOfYear = day - yearStart(date.year)
      var low = 0
      var high = days.count
      while low < high {
        let middle = (low + high) / 2
        if days[middle] <= dayOfYear { low = middle + 1 } else { high = middle }
      }
      if low < days.count { return yearStart(date.year) + days[low] }
      var year = date.year + 1
      while year <= 9999, masks.mask(forYear: year).days.isEmpty { year += 1 }
      return yearStart(year) + (masks.mask(forYear: year).days.first ?? 0)
    }
    if selection.months & (1 << UInt16(date.month)) == 0 {
      let next = date.month == 12 ? (date.year + 1, 1) : (date.year, date.month + 1)
      return CivilDate.dayNumber(year: next.0, month: next.1, day: 1)
    }
    return day + 1
  }

  private mutating func fillSubDaily(_ unit: Int, _ buffer: inout [Int]) {
    let (unitsPerDay, unitsPerHour, unitsPerMinute): (Int, Int, Int) =
      switch frequency {
      case .hourly: (24, 1, 0)
      case .minutely: (1440, 60, 1)
      default: (86_400, 3600, 60)
      }
    let day = unit.floorDivided(by: unitsPerDay)
    guard dayIsSelected(day, weekday: Weekday(dayNumber: day).index) else {
      jump(toUnit: nextPossibleDay(after: day) * unitsPerDay)
      return
    }
    let inDay = unit - day * unitsPerDay
    let hour = inDay / unitsPerHour
    guard hours & (1 << UInt32(hour)) != 0 else {
      if frequency != .hourly { jump(toUnit: day * unitsPerDay + (hour + 1) * unitsPerHour) }
      return
    }
    switch frequency {
    case .hourly:
      for offset in timesInPeriod { buffer.append(unit * 3600 + offset) }
    case .minutely:
      guard minutes & (1 << UInt64(inDay % 60)) != 0 else { return }
      for offset in timesInPeriod { buffer.append(unit * 60 + offset) }
    default:
      let minute = inDay / unitsPerMinute % 60
      guard minutes & (1 << UInt64(minute)) != 0 else {
        jump(toUnit: unit - inDay % 60 + 60)
        return
      }
      guard seconds & (1 << UInt64(inDay % 60)) != 0 else { return }
      buffer.append(unit)
    }
  }

  /// Moves to the first period on the grid at or after `unit` (in FREQ units).
  private mutating func jump(toUnit unit: Int) {
    let distance = unit - base
    let aligned = (distance + interval - 1).floorDivided(by: interval) * interval
    if aligned > period {
      period = aligned
      advancedInFill = true
    }
  }

  /// BYSETPOS: keep the nth candidates of the period (counting from the end when negative).
  private mutating func applySetPositions(_ buffer: inout [Int]) {
    let count = buffer.count
    if setPositions.count == 1 {
      let position = setPositions[0]
      let index = position > 0 ? position - 1 : count + position
      let kept = index >= 0 && index < count ? buffer[index] : nil
      buffer.removeAll(keepingCapacity: true)
      if let kept { buffer.append(kept) }
      return
    }
    scratch.removeAll(keepingCapacity: true)
    for position in setPositions {
      let index = position > 0 ? position - 1 : count + position
      if index >= 0, index < count { scratch.append(buffer[index]) }
    }
    swap(&scratch, &buffer)
    Self.sortUnique(&buffer)
  }

  /// Sorts the values and keeps each once (a BYHOUR list may name an hour twice, BYSETPOS
  /// two positions of one candidate).
  static func sortUnique(_ values: inout [Int]) {
    values.sort()
    var kept = 0
    for index in values.indices where index == 0 || values[index] != values[kept - 1] {
      values[kept] = values[index]
      kept += 1
    }
    values.removeLast(values.count - kept)
  }

  // MARK: Skipping ahead

  /// Moves to the grid period that holds the reading `local`, when it lies ahead.
  mutating func skip(toPeriodHolding local: Int) {
    let target = periodNumber(holding: local) - base
    let aligned = target.floorDivided(by: interval) * interval
    if aligned > period { period = aligned }
  }

  /// The number of grid periods from the current one to the one holding `local`.
  func periodsUntil(holding local: Int) -> Int {
    let target = periodNumber(holding: local) - base
    return max(0, (target.floorDivided(by: interval) * interval - period) / interval)
  }

  mutating func advance(periods: Int) { period += periods * interval }

  /// Whether every period up to the one holding `local` has been filled: the next to fill
  /// starts after it.
  func hasFilled(throughPeriodHolding local: Int) -> Bool {
    period > periodNumber(holding: local) - base
  }

  private func periodNumber(holding local: Int) -> Int {
    let day = local.floorDivided(by: 86_400)
    switch frequency {
    case .yearly: return CivilDate(dayNumber: day).year
    case .monthly:
      let date = CivilDate(dayNumber: day)
      return date.year * 12 + date.month - 1
    case .weekly:
      let firstDay = day - (Weekday(dayNumber: day).index - selection.weekStart + 7) % 7
      return base + (firstDay - base) / 7
    case .daily: return day
    case .hourly: return local.floorDivided(by: 3600)
    case .minutely: return local.floorDivided(by: 60)
    case .secondly: return local
    }
  }

  /// How many candidates every full period yields, when that number is the same for all
  /// periods; lets a window with COUNT skip ahead by counting instead of walking.
  var candidatesPerPeriod: Int? {
    guard selection.isSimple, selection.months == DaySelection.allMonths else { return nil }
    let perPeriod: Int
    switch frequency {
    case .yearly, .monthly: return nil
    case .weekly: perPeriod = selection.weekdays.nonzeroBitCount * timesOfDay.count
    case .daily:
      guard !selection.hasWeekdays else { return nil }
      perPeriod = timesOfDay.count
    case .hourly:
      guard !selection.hasWeekdays, hours == ~0 else { return nil }
      perPeriod = timesInPeriod.count
    case .minutely:
      guard !selection.hasWeekdays, hours == ~0, minutes == ~0 else { return nil }
      perPeriod = timesInPeriod.count
    case .secondly:
      guard !selection.hasWeekdays, hours == ~0, minutes == ~0, seconds == ~0 else { return nil }
      perPeriod = 1
    }
    guard !setPositions.isEmpty else { return perPeriod }
    return Set(
      setPositions.compactMap { position -> Int? in
        let index = position > 0 ? position - 1 : perPeriod + position
        return index >= 0 && index < perPeriod ? index : nil
      }
    ).count
  }

  /// Whether BYSETPOS asks only for positions no period can have (`BYSETPOS=2` in a SECONDLY
  /// rule, whose periods hold one candidate each).
  private static func positionsBeyondEveryPeriod(
    _ positions: [Int], daysInPeriod: Int, timesOfDay: Int, timesInPeriod: Int,
    frequency: RecurrenceRule.Frequency
  ) -> Bool {
    guard !positions.isEmpty else { return false }
    let largest: Int
    switch frequency {
    case .yearly, .monthly, .weekly, .daily: largest = daysInPeriod * timesOfDay
    case .hourly, .minutely: largest = timesInPeriod
    case .secondly: largest = 1
    }
    return positions.allSatisfy { abs($0) > largest }
  }

  /// The most days one period of a rule can select.
  private static func mostDaysInAPeriod(
    _ frequency: RecurrenceRule.Frequency, _ selection: DaySelection, _ table: YearMaskTable?
  ) -> Int {
    switch frequency {
    case .yearly: table?.mostDaysInAYear ?? 366
    case .monthly: table?.mostDaysInAMonth ?? 31
    case .weekly: selection.hasWeekdays ? selection.weekdays.nonzeroBitCount : 7
    default: 1
    }
  }

  /// For DAILY and shorter rules: whether the INTERVAL grid of periods never meets the
  /// weekdays, hours, minutes and seconds the BY-parts allow — `FREQ=DAILY;INTERVAL=7;BYDAY=TU`
  /// from a Monday, or `FREQ=HOURLY;INTERVAL=24;BYHOUR=10` from 09:00. Within a week, periods
  /// start only at the units congruent to DTSTART's period modulo gcd(INTERVAL, units per
  /// week), so one pass over the allowed units decides it. Parts below the period (BYMINUTE in
  /// an HOURLY rule) expand within it and take no part.
  private static func neverMeetsTimes(
    rule: RecurrenceRule, start: CivilDateTime, frequency: RecurrenceRule.Frequency
  ) -> Bool {
    let unitSeconds: Int
    switch frequency {
    case .daily: unitSeconds = 86_400
    case .hourly: unitSeconds = 3600
    case .minutely: unitSeconds = 60
    case .secondly: unitSeconds = 1
    default: return false
    }
    func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
    let unitsPerWeek = 7 * 86_400 / unitSeconds
    let step = gcd(rule.interval % unitsPerWeek, unitsPerWeek)
    guard step > 1 else { return false }
    // Weeks counted from a Sunday, like `Weekday.index`.
    let startWeekday = Weekday(dayNumber: start.dayNumber).index
    let startResidue = (startWeekday * 86_400 + start.secondOfDay) / unitSeconds % step
    let plainDays = rule.byDay.filter { $0.ordinal == nil }.map(\.weekday.index)
    let weekdays =
      plainDays.isEmpty || plainDays.count != rule.byDay.count ? Array(0...6) : plainDays
    let hours = frequency == .daily ? [0] : (rule.byHour.isEmpty ? Array(0...23) : rule.byHour)
    let minutes =
      [.daily, .hourly].contains(frequency)
      ? [0] : (rule.byMinute.isEmpty ? Array(0...59) : rule.byMinute)
    let bySecond = rule.bySecond.filter { $0 < 60 }
    let seconds = frequency == .secondly ? (rule.bySecond.isEmpty ? Array(0...59) : bySecond) : [0]
    for weekday in weekdays {
      for hour in hours {
        for minute in minutes {
          for second in seconds {
            let offset = weekday * 86_400 + hour * 3600 + minute * 60 + second
            if offset / unitSeconds % step == startResidue { return false }
          }
        }
      }
    }
    return true
  }
}
