import Foundation

/// A day of the week in a recurrence rule, optionally the nth one of the month or year
/// (RFC 5545 BYDAY: `MO`, `2MO`, `-1FR`).
open class EKRecurrenceDayOfWeek: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
  public let dayOfTheWeek: EKWeekday
  /// 0 for every such day; 1…53 for the nth, -53…-1 for the nth from the end.
  public let weekNumber: Int

  public init(dayOfTheWeek: EKWeekday, weekNumber: Int) {
    self.dayOfTheWeek = dayOfTheWeek
    self.weekNumber = weekNumber
  }

  public convenience init(_ dayOfTheWeek: EKWeekday) {
    self.init(dayOfTheWeek: dayOfTheWeek, weekNumber: 0)
  }

  public convenience init(_ dayOfTheWeek: EKWeekday, weekNumber: Int) {
    self.init(dayOfTheWeek: dayOfTheWeek, weekNumber: weekNumber)
  }

  public func copy(with zone: NSZone? = nil) -> Any { self }

  open override func isEqual(_ object: Any?) -> Bool {
    guard let other = object as? EKRecurrenceDayOfWeek else { return false }
    return dayOfTheWeek == other.dayOfTheWeek && weekNumber == other.weekNumber
  }

  open override var hash: Int { dayOfTheWeek.rawValue &* 131 &+ weekNumber }

  /// The RFC 5545 form, `MO`, `2MO`, `-1FR`.
  open override var description: String {
    let names = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]
    return (weekNumber == 0 ? "" : String(weekNumber)) + names[dayOfTheWeek.rawValue - 1]
  }

  // MARK: NSSecureCoding

  public static var supportsSecureCoding: Bool { true }

  public func encode(with coder: NSCoder) {
    coder.encode(dayOfTheWeek.rawValue, forKey: "dayOfTheWeek")
    coder.encode(weekNumber, forKey: "weekNumber")
  }

  public required init?(coder: NSCoder) {
    guard let day = EKWeekday(rawValue: coder.decodeInteger(forKey: "dayOfTheWeek")) else {
      return nil
    }
    dayOfTheWeek = day
    weekNumber = coder.decodeInteger(forKey: "weekNumber")
  }
}
