import Foundation

/// The sentence that tells a person what went wrong, for any error a command throws: the
/// description of the app's own errors (``REPLError``, a domain's error type), the localized
/// description of an `NSError`-bridged one (`EKError`, which carries Apple's message).
///
/// The ``REPL`` prints a failed command's error with it, after `error: `, and
/// ``Console/ask(_:default:read:)`` prints a refused answer's.
///
/// ```swift
/// struct DomainError: Error, CustomStringConvertible {
///   var description: String { "that loan is repaid" }
/// }
/// ErrorText.of(DomainError())       // "that loan is repaid"
/// ErrorText.of(REPLError("plain"))  // "plain"
/// let bridged = NSError(
///   domain: "EKErrorDomain", code: 1, userInfo: [NSLocalizedDescriptionKey: "No calendar."])
/// ErrorText.of(bridged)             // "No calendar."
/// ```
public enum ErrorText {
  /// The sentence for an error, chosen in this order: a `LocalizedError`'s
  /// `errorDescription`, the `NSLocalizedDescriptionKey` of its `NSError` bridge, and
  /// otherwise `String(describing:)` (a `CustomStringConvertible` error's `description`).
  ///
  /// ```swift
  /// do {
  ///   _ = try CommandLineWords.split(#"add "Claire"#)
  /// } catch {
  ///   print("error: " + ErrorText.of(error))  // error: missing closing "
  /// }
  /// let refused = EKError(.noCalendar, "Choose a calendar first.")
  /// print(ErrorText.of(refused))  // Choose a calendar first.
  /// ```
  ///
  /// - Parameter error: Any error, as a command or a `read` function threw it.
  /// - Returns: The text to show the person, without a trailing newline or an `error: `
  ///   prefix.
  public static func of(_ error: any Error) -> String {
    if let localized = error as? any LocalizedError, let text = localized.errorDescription {
      return text
    }
    // An `NSError`-bridged error carries its message; a Swift error of the app's own has
    // none there, and its `description` says what it is.
    if let text = (error as NSError).userInfo[NSLocalizedDescriptionKey] as? String { return text }
    return String(describing: error)
  }
}
