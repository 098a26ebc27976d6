/// Why a recurrence rule was refused, and which rule part caused it.
///
/// ``RecurrenceRule/init(parsing:)`` and ``RecurrenceRule/validate()`` throw it; expanding a
/// ``RecurrenceSet`` wraps it in ``RecurrenceSetError/rule(_:)``. ``reason`` is for code,
/// ``message`` for a person.
///
/// ```swift
/// do {
///   _ = try RecurrenceRule(parsing: "FREQ=WEEKLY;BYMONTHDAY=1")
/// } catch {
///   print(error.reason == .notAllowedForFrequency, error.part ?? "")  // true BYMONTHDAY
///   print(error.message)  // BYMONTHDAY is not allowed with FREQ=WEEKLY
/// }
/// ```
public struct RecurrenceRuleError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The kind of problem, one case for each check of RFC 5545 §3.3.10 a rule can fail.
  ///
  /// ```swift
  /// let error = RecurrenceRuleError(.missingFrequency, part: "FREQ", "the rule has no FREQ")
  /// if error.reason == .missingFrequency { print("add a FREQ") }
  /// ```
  public enum Reason: Hashable, Sendable {
    /// No text at all.
    case empty
    /// A part that is not `NAME=VALUE`.
    case malformedPart
    /// A part RFC 5545 does not define.
    case unknownPart
    /// A part given twice.
    case repeatedPart
    /// No FREQ.
    case missingFrequency
    /// A value that is not of the part's form or lies outside its range.
    case invalidValue
    /// COUNT and UNTIL together (§3.3.10: "MUST NOT occur in the same recur").
    case countWithUntil
    /// A BY-part the RFC forbids for this FREQ.
    case notAllowedForFrequency
    /// A BYDAY ordinal where the RFC forbids one.
    case ordinalNotAllowed
    /// BYSETPOS with no other BY-part to pick from.
    case setPositionWithoutOtherPart
    /// A rule that cannot repeat from this start (an HOURLY rule from a DATE).
    case incompatibleStart
  }

  /// The kind of problem, for code that reacts to it.
  public let reason: Reason
  /// The rule part at fault (`BYMONTH`, `FREQ`…), nil for the rule as a whole.
  public let part: String?
  /// One line for a person.
  public let message: String

  /// An error, as the parser and the validator make them.
  ///
  /// ```swift
  /// let error = RecurrenceRuleError(
  ///   .invalidValue, part: "INTERVAL", "INTERVAL must be at least 1")
  /// print(error)  // INTERVAL must be at least 1
  /// print(error.part ?? "the whole rule")  // INTERVAL
  /// ```
  ///
  /// - Parameters:
  ///   - reason: The kind of problem.
  ///   - part: The rule part at fault, in upper case, or nil for the rule as a whole.
  ///   - message: One line for a person, which ``description`` gives back.
  public init(_ reason: Reason, part: String?, _ message: String) {
    self.reason = reason
    self.part = part
    self.message = message
  }

  /// The ``message``.
  public var description: String { message }
}
