import OpenEventKit
import REPLKit

/// The question Calendar asks before changing a repeating event: this occurrence only, or it
/// and every later one (EventKit's `EKSpan`).
public enum SpanChoice {
  public enum Change: Sendable {
    case save, delete
  }

  /// How the question was answered.
  public enum Answer: Sendable, Hashable {
    /// A span was chosen.
    case span(EKSpan)
    /// The person chose Cancel: not this change (the editor asks what to do instead).
    case cancel
    /// No answer: three answers that fit no choice, the end of input or Ctrl-C. Whoever
    /// asked stops, as they would at the end of input, rather than ask something else.
    case unanswered
  }

  /// Asks which occurrences a change applies to.
  public static func choose(_ change: Change, on console: Console) -> Answer {
    let verb = change == .save ? "Save" : "Delete"
    console.print(
      "This is a repeating event.",
      "  1) \(verb) for this event only",
      "  2) \(verb) for future events",
      "  3) Cancel")
    switch console.choose("Choose 1, 2 or 3: ", among: ["this", "future", "cancel"]) {
    case 0: return .span(.thisEvent)
    case 1: return .span(.futureEvents)
    case 2: return .cancel
    default: return .unanswered
    }
  }

  /// Asks which occurrences a change applies to; nil when the person cancels (or gives no
  /// answer), in which case nothing should change.
  public static func ask(_ change: Change, on console: Console) -> EKSpan? {
    if case .span(let span) = choose(change, on: console) { return span }
    return nil
  }
}
