/// The day-level BY-parts of a rule (BYMONTH, BYWEEKNO, BYYEARDAY, BYMONTHDAY, BYDAY) after
/// the defaults that RFC 5545 §3.3.10 takes from DTSTART are filled in: the days a rule may
/// produce, before times and BYSETPOS.
struct DaySelection: Hashable, Sendable {
  /// Bit m (1…12) set for each allowed month; every bit when BYMONTH is absent.
  var months: UInt16 = 0b1_1111_1111_1110
  var weekNumbers: [Int] = []
  var yearDays: [Int] = []
  var monthDays: [Int] = []
  /// Bit i (0 = Sunday) for each BYDAY weekday without an ordinal.
  var weekdays: UInt8 = 0
  /// BYDAY entries with an ordinal, as (weekday index, ordinal).
  var ordinalWeekdays: [OrdinalWeekday] = []
  /// Whether BYDAY was given (or defaulted) at all; without it every weekday passes.
  var hasWeekdays = false
  /// Ordinals count within the month (MONTHLY, or YEARLY with BYMONTH) or within the year.
  var ordinalsWithinMonth = false
  /// WKST as a weekday index, for week numbers.
  var weekStart = 1

  struct OrdinalWeekday: Hashable, Sendable {
    var weekday: Int
    var ordinal: Int
  }

  static let allMonths: UInt16 = 0b1_1111_1111_1110

  init(rule: RecurrenceRule, start: CivilDateTime) {
    let date = start.date
    if !rule.byMonth.isEmpty {
      months = rule.byMonth.reduce(0) { $0 | 1 << UInt16($1) }
    }
    weekNumbers = rule.byWeekNo
    yearDays = rule.byYearDay
    monthDays = rule.byMonthDay
    for day in rule.byDay {
      if let ordinal = day.ordinal {
        ordinalWeekdays.append(OrdinalWeekday(weekday: day.weekday.index, ordinal: ordinal))
      } else {
        weekdays |= 1 << UInt8(day.weekday.index)
      }
    }
    hasWeekdays = !rule.byDay.isEmpty
    ordinalsWithinMonth = rule.frequency == .monthly || !rule.byMonth.isEmpty
    weekStart = rule.weekStart.index

    // Defaults from DTSTART (§3.3.10: "information, not contained in the rule, necessary to
    // determine the various recurrence instance start time and dates are derived from the
    // Start Time"), for the frequencies whose period is longer than the missing part.
    let dayPartsGiven =
      !rule.byWeekNo.isEmpty || !rule.byYearDay.isEmpty || !rule.byMonthDay.isEmpty
      || !rule.byDay.isEmpty
    switch rule.frequency {
    case .yearly where !dayPartsGiven:
      if rule.byMonth.isEmpty { months = 1 << UInt16(date.month) }
      monthDays = [date.day]
    case .monthly where !dayPartsGiven:
      monthDays = [date.day]
    case .weekly where rule.byDay.isEmpty:
      weekdays = 1 << UInt8(date.weekday.index)
      hasWeekdays = true
    default:
      break
    }
  }

  /// Whether only months and plain weekdays select days, which needs no per-year table.
  var isSimple: Bool {
    weekNumbers.isEmpty && yearDays.isEmpty && monthDays.isEmpty && ordinalWeekdays.isEmpty
  }

  /// Whether every day passes.
  var selectsEveryDay: Bool { isSimple && months == DaySelection.allMonths && !hasWeekdays }
}
