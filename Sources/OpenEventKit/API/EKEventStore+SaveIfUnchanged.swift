import Foundation

/// Saving only what nobody else changed: an OpenEventKit addition (<doc:EventKitCompatibility>).
///
/// Apple's `save(_:span:commit:)` writes the object's values over whatever the database holds,
/// so when two processes read an event, each adds a line to its notes and each saves, the
/// second save silently drops the first one's line. A calendar that several apps or people
/// edit (a shared poker night's votes, say) needs "save only if nobody changed this since I
/// read it": these methods. They check, in the same transaction as the write, that the
/// item's row is still the one the object was fetched, refreshed or last saved with; when it
/// is not they write nothing and throw ``SaveConflictError``, and the app reads the item again
/// (`refresh()`), applies its change again and retries.
///
/// ```swift
/// guard let event = store.event(withIdentifier: id) else { return }  // removed, or no access
/// let span: EKSpan = event.isDetached ? .thisEvent : .futureEvents  // the whole event
/// let deadline = Date(timeIntervalSinceNow: 20)  // others saving all along: then say so
/// while true {
///   event.notes = (event.notes.map { $0 + "\n" } ?? "") + "ann"  // from the notes read
///   do {
///     try store.saveIfUnchanged(event, span: span)
///     break
///   } catch let conflict as SaveConflictError {
///     event.rollback()                                  // drop our change…
///     guard event.refresh() else { throw conflict }    // …read it again (false: removed)
///     guard Date() < deadline else { throw conflict }  // lost all along: nothing written
///     Thread.sleep(forTimeInterval: .random(in: 0...0.02))  // as long for every writer
///   }
/// }
/// ```
///
/// With `commit: false` the check waits with the change and is made by `commit()`, for the
/// whole batch: one conflict, and nothing of the batch is written. A new item has nothing to
/// conflict with and is saved as by `save`. In a batch that already changes the item, the
/// first change is the one that was made from what was read, and a later conditional save of
/// it adds no check. An occurrence of a repeating event is checked against its series.
extension EKEventStore {
  /// Saves an event, as `save(_:span:commit:)` does, only if nobody changed or removed it in
  /// the database since this object read it; else throws ``SaveConflictError`` and writes
  /// nothing.
  ///
  /// An OpenEventKit addition. See <doc:SavingAndBatching>.
  ///
  /// - Parameters:
  ///   - event: The event to save, new or fetched from this store.
  ///   - span: For an occurrence of a repeating event, `.thisEvent` for it alone or `.futureEvents`
  ///     for it and those after it; the check is made against its series.
  ///   - commit: Whether to commit at once (the default); false stages the change and its check for
  ///     ``commit()``.
  /// - Throws: ``SaveConflictError`` when the event was changed or removed since it was read (at
  ///   once, or at ``commit()`` with `commit: false`); otherwise what ``save(_:span:commit:)``
  ///   throws, ``EKError`` with the same codes.
  ///
  /// ```swift
  /// do {
  ///   try store.saveIfUnchanged(event, span: .thisEvent)
  /// } catch let conflict as SaveConflictError {
  ///   print(conflict.localizedDescription)
  /// }
  /// ```
  public func saveIfUnchanged(_ event: EKEvent, span: EKSpan, commit: Bool = true) throws {
    try whileRequiringUnchanged(event) {
      try saveEvent(event, span: span, commit: commit, checked: true)
    }
  }

  /// Saves a reminder, as `save(_:commit:)` does, only if nobody changed or removed it in the
  /// database since this object read it; else throws ``SaveConflictError`` and writes nothing.
  ///
  /// An OpenEventKit addition. See <doc:SavingAndBatching>.
  ///
  /// - Parameters:
  ///   - reminder: The reminder to save, new or fetched from this store.
  ///   - commit: Whether to commit at once (the default); false stages the change and its check for
  ///     ``commit()``.
  /// - Throws: ``SaveConflictError`` when the reminder was changed or removed since it was read (at
  ///   once, or at ``commit()`` with `commit: false`); otherwise what ``save(_:commit:)`` throws,
  ///   ``EKError`` with the same codes.
  ///
  /// ```swift
  /// reminder.isCompleted = true
  /// do {
  ///   try store.saveIfUnchanged(reminder)
  /// } catch is SaveConflictError {
  ///   reminder.rollback()  // someone changed it since: read it again, check it off again
  ///   guard reminder.refresh() else { return }  // removed meanwhile: nothing to check off
  ///   reminder.isCompleted = true
  ///   try store.saveIfUnchanged(reminder)  // a second conflict is the caller's to tell
  /// }
  /// ```
  public func saveIfUnchanged(_ reminder: EKReminder, commit: Bool = true) throws {
    try whileRequiringUnchanged(reminder) { try saveReminder(reminder, commit: commit) }
  }

  /// Runs a save with the item's row as read made a condition of the batch; a save that
  /// fails takes its condition with it.
  private func whileRequiringUnchanged(_ item: EKCalendarItem, save: () throws -> Void) throws {
    writeLock.lock()
    defer { writeLock.unlock() }
    guard item.saved != nil, let expected = item.record, item.eventStore === self else {
      return try save()
    }
    let added = state.withLock { $0.staged.require(expected) }
    do {
      try save()
    } catch {
      if added { state.withLock { $0.staged.dropCondition(id: expected.id) } }
      // Refused because the item changed since it was read (an occurrence removed from its
      // series, say): that is a conflict, which the caller reads again and retries.
      if added, error is EKError, case let current = latestRecord(expected.id),
        current != expected
      {
        throw SaveConflictError(
          calendarItemIdentifier: item.calendarItemIdentifier, title: expected.title,
          wasRemoved: current == nil)
      }
      throw error
    }
  }
}
