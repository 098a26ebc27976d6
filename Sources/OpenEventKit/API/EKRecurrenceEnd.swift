import Foundation

/// When a recurrence rule ends: at a date (RFC 5545 UNTIL) or after a number of occurrences
/// (COUNT, the first occurrence included).
open class EKRecurrenceEnd: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
  /// The end date, or nil when the rule ends after a count.
  public let endDate: Date?
  /// The number of occurrences, or 0 when the rule ends at a date.
  public let occurrenceCount: Int

  private init(endDate: Date?, occurrenceCount: Int) {
    self.endDate = endDate
    self.occurrenceCount = occurrenceCount
  }

  public convenience init(end endDate: Date) {
    self.init(endDate: endDate, occurrenceCount: 0)
  }

  public convenience init(occurrenceCount: Int) {
    self.init(endDate: nil, occurrenceCount: occurrenceCount)
  }

  public func copy(with zone: NSZone? = nil) -> Any { self }

  open override func isEqual(_ object: Any?) -> Bool {
    guard let other = object as? EKRecurrenceEnd else { return false }
    return endDate == other.endDate && occurrenceCount == other.occurrenceCount
  }

  open override var hash: Int {
    var hasher = Hasher()
    hasher.combine(endDate)
    hasher.combine(occurrenceCount)
    return hasher.finalize()
  }

  open override var description: String {
    if let endDate { return "EKRecurrenceEnd(end: \(endDate))" }
    return "EKRecurrenceEnd(occurrenceCount: \(occurrenceCount))"
  }

  // MARK: NSSecureCoding

  public static var supportsSecureCoding: Bool { true }

  public func encode(with coder: NSCoder) {
    if let endDate { coder.encode(endDate.timeIntervalSinceReferenceDate, forKey: "endDate") }
    coder.encode(occurrenceCount, forKey: "occurrenceCount")
  }

  public required init?(coder: NSCoder) {
    endDate =
      coder.containsValue(forKey: "endDate")
      ? Date(timeIntervalSinceReferenceDate: coder.decodeDouble(forKey: "endDate")) : nil
    occurrenceCount = coder.decodeInteger(forKey: "occurrenceCount")
  }
}
