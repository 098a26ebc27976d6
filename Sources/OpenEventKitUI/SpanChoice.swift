import OpenEventKit
import REPLKit

/// The question Calendar asks before changing a repeating event: this occurrence only, or it
/// and every later one (EventKit's `EKSpan`).
///
/// EventKitUI's editor asks it in its own sheet; here it is its own question, which
/// ``EKEventEditViewController`` asks and an app asks before a change of its own:
///
/// ```swift
/// guard let span = SpanChoice.ask(.delete, on: console) else { return }  // nothing changes
/// try store.remove(event, span: span, commit: true)  // `event`: one occurrence of a series
/// // This is a repeating event.
/// //   1) Delete for this event only
/// //   2) Delete for future events
/// //   3) Cancel
/// // Choose 1, 2 or 3: 2
/// ```
public enum SpanChoice {
  /// The change the question is about, which words the choices: "Save for …" or
  /// "Delete for …".
  ///
  /// ```swift
  /// let span = SpanChoice.ask(.save, on: console)  // "1) Save for this event only" …
  /// ```
  public enum Change: Sendable {
    /// `save`: saving changes to the event; `delete`: removing it.
    case save, delete
  }

  /// How the question was answered.
  ///
  /// ```swift
  /// switch SpanChoice.choose(.save, on: console) {
  /// case .span(let span): try store.save(event, span: span)
  /// case .cancel: break        // back to what the person was doing
  /// case .unanswered: return   // stop: the input is not for this question
  /// }
  /// ```
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
  ///
  /// The answer is `1`, `2` or `3`, or the start of `this`, `future` or `cancel`; it is asked
  /// up to three times (once when the console reads a pipe or a file). Use it where Cancel and
  /// no answer call for different things, as in the editor (back to its question, or the end
  /// of the edit); else ``ask(_:on:)``.
  ///
  /// ```swift
  /// let console = Console.scripted(["fut"], transcript: Transcript(), timeZone: .gmt, now: Date())
  /// print(SpanChoice.choose(.save, on: console) == .span(.futureEvents))  // true
  /// let quiet = Console.scripted([], transcript: Transcript(), timeZone: .gmt, now: Date())
  /// print(SpanChoice.choose(.delete, on: quiet) == .unanswered)  // true: the input ended
  /// ```
  ///
  /// - Parameters:
  ///   - change: Whether the event is to be saved or deleted.
  ///   - console: Where the question is asked and answered.
  /// - Returns: ``Answer/span(_:)`` with `.thisEvent` or `.futureEvents`, ``Answer/cancel``,
  ///   or ``Answer/unanswered``.
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
  ///
  /// ```swift
  /// let console = Console.scripted(["3"], transcript: Transcript(), timeZone: .gmt, now: Date())
  /// print(SpanChoice.ask(.delete, on: console) == nil)  // true: 3 is Cancel
  /// ```
  ///
  /// - Parameters:
  ///   - change: Whether the event is to be saved or deleted.
  ///   - console: Where the question is asked and answered.
  /// - Returns: `.thisEvent` or `.futureEvents`, or nil.
  public static func ask(_ change: Change, on console: Console) -> EKSpan? {
    if case .span(let span) = choose(change, on: console) { return span }
    return nil
  }
}
