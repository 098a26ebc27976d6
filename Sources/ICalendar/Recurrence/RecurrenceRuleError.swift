/// Why a recurrence rule was refused, and which rule part caused it.
public struct RecurrenceRuleError: Error, Hashable, Sendable, CustomStringConvertible {
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

  public let reason: Reason
  /// The rule part at fault (`BYMONTH`, `FREQ`…), nil for the rule as a whole.
  public let part: String?
  /// One line for a person.
  public let message: String

  public init(_ reason: Reason, part: String?, _ message: String) {
    self.reason = reason
    self.part = part
    self.message = message
  }

  public var description: String { message }
}
