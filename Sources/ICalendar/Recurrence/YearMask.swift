import Synchronization

/// The days of one kind of year that a ``DaySelection`` keeps.
///
/// Which days a rule selects within a year depends only on whether the year is a leap year
/// and the weekday of its January 1 (and, for BYWEEKNO, on the lengths of the years around
/// it): at most 56 kinds of year. A ``YearMaskTable`` computes each kind once, so a rule's
/// days come from a lookup however many years it spans, and a rule that selects no day in any
/// kind of year is known to be empty at once.
struct YearMask: Sendable {
  /// Selected days as 0-based days of the year, ascending.
  let days: [Int]
  /// `days[monthStart[m - 1] ..< monthStart[m]]` are the selected days of month m.
  let monthStart: [Int]
  /// One bit per day of the year, for membership tests.
  private let bits: [UInt64]

  func contains(dayOfYear day: Int) -> Bool { bits[day >> 6] & (1 << UInt64(day & 63)) != 0 }

  init(selection: DaySelection, kind: YearKind) {
    let yearLength = kind.isLeap ? 366 : 365
    let weeks =
      selection.weekNumbers.isEmpty
      ? nil : WeekNumbering(kind: kind, weekStart: selection.weekStart)
    var days: [Int] = []
    var monthStart = [0]
    var bits = [UInt64](repeating: 0, count: 6)
    var dayOfYear = 0
    for month in 1...12 {
      let monthLength = CivilDate.daysIn(month: month, year: kind.isLeap ? 2000 : 2001)
      guard selection.months & (1 << UInt16(month)) != 0 else {
        dayOfYear += monthLength
        monthStart.append(days.count)
        continue
      }
      for day in 1...monthLength {
        defer { dayOfYear += 1 }
        let weekday = (kind.january1Weekday + dayOfYear) % 7
        if let weeks {
          let (number, weeksInYear) = weeks.week(ofDay: dayOfYear)
          guard
            selection.weekNumbers.contains(number)
              || selection.weekNumbers.contains(number - weeksInYear - 1)
          else { continue }
        }
        if !selection.yearDays.isEmpty {
          guard
            selection.yearDays.contains(dayOfYear + 1)
              || selection.yearDays.contains(dayOfYear - yearLength)
          else { continue }
        }
        if !selection.monthDays.isEmpty {
          guard
            selection.monthDays.contains(day) || selection.monthDays.contains(day - monthLength - 1)
          else { continue }
        }
        if selection.hasWeekdays {
          var matches = selection.weekdays & (1 << UInt8(weekday)) != 0
          if !matches {
            // The nth such weekday, counted from the start and from the end of the month or
            // year (§3.3.10, BYDAY).
            let (fromStart, fromEnd) =
              selection.ordinalsWithinMonth
              ? ((day - 1) / 7 + 1, -((monthLength - day) / 7 + 1))
              : (dayOfYear / 7 + 1, -((yearLength - 1 - dayOfYear) / 7 + 1))
            matches = selection.ordinalWeekdays.contains {
              $0.weekday == weekday && ($0.ordinal == fromStart || $0.ordinal == fromEnd)
            }
          }
          guard matches else { continue }
        }
        days.append(dayOfYear)
        bits[dayOfYear >> 6] |= 1 << UInt64(dayOfYear & 63)
      }
      monthStart.append(days.count)
    }
    self.days = days
    self.monthStart = monthStart
    self.bits = bits
  }
}

/// What decides a year's selected days: its length, its first weekday, and for week numbers
/// the lengths of the years before and after it.
struct YearKind: Hashable, Sendable {
  var isLeap: Bool
  /// 0 = Sunday.
  var january1Weekday: Int
  var previousIsLeap = false
  var nextIsLeap = false

  init(isLeap: Bool, january1Weekday: Int, previousIsLeap: Bool = false, nextIsLeap: Bool = false) {
    self.isLeap = isLeap
    self.january1Weekday = january1Weekday
    self.previousIsLeap = previousIsLeap
    self.nextIsLeap = nextIsLeap
  }

  init(year: Int, withNeighbours: Bool) {
    isLeap = CivilDate.isLeap(year)
    january1Weekday = Weekday(dayNumber: CivilDate.dayNumber(year: year, month: 1, day: 1)).index
    if withNeighbours {
      previousIsLeap = CivilDate.isLeap(year - 1)
      nextIsLeap = CivilDate.isLeap(year + 1)
    }
  }

  /// The kind's place in ``all(withNeighbours:)``: by length, then by January 1 weekday,
  /// then (with neighbours) by the lengths of the years before and after.
  func position(withNeighbours: Bool) -> Int {
    withNeighbours
      ? (isLeap ? 28 : 0) + january1Weekday * 4 + (previousIsLeap ? 2 : 0) + (nextIsLeap ? 1 : 0)
      : (isLeap ? 7 : 0) + january1Weekday
  }

  static func all(withNeighbours: Bool) -> [YearKind] {
    var kinds: [YearKind] = []
    for leap in [false, true] {
      for weekday in 0..<7 {
        for previous in withNeighbours ? [false, true] : [false] {
          for next in withNeighbours ? [false, true] : [false] {
            kinds.append(
              YearKind(
                isLeap: leap, january1Weekday: weekday, previousIsLeap: previous, nextIsLeap: next))
          }
        }
      }
    }
    return kinds
  }
}

/// Week numbers as RFC 5545 §3.3.10 defines them for BYWEEKNO: weeks start on WKST, and week
/// 1 is the first week with at least four days in the year. Days at the ends of a year may
/// belong to the last week of the year before or to week 1 of the next.
struct WeekNumbering {
  /// Where week 1 of this, the previous and the next year start, as days relative to this
  /// year's January 1.
  private let thisWeek1: Int
  private let previousWeek1: Int
  private let nextWeek1: Int
  private let weeksInThis: Int
  private let weeksInPrevious: Int
  private let weeksInNext: Int

  init(kind: YearKind, weekStart: Int) {
    func week1Start(january1Weekday: Int) -> Int {
      let daysIntoWeek = (january1Weekday - weekStart + 7) % 7
      return daysIntoWeek <= 3 ? -daysIntoWeek : 7 - daysIntoWeek
    }
    let length = kind.isLeap ? 366 : 365
    let previousLength = kind.previousIsLeap ? 366 : 365
    let nextLength = kind.nextIsLeap ? 366 : 365
    let previousJanuary1 = ((kind.january1Weekday - previousLength) % 7 + 7) % 7
    let nextJanuary1 = (kind.january1Weekday + length) % 7
    let afterNextJanuary1 = (nextJanuary1 + nextLength) % 7
    thisWeek1 = week1Start(january1Weekday: kind.january1Weekday)
    previousWeek1 = -previousLength + week1Start(january1Weekday: previousJanuary1)
    nextWeek1 = length + week1Start(january1Weekday: nextJanuary1)
    let afterNextWeek1 = length + nextLength + week1Start(january1Weekday: afterNextJanuary1)
    weeksInThis = (nextWeek1 - thisWeek1) / 7
    weeksInPrevious = (thisWeek1 - previousWeek1) / 7
    weeksInNext = (afterNextWeek1 - nextWeek1) / 7
  }

  /// The week number of a day of this year, and how many weeks its week-numbering year has.
  func week(ofDay day: Int) -> (number: Int, weeksInYear: Int) {
    if day < thisWeek1 { return (weeksInPrevious, weeksInPrevious) }
    if day >= nextWeek1 { return ((day - nextWeek1) / 7 + 1, weeksInNext) }
    return ((day - thisWeek1) / 7 + 1, weeksInThis)
  }
}

/// The masks of every kind of year for one selection, built once and shared by every
/// expansion of rules that select days the same way.
final class YearMaskTable: Sendable {
  let usesNeighbours: Bool
  /// Whether the selected days depend on the year's length only: without BYDAY or BYWEEKNO,
  /// a common and a leap year's masks serve all fourteen kinds of year.
  private let byLengthOnly: Bool
  /// By length only, the common and the leap year's masks; otherwise a mask for each kind of
  /// year, in ``YearKind/all(withNeighbours:)``'s order.
  private let masks: [YearMask]
  /// No kind of year has a selected day: the rule produces nothing but its DTSTART.
  let isEmpty: Bool
  /// The most days any year, or any month, has selected: bounds what BYSETPOS can reach.
  let mostDaysInAYear: Int
  let mostDaysInAMonth: Int

  private init(selection: DaySelection) {
    usesNeighbours = !selection.weekNumbers.isEmpty
    // A month's query of a store with many yearly series builds a table for each of their
    // dates: two masks each, not fourteen.
    byLengthOnly = !selection.hasWeekdays && !usesNeighbours
    let masks =
      byLengthOnly
      ? [false, true].map {
        YearMask(selection: selection, kind: YearKind(isLeap: $0, january1Weekday: 0))
      }
      : YearKind.all(withNeighbours: usesNeighbours).map {
        YearMask(selection: selection, kind: $0)
      }
    self.masks = masks
    isEmpty = masks.allSatisfy { $0.days.isEmpty }
    var mostInAYear = 0
    var mostInAMonth = 0
    for mask in masks {
      mostInAYear = max(mostInAYear, mask.days.count)
      for month in 1...12 {
        mostInAMonth = max(mostInAMonth, mask.monthStart[month] - mask.monthStart[month - 1])
      }
    }
    mostDaysInAYear = mostInAYear
    mostDaysInAMonth = mostInAMonth
  }

  func mask(forYear year: Int) -> YearMask {
    if byLengthOnly { return masks[CivilDate.isLeap(year) ? 1 : 0] }
    return masks[
      YearKind(year: year, withNeighbours: usesNeighbours).position(withNeighbours: usesNeighbours)]
  }

  private static let cache = Mutex<[DaySelection: YearMaskTable]>([:])

  /// The table for a selection, from the process-wide cache when another expansion built it.
  static func forSelection(_ selection: DaySelection) -> YearMaskTable {
    if let table = cache.withLock({ $0[selection] }) { return table }
    let table = YearMaskTable(selection: selection)
    cache.withLock { cache in
      if cache.count >= 1024 { cache.removeAll() }
      cache[selection] = table
    }
    return table
  }
}
