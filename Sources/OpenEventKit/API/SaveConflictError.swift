import Foundation

/// Thrown by ``EKEventStore/saveIfUnchanged(_:span:commit:)`` and
/// ``EKEventStore/saveIfUnchanged(_:commit:)`` when the item in the database is no longer the
/// one the object was read from: another store, app or process changed or removed it since.
/// Nothing of the save, or of the batch it was committed with, was written.
///
/// An OpenEventKit addition; Apple's EventKit has no such error. The way out is to read the
/// item again, apply the change again and retry:
///
/// ```swift
/// let span: EKSpan = event.isDetached ? .thisEvent : .futureEvents  // the whole event
/// let deadline = Date(timeIntervalSinceNow: 20)  // others saving all along: then say so
/// while true {
///   event.notes = (event.notes.map { $0 + "\n" } ?? "") + "Ann votes 5"  // from the notes read
///   do { try store.saveIfUnchanged(event, span: span); break }
///   catch let conflict as SaveConflictError {
///     event.rollback()                                  // drop the change made from the old notes
///     guard event.refresh() else { throw conflict }    // read it again; false: it was removed
///     guard Date() < deadline else { throw conflict }  // lost all along: nothing was written
///     Thread.sleep(forTimeInterval: .random(in: 0...0.02))  // as long for every writer
///   }
/// }
/// ```
///
/// See <doc:SavingAndBatching>.
public struct SaveConflictError: Error, LocalizedError, CustomStringConvertible, Sendable {
  /// The `calendarItemIdentifier` of the item that changed (for an occurrence, its series').
  public let calendarItemIdentifier: String
  /// The item's title as the object last read it.
  public let title: String?
  /// True when the item was removed, rather than changed.
  public let wasRemoved: Bool

  /// Makes the error the store throws; apps meet it in a `catch` and rarely make one, except as a
  /// test double.
  ///
  /// - Parameters:
  ///   - calendarItemIdentifier: The `calendarItemIdentifier` of the item that changed (for an
  ///     occurrence, its series').
  ///   - title: The item's title as the object last read it.
  ///   - wasRemoved: True when the item was removed, rather than changed.
  ///
  /// ```swift
  /// let error = SaveConflictError(calendarItemIdentifier: id, title: "Poker", wasRemoved: false)
  /// ```
  public init(calendarItemIdentifier: String, title: String?, wasRemoved: Bool) {
    self.calendarItemIdentifier = calendarItemIdentifier
    self.title = title
    self.wasRemoved = wasRemoved
  }

  /// A sentence for a person: which item, whether it was changed or removed, and that nothing was
  /// written.
  public var description: String {
    let name = title.map { "\"\($0)\"" } ?? calendarItemIdentifier
    return wasRemoved
      ? "\(name) was removed after it was read, so the save was not written."
      : "\(name) was changed by someone else after it was read, so the save was not written; "
        + "read it again and retry."
  }

  /// The same sentence as ``description``, for `localizedDescription`.
  public var errorDescription: String? { description }
}
