import Foundation

/// A day of the week in a recurrence rule, optionally the nth one of the month or year
/// (RFC 5545 BYDAY: `MO`, `2MO`, `-1FR`).
///
/// See <doc:RecurringEvents>.
open class EKRecurrenceDayOfWeek: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
  /// The weekday. See <doc:RecurringEvents>.
  public let dayOfTheWeek: EKWeekday
  /// 0 for every such day; 1…53 for the nth, -53…-1 for the nth from the end.
  ///
  /// See <doc:RecurringEvents>.
  public let weekNumber: Int

  /// See <doc:RecurringEvents>.
  ///
  /// - Parameters:
  ///   - dayOfTheWeek: The weekday.
  ///   - weekNumber: 0 for every such day; 1…53 for the nth, -53…-1 for the nth from the end.
  ///
  /// ```swift
  /// let lastFriday = EKRecurrenceDayOfWeek(dayOfTheWeek: .friday, weekNumber: -1)
  /// ```
  public init(dayOfTheWeek: EKWeekday, weekNumber: Int) {
    self.dayOfTheWeek = dayOfTheWeek
    self.weekNumber = weekNumber
  }

  /// Every such weekday. See <doc:RecurringEvents>.
  ///
  /// - Parameters:
  ///   - dayOfTheWeek: The weekday.
  ///
  /// ```swift
  /// let mondays = EKRecurrenceDayOfWeek(.monday)
  /// ```
  public convenience init(_ dayOfTheWeek: EKWeekday) {
    self.init(dayOfTheWeek: dayOfTheWeek, weekNumber: 0)
  }

  /// See <doc:RecurringEvents>.
  ///
  /// - Parameters:
  ///   - dayOfTheWeek: The weekday.
  ///   - weekNumber: 0 for every such day; 1…53 for the nth, -53…-1 for the nth from the end.
  ///
  /// ```swift
  /// let secondTuesday = EKRecurrenceDayOfWeek(.tuesday, weekNumber: 2)
  /// ```
  public convenience init(_ dayOfTheWeek: EKWeekday, weekNumber: Int) {
    self.init(dayOfTheWeek: dayOfTheWeek, weekNumber: weekNumber)
  }

  /// The day itself: it is immutable.
  ///
  /// See <doc:EventKitCompatibility>.
  ///
  /// - Parameters:
  ///   - zone: Ignored.
  /// - Returns: This day.
  public func copy(with zone: NSZone? = nil) -> Any { self }

  /// Whether `object` is the same weekday with the same week number.
  ///
  /// See <doc:EventKitCompatibility>.
  ///
  /// - Parameters:
  ///   - object: The object to compare with.
  /// - Returns: True for an equal day.
  open override func isEqual(_ object: Any?) -> Bool {
    guard let other = object as? EKRecurrenceDayOfWeek else { return false }
    return dayOfTheWeek == other.dayOfTheWeek && weekNumber == other.weekNumber
  }

  /// A hash of the weekday and number, matching ``isEqual(_:)``.
  open override var hash: Int { dayOfTheWeek.rawValue &* 131 &+ weekNumber }

  /// The RFC 5545 form, `MO`, `2MO`, `-1FR`.
  open override var description: String {
    let names = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]
    return (weekNumber == 0 ? "" : String(weekNumber)) + names[dayOfTheWeek.rawValue - 1]
  }

  // MARK: NSSecureCoding

  /// True: a day decodes only as itself. See <doc:EventKitCompatibility>.
  public static var supportsSecureCoding: Bool { true }

  /// Writes the weekday and week number to `coder`.
  ///
  /// See <doc:EventKitCompatibility>.
  ///
  /// - Parameters:
  ///   - coder: A keyed coder.
  public func encode(with coder: NSCoder) {
    coder.encode(dayOfTheWeek.rawValue, forKey: "dayOfTheWeek")
    coder.encode(weekNumber, forKey: "weekNumber")
  }

  /// Reads a day that ``encode(with:)`` wrote; nil when the weekday is not 1…7.
  ///
  /// See <doc:EventKitCompatibility>.
  ///
  /// - Parameters:
  ///   - coder: A keyed coder.
  public required init?(coder: NSCoder) {
    guard let day = EKWeekday(rawValue: coder.decodeInteger(forKey: "dayOfTheWeek")) else {
      return nil
    }
    dayOfTheWeek = day
    weekNumber = coder.decodeInteger(forKey: "weekNumber")
  }
}
