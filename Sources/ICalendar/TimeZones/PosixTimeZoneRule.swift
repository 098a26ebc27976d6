/// The POSIX TZ string at the end of a TZif file (RFC 8536 §3.3), such as
/// `EST5EDT,M3.2.0,M11.1.0` or `<+1030>-10:30<+11>-11,M10.1.0,M4.1.0`: the rule that gives a
/// zone's offsets for every year after its last listed transition, up to year 9999.
struct PosixTimeZoneRule: Hashable, Sendable {
  /// Standard time's offset from UTC, east positive (the TZ string writes it west positive).
  let standardOffset: Int
  /// Daylight time, if the zone observes it.
  let daylight: Daylight?

  struct Daylight: Hashable, Sendable {
    let offset: Int
    let start: DateRule
    /// Local standard time of day at which daylight time starts; may be negative or over 24h.
    let startTime: Int
    let end: DateRule
    /// Local daylight time of day at which daylight time ends.
    let endTime: Int
  }

  /// Which day of a year a change happens on.
  enum DateRule: Hashable, Sendable {
    /// `Mm.w.d`: weekday d (0 = Sunday) of week w (5 = last) of month m.
    case monthWeekDay(month: Int, week: Int, weekday: Int)
    /// `Jn`: day n of the year, 1...365, never counting February 29.
    case julianNoLeap(Int)
    /// `n`: day n of the year, 0...365, counting February 29.
    case zeroBasedDay(Int)

    func dayNumber(year: Int) -> Int {
      switch self {
      case .monthWeekDay(let month, let week, let weekday):
        let first = CivilDate.dayNumber(year: year, month: month, day: 1)
        var day = first + (weekday - Weekday(dayNumber: first).index + 7) % 7 + (week - 1) * 7
        let monthEnd = first + CivilDate.daysIn(month: month, year: year)
        while day >= monthEnd { day -= 7 }
        return day
      case .julianNoLeap(let n):
        let jan1 = CivilDate.dayNumber(year: year, month: 1, day: 1)
        let afterFebruary = CivilDate.isLeap(year) && n >= 60 ? 1 : 0
        return jan1 + n - 1 + afterFebruary
      case .zeroBasedDay(let n):
        return CivilDate.dayNumber(year: year, month: 1, day: 1) + n
      }
    }
  }

  /// The two transitions of one year, in UTC order, without allocating; nil without DST.
  func orderedTransitions(year: Int) -> (ZoneTransition, ZoneTransition)? {
    guard let daylight else { return nil }
    let start = daylight.start.dayNumber(year: year) * 86_400 + daylight.startTime - standardOffset
    let end = daylight.end.dayNumber(year: year) * 86_400 + daylight.endTime - daylight.offset
    let toDaylight = ZoneTransition(
      utc: start, offsetBefore: standardOffset, offsetAfter: daylight.offset)
    let toStandard = ZoneTransition(
      utc: end, offsetBefore: daylight.offset, offsetAfter: standardOffset)
    return start < end ? (toDaylight, toStandard) : (toStandard, toDaylight)
  }

  /// The offset in force at a UTC instant.
  func offset(atUTC instant: Int) -> Int {
    let year = CivilDate(dayNumber: (instant + standardOffset).floorDivided(by: 86_400)).year
    guard let (_, lastOfPreviousYear) = orderedTransitions(year: year - 1),
      let (first, second) = orderedTransitions(year: year)
    else { return standardOffset }
    if instant >= second.utc { return second.offsetAfter }
    if instant >= first.utc { return first.offsetAfter }
    return lastOfPreviousYear.offsetAfter
  }

  // MARK: Parsing

  /// Parses a TZ string; nil when it is not one this reader understands.
  init?(_ text: String) {
    var scanner = Scanner(Array(text.utf8))
    guard scanner.zoneName(), let standard = scanner.offset() else { return nil }
    standardOffset = -standard
    if scanner.atEnd {
      daylight = nil
      return
    }
    guard scanner.zoneName() else { return nil }
    var daylightOffset = standardOffset + 3600
    if let written = scanner.offset() { daylightOffset = -written }
    guard scanner.take(","), let start = scanner.dateRule() else { return nil }
    let startTime = scanner.take("/") ? scanner.offset() : 7200
    guard let startTime, scanner.take(","), let end = scanner.dateRule() else { return nil }
    let endTime = scanner.take("/") ? scanner.offset() : 7200
    guard let endTime, scanner.atEnd else { return nil }
    daylight = Daylight(
      offset: daylightOffset, start: start, startTime: startTime, end: end, endTime: endTime)
  }

  private struct Scanner {
    let bytes: [UInt8]
    var position = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { position == bytes.count }
    var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    mutating func take(_ character: Character) -> Bool {
      guard let current, current == character.asciiValue else { return false }
      position += 1
      return true
    }

    /// `EST` or `<+1030>`.
    mutating func zoneName() -> Bool {
      if take("<") {
        while let current, current != UInt8(ascii: ">") { position += 1 }
        return take(">")
      }
      let start = position
      while let current, (current | 0x20) >= UInt8(ascii: "a"),
        (current | 0x20) <= UInt8(ascii: "z")
      {
        position += 1
      }
      return position - start >= 3
    }

    /// `[+|-]hh[:mm[:ss]]` in seconds.
    mutating func offset() -> Int? {
      var sign = 1
      if take("-") { sign = -1 } else { _ = take("+") }
      guard let hours = number() else { return nil }
      var seconds = hours * 3600
      if take(":") {
        guard let minutes = number() else { return nil }
        seconds += minutes * 60
        if take(":") {
          guard let secs = number() else { return nil }
          seconds += secs
        }
      }
      return sign * seconds
    }

    mutating func number() -> Int? {
      let start = position
      var value = 0
      while let current, current >= UInt8(ascii: "0"), current <= UInt8(ascii: "9") {
        value = value * 10 + Int(current - UInt8(ascii: "0"))
        position += 1
        if position - start > 6 { return nil }
      }
      return position > start ? value : nil
    }

    mutating func dateRule() -> DateRule? {
      if take("M") {
        guard let month = number(), take("."), let week = number(), take("."),
          let weekday = number(), (1...12).contains(month), (1...5).contains(week),
          (0...6).contains(weekday)
        else { return nil }
        return .monthWeekDay(month: month, week: week, weekday: weekday)
      }
      if take("J") {
        guard let day = number(), (1...365).contains(day) else { return nil }
        return .julianNoLeap(day)
      }
      guard let day = number(), (0...365).contains(day) else { return nil }
      return .zeroBasedDay(day)
    }
  }
}
