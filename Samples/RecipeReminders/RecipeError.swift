import Foundation

/// What the app says when something it was given cannot be: a recipe or an item that is not
/// there, an ingredient line it cannot read, a batch another app broke. The REPL prints its
/// text after `error:`.
struct RecipeError: LocalizedError, Hashable, CustomStringConvertible {
  let description: String

  init(_ description: String) { self.description = description }
  /// The message for `localizedDescription` too, as an `EKError` gives its own.
  var errorDescription: String? { description }
}
