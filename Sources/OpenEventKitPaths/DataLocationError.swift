/// What ``DataLocation`` could not do with a person's file: a sentence naming the file, what
/// is wrong and, where there is one, the command that fixes it.
///
/// Its own type, not `EKError`, because this module sits below the store (REPLKit uses it
/// and knows nothing of calendars); the store passes the message on in an `EKError` with
/// code `internalFailure`, word for word.
package struct DataLocationError: Error, CustomStringConvertible, Equatable {
  /// The sentence for the person.
  package let message: String

  package init(_ message: String) { self.message = message }

  package var description: String { message }
}
