import Foundation

/// What the planner says when something it was given cannot be: a date it cannot read, an
/// item that is not there, a plan without its day yet. The REPL prints its text.
struct WeddingError: LocalizedError, Hashable, CustomStringConvertible {
  let description: String

  init(_ description: String) { self.description = description }
  /// The message for `localizedDescription` too, as an `EKError` gives its own.
  var errorDescription: String? { description }
}
