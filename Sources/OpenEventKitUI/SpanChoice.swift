import OpenEventKit
import REPLKit

/// The question Calendar asks before changing a repeating event: this occurrence only, or it
/// and every later one (EventKit's `EKSpan`).
public enum SpanChoice {
  public enum Change: Sendable {
    case save, delete
  }

  /// Asks which occurrences a change applies to; nil when the person cancels (or the input
  /// ends), in which case nothing should change.
  public static func ask(_ change: Change, on console: Console) -> EKSpan? {
    let verb = change == .save ? "Save" : "Delete"
    console.print(
      "This is a repeating event.",
      "  1) \(verb) for this event only",
      "  2) \(verb) for future events",
      "  3) Cancel")
    switch console.choose("Choose 1, 2 or 3: ", among: ["this", "future", "cancel"]) {
    case 0: return .thisEvent
    case 1: return .futureEvents
    default: return nil
    }
  }
}
