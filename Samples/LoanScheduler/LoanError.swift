import Foundation

/// What the loan domain says when something it was given cannot be: a bad amount, a date
/// outside what a loan may use, a payment that is not there. The REPL prints its text.
struct LoanError: LocalizedError, Hashable, CustomStringConvertible {
  let description: String

  init(_ description: String) { self.description = description }
  /// The message for `localizedDescription` too, as an `EKError` gives its own.
  var errorDescription: String? { description }
}
