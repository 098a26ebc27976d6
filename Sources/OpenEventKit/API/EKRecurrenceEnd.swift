import Foundation

/// When a recurrence rule ends: at a date (RFC 5545 UNTIL) or after a number of occurrences
/// (COUNT, the first occurrence included).
///
/// See <doc:RecurringEvents>.
open class EKRecurrenceEnd: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
  /// The end date, or nil when the rule ends after a count. See <doc:RecurringEvents>.
  public let endDate: Date?
  /// The number of occurrences, or 0 when the rule ends at a date. See <doc:RecurringEvents>.
  public let occurrenceCount: Int

  private init(endDate: Date?, occurrenceCount: Int) {
    self.endDate = endDate
    self.occurrenceCount = occurrenceCount
  }

  /// An end at a date: the last occurrence starts no later than it. See <doc:Learn>.
  ///
  /// - Parameters:
  ///   - endDate: The last moment an occurrence may start.
  ///
  /// ```swift
  /// let juneFirst = Calendar.current.date(from: DateComponents(year: 2026, month: 6, day: 1))!
  /// let untilJune = EKRecurrenceEnd(end: juneFirst)
  /// ```
  public convenience init(end endDate: Date) {
    self.init(endDate: endDate, occurrenceCount: 0)
  }

  /// An end after a number of occurrences, the first included. See <doc:Learn>.
  ///
  /// - Parameters:
  ///   - occurrenceCount: How many occurrences there are in all.
  ///
  /// ```swift
  /// let tenTimes = EKRecurrenceEnd(occurrenceCount: 10)
  /// ```
  public convenience init(occurrenceCount: Int) {
    self.init(endDate: nil, occurrenceCount: occurrenceCount)
  }

  /// The end itself: it is immutable.
  ///
  /// See <doc:EventKitCompatibility>.
  ///
  /// - Parameters:
  ///   - zone: Ignored.
  /// - Returns: This end.
  public func copy(with zone: NSZone? = nil) -> Any { self }

  /// Whether `object` is an end with the same date and count.
  ///
  /// See <doc:EventKitCompatibility>.
  ///
  /// - Parameters:
  ///   - object: The object to compare with.
  /// - Returns: True for an equal end.
  open override func isEqual(_ object: Any?) -> Bool {
    guard let other = object as? EKRecurrenceEnd else { return false }
    return endDate == other.endDate && occurrenceCount == other.occurrenceCount
  }

  /// A hash of the date and count, matching ``isEqual(_:)``.
  open override var hash: Int {
    var hasher = Hasher()
    hasher.combine(endDate)
    hasher.combine(occurrenceCount)
    return hasher.finalize()
  }

  /// A short summary for debugging: the date or the count.
  open override var description: String {
    if let endDate { return "EKRecurrenceEnd(end: \(endDate))" }
    return "EKRecurrenceEnd(occurrenceCount: \(occurrenceCount))"
  }

  // MARK: NSSecureCoding

  /// True: an end decodes only as itself. See <doc:EventKitCompatibility>.
  public static var supportsSecureCoding: Bool { true }

  /// Writes the end date and count to `coder`.
  ///
  /// See <doc:EventKitCompatibility>.
  ///
  /// - Parameters:
  ///   - coder: A keyed coder.
  public func encode(with coder: NSCoder) {
    if let endDate { coder.encode(endDate.timeIntervalSinceReferenceDate, forKey: "endDate") }
    coder.encode(occurrenceCount, forKey: "occurrenceCount")
  }

  /// Reads an end that ``encode(with:)`` wrote.
  ///
  /// See <doc:EventKitCompatibility>.
  ///
  /// - Parameters:
  ///   - coder: A keyed coder.
  public required init?(coder: NSCoder) {
    endDate =
      coder.containsValue(forKey: "endDate")
      ? Date(timeIntervalSinceReferenceDate: coder.decodeDouble(forKey: "endDate")) : nil
    occurrenceCount = coder.decodeInteger(forKey: "occurrenceCount")
  }
}
