import Foundation

/// The sentence that tells a person what went wrong, for any error a command throws: the
/// description of the app's own errors (``REPLError``, a domain's error type), the localized
/// description of an `NSError`-bridged one (`EKError`, which carries Apple's message).
public enum ErrorText {
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
