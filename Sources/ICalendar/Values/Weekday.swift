/// A day of the week, with RFC 5545's two-letter names (§3.3.10, "weekday").
///
/// Raw values follow Foundation's `Calendar` and EventKit (`EKWeekday`): Sunday is 1 and
/// Saturday is 7.
///
/// ```swift
/// let day = Weekday(abbreviation: "fr")!
/// print(day.rawValue, day.index, day.abbreviation, day.name)  // 6 5 FR Friday
/// print(CivilDate(year: 2025, month: 12, day: 25)!.weekday)  // thursday
/// ```
public enum Weekday: Int, CaseIterable, Hashable, Sendable, Codable {
  /// Sunday, `SU`; raw value 1.
  case sunday = 1
  /// Monday, `MO`, through Saturday, `SA`; raw values 2 to 7.
  case monday, tuesday, wednesday, thursday, friday, saturday

  /// The weekday of a day number (days since 1970-01-01, a Thursday).
  ///
  /// ```swift
  /// print(Weekday(dayNumber: 0))  // thursday: 1 January 1970
  /// print(Weekday(dayNumber: CivilDate(year: 2025, month: 1, day: 6)!.dayNumber))  // monday
  /// ```
  ///
  /// - Parameter dayNumber: Days since 1970-01-01, as ``CivilDate/dayNumber`` gives them.
  @inlinable
  public init(dayNumber: Int) {
    let index = ((dayNumber + 4) % 7 + 7) % 7  // 0 = Sunday
    self = Weekday(rawValue: index + 1)!
  }

  /// 0 for Sunday … 6 for Saturday, for modular arithmetic.
  @inlinable
  public var index: Int { rawValue - 1 }

  /// The RFC 5545 abbreviation: SU, MO, TU, WE, TH, FR, SA.
  public var abbreviation: String {
    switch self {
    case .sunday: "SU"
    case .monday: "MO"
    case .tuesday: "TU"
    case .wednesday: "WE"
    case .thursday: "TH"
    case .friday: "FR"
    case .saturday: "SA"
    }
  }

  /// The weekday named by an RFC 5545 abbreviation, ignoring case.
  ///
  /// ```swift
  /// print(Weekday(abbreviation: "tu") as Any)  // Optional(ICalendar.Weekday.tuesday)
  /// print(Weekday(abbreviation: "Tuesday") as Any)  // nil
  /// ```
  ///
  /// - Parameter abbreviation: `SU`, `MO`, `TU`, `WE`, `TH`, `FR` or `SA`, in any case;
  ///   anything else gives nil.
  public init?(abbreviation: some StringProtocol) {
    switch abbreviation.uppercased() {
    case "SU": self = .sunday
    case "MO": self = .monday
    case "TU": self = .tuesday
    case "WE": self = .wednesday
    case "TH": self = .thursday
    case "FR": self = .friday
    case "SA": self = .saturday
    default: return nil
    }
  }

  /// The English name, as a person reads it ("Monday").
  public var name: String {
    switch self {
    case .sunday: "Sunday"
    case .monday: "Monday"
    case .tuesday: "Tuesday"
    case .wednesday: "Wednesday"
    case .thursday: "Thursday"
    case .friday: "Friday"
    case .saturday: "Saturday"
    }
  }
}
