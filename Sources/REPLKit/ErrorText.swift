import Foundation

/// The sentence that tells a person what went wrong, for any error a command throws: the
/// description of the app's own errors (``REPLError``, a domain's error type), the localized
/// description of an `NSError`-bridged one (`EKError`, which carries Apple's message).
///
/// The ``REPL`` prints a failed command's error with it, after `Error: `, and
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
  ///   print("Error: " + ErrorText.of(error))  // Error: missing closing "
  /// }
  /// let refused = NSError(
  ///   domain: "EKErrorDomain", code: 1,
  ///   userInfo: [NSLocalizedDescriptionKey: "Choose a calendar first."])  // as EKError bridges
  /// print(ErrorText.of(refused))  // Choose a calendar first.
  /// ```
  ///
  /// - Parameter error: Any error, as a command or a `read` function threw it.
  /// - Returns: The text to show the person, without a trailing newline or an `Error: `
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

  /// A message cut to a length a person reads, its end kept: what the person typed is often
  /// quoted in it (a 3,000-character line echoed whole buries the hint after it).
  ///
  /// ```swift
  /// let typed = String(repeating: "x", count: 3000)
  /// let message = "'\(typed)' is not a day and a time; say when as fri 20:00"
  /// print(ErrorText.shortened(message).count)  // 500
  /// print(ErrorText.shortened(message).hasSuffix("say when as fri 20:00"))  // true
  /// ```
  ///
  /// - Parameters:
  ///   - message: The whole message.
  ///   - limit: The most characters kept; 500 by default (a long path fits; a line typed by
  ///     mistake does not).
  /// - Returns: `message` when it is no longer than `limit`; else its start and its end with
  ///   ` … ` between them, `limit` characters in all.
  public static func shortened(_ message: String, limit: Int = 500) -> String {
    guard message.count > limit else { return message }
    let gap = " … "
    let end = min(message.count, limit / 2)
    let start = limit - end - gap.count
    return String(message.prefix(start)) + gap + String(message.suffix(end))
  }
}
