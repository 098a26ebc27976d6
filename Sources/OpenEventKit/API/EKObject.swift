import Foundation

/// The base of EventKit's model objects: it tells whether an object has unsaved changes and
/// lets them be dropped or the object reloaded from the store.
///
/// Subclasses that the store persists (`EKCalendarItem`, `EKCalendar`) override every member;
/// value-like objects (`EKAlarm`, `EKRecurrenceRule`…) are saved with the item that holds
/// them and answer for themselves only through it.
///
/// See <doc:SavingAndBatching>.
open class EKObject: NSObject, @unchecked Sendable {
  /// Whether the object has changes not yet saved.
  ///
  /// See <doc:SavingAndBatching>.
  open var hasChanges: Bool { false }

  /// Whether the object has never been saved.
  ///
  /// See <doc:SavingAndBatching>.
  open var isNew: Bool { false }

  /// Drops unsaved changes and reloads the object from the store.
  ///
  /// See <doc:SavingAndBatching>.
  open func reset() {}

  /// Drops unsaved changes, going back to the values last saved.
  ///
  /// See <doc:SavingAndBatching>.
  open func rollback() {}

  /// Reloads the saved values from the store, keeping unsaved changes. Returns false when the
  /// object no longer exists there (deleted by this or another store or process).
  ///
  /// See <doc:SavingAndBatching>.
  @discardableResult
  open func refresh() -> Bool { true }
}
