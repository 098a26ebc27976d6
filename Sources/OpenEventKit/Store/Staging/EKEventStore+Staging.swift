import Foundation
import GRDB

// Saving and removing: each call checks the object, then stages the change; with
// `commit: true` (or the forms without `commit:`) it also commits everything staged, in one
// transaction.
extension EKEventStore {
  // MARK: Events

  /// `checked`: for `saveIfUnchanged`, which must not write over another object's edit.
  func saveEvent(_ event: EKEvent, span: EKSpan, commit: Bool, checked: Bool = false) throws {
    try checkOwnership(event)
    try checkCanWrite(.event, newItem: event.saved == nil)
    let values = event.snapshot
    try ItemValidation.check(
      values, kind: .event, calendars: { self.calendarRecord(withIdentifier: $0) })
    try ItemValidation.checkEvent(values)
    if let context = occurrenceContext(of: event) {
      // The series' object (as `event(withIdentifier:)` gives it) stands for its first
      // occurrence as the series has it; another object detached that occurrence (moved or
      // changed it on its own): a `.thisEvent` save would write over that edit, which a
      // checked save must not, nor ask for again and again.
      if checked, span == .thisEvent, context.readFromSeries, context.detached != nil {
        throw EKError(
          .invalidSpan,
          "This occurrence of \"\(event.title ?? "")\" was changed on its own since: fetch it "
            + "by its own identifier or with a predicate, or save the series with .futureEvents.")
      }
      // A span save: a detach, a change of the whole series or a split (Store/Staging/SpanEdit).
      guard
        let edit = try SpanEdit.save(
          values, saved: event.saved, context: context, span: span, rows: self)
      else { return }
      try withStaging(commit: commit) { edit.changes.stage(into: &$0) }
      didSave(
        event, identity: edit.identity, record: edit.record, values: edit.values, commit: commit,
        occurrenceStart: edit.occurrenceStart)
    } else {
      // An occurrence of a series removed since it was fetched: there is no series for it to
      // be an occurrence of, and putting the object back would make a new series of its rule
      // from this occurrence on. Refused, as a change to an occurrence cut off is.
      if span == .thisEvent, seriesRemoved(of: event) { throw OccurrenceContext.noLongerThere }
      try stage(event, values: values, commit: commit)
    }
  }

  /// Whether `event` was read from a series (or a detached occurrence of one) that the store
  /// no longer has.
  private func seriesRemoved(of event: EKEvent) -> Bool {
    guard event.saved != nil, let row = event.storedRecord?.record,
      let seriesId = row.seriesId ?? (row.isSeries ? row.id : nil)
    else { return false }
    return latestRecord(seriesId) == nil
  }

  func removeEvent(_ event: EKEvent, span: EKSpan, commit: Bool) throws {
    try checkOwnership(event)
    try checkCanWrite(.event)
    try checkWritable(event)
    if let context = occurrenceContext(of: event) {
      // From before every occurrence, "this and future" is the whole series, moved or not.
      let first = context.series.firstOccurrenceKey
      if span == .thisEvent || first.map({ context.key >= $0 }) ?? false {
        try context.checkNotMovedAway()
      }
      let changes = SpanEdit.remove(context, span: span, rows: self)
      try withStaging(commit: commit) { changes.stage(into: &$0) }
    } else {
      try unstage(event, commit: commit)
    }
  }

  /// The occurrence of a saved series `event` stands for; nil for a new or single event, or
  /// an occurrence of a series deleted meanwhile.
  private func occurrenceContext(of event: EKEvent) -> OccurrenceContext? {
    guard event.saved != nil, let row = event.storedRecord?.record else { return nil }
    return OccurrenceContext(row: row, start: event.occurrenceStart ?? event.startDate, rows: self)
  }

  // MARK: Reminders

  func saveReminder(_ reminder: EKReminder, commit: Bool) throws {
    try checkOwnership(reminder)
    try checkCanWrite(.reminder)
    let values = reminder.snapshot
    try ItemValidation.check(
      values, kind: .reminder, calendars: { self.calendarRecord(withIdentifier: $0) })
    try ItemValidation.checkReminder(values)
    try stage(reminder, values: values, commit: commit)
  }

  func removeReminder(_ reminder: EKReminder, commit: Bool) throws {
    try checkOwnership(reminder)
    try checkCanWrite(.reminder)
    try checkWritable(reminder)
    try unstage(reminder, commit: commit)
  }

  // MARK: Calendars

  func storeCalendar(_ calendar: EKCalendar, commit: Bool) throws {
    if let openError { throw openError }
    guard calendar.eventStore === self else { throw differentStore("calendar") }
    try checkCanWrite(calendar.record.entityMask.contains(.event) ? .event : .reminder)
    var record = calendar.record
    let source = catalog().sources.first { $0.id == record.sourceId }
    try ItemValidation.checkCalendar(record, saved: calendar.saved, source: source)
    if calendar.saved == nil, let source {
      record.type = EKCalendarType(madeIn: source.type)
      record.position = (calendarRecords().map(\.position).max() ?? 0) + 1
    }
    let isNew = calendar.saved == nil
    try withStaging(commit: commit) { $0.save(record, isNew: isNew) }
    if !commit { stagedObjects.note(calendar) }
    calendar.record = record
    calendar.saved = record
  }

  /// Removes a calendar with every item in it.
  func deleteCalendar(_ calendar: EKCalendar, commit: Bool) throws {
    guard calendar.eventStore === self else { throw differentStore("calendar") }
    try checkCanWrite(calendar.record.entityMask.contains(.event) ? .event : .reminder)
    guard let saved = calendar.saved, calendarRecord(withIdentifier: saved.id) != nil else {
      throw EKError(.noCalendar, "The calendar \"\(calendar.title)\" is not in the store.")
    }
    if saved.isImmutable {
      throw EKError(.calendarIsImmutable, "The calendar \"\(saved.title)\" cannot be removed.")
    }
    let source = catalog().sources.first { $0.id == saved.sourceId }
    if let source, !source.allowsCalendarAddDelete {
      throw EKError(
        .sourceDoesNotAllowCalendarAddDelete,
        "The source \"\(source.title)\" does not allow removing calendars.")
    }
    try withStaging(commit: commit) { $0.removeCalendar(id: saved.id) }
  }

  // MARK: Commit and reset

  /// Writes every staged change in one transaction: all of them, or (on error) none.
  func commitStaged() throws {
    writeLock.lock()
    defer { writeLock.unlock() }
    let staged = state.withLock { $0.staged }
    guard !staged.isEmpty else { return }
    guard let database else { throw openError ?? EKError(.internalFailure, "no database") }
    try checkStagedAccess(staged)
    do {
      // A batch of many items is a large write (see CalendarDatabase.write(large:)).
      var bounds = database.committedBounds()
      try database.write(large: staged.operations.count >= 100) { db in
        try StagedWriter.write(staged, to: db, bounds: &bounds)
      }
      // Reached only once the write has committed.
      database.keep(bounds)
    } catch let error as EKError {
      throw error
    } catch let error as SaveConflictError {
      throw error
    } catch {
      throw StagedWriter.translate(error)
    }
    // The calendars kept in memory are read again only when the commit changed some: a
    // commit of items leaves them as they were (other processes' changes drop them when the
    // watcher sees them).
    let changedCalendars = staged.operations.contains {
      switch $0 {
      case .saveCalendar, .removeCalendar: true
      case .saveItem, .removeItem: false
      }
    }
    state.withLock {
      $0.staged = StagedChanges()
      if changedCalendars { $0.catalog = nil }
    }
    stagedObjects.forget()
  }

  /// Drops every staged change. Objects fetched before keep their values; fetch again to see
  /// the store as it is.
  func dropStaged() {
    writeLock.lock()
    defer { writeLock.unlock() }
    state.withLock {
      $0.staged = StagedChanges()
      $0.catalog = nil
    }
    stagedObjects.restore()
  }

  // MARK: Staging

  /// Checks again, at commit, that the app still has the access each staged change needed
  /// (it may have been withdrawn since the change was staged).
  private func checkStagedAccess(_ staged: StagedChanges) throws(EKError) {
    for operation in staged.operations {
      switch operation {
      case .saveItem(let id, let isNew):
        guard let row = staged.record(id) else { continue }
        try checkCanWrite(row.kind, newItem: isNew)
      case .removeItem, .saveCalendar, .removeCalendar:
        if !canRead(.event) && !canRead(.reminder) { try checkCanWrite(.event) }
      }
    }
  }

  /// Refuses objects of another store, and any change when the database could not be opened
  /// (with the reason it could not).
  private func checkOwnership(_ item: EKCalendarItem) throws(EKError) {
    if let openError { throw openError }
    guard item.eventStore === self else {
      throw differentStore(item.kind == .event ? "event" : "reminder")
    }
  }

  private func differentStore(_ noun: String) -> EKError {
    EKError(.objectBelongsToDifferentStore, "The \(noun) belongs to another EKEventStore.")
  }

  /// Stages an item's values (committing when asked) and marks them saved on the object.
  private func stage(_ item: EKCalendarItem, values: ItemValues, commit: Bool) throws {
    let now = Date().wholeSeconds
    var identity = item.identity
    if item.saved == nil { identity.createdAt = now }
    identity.modifiedAt = now
    let record = ItemRecord(
      kind: item.kind, identity: identity, values: values, previous: item.record)
    try ItemValidation.checkRecurrence(record, values: values)
    let isNew = item.saved == nil
    try withStaging(commit: commit) { $0.save(record, isNew: isNew) }
    didSave(item, identity: identity, record: record, values: record.values(), commit: commit)
  }

  /// Refuses to remove an item from a read-only calendar.
  private func checkWritable(_ item: EKCalendarItem) throws(EKError) {
    if let calendar = calendarRecord(withIdentifier: item.record?.calendarId ?? ""),
      !calendar.allowsContentModifications
    {
      throw EKError(.calendarReadOnly, "The calendar \"\(calendar.title)\" is read-only.")
    }
  }

  /// Stages the removal of a saved item. A new one has nothing to remove: EventKit answers
  /// that with a failure, and so does this.
  private func unstage(_ item: EKCalendarItem, commit: Bool) throws {
    guard item.saved != nil else {
      throw EKError(.internalFailure, "The item was never saved, so there is nothing to remove.")
    }
    let id = item.identity.id
    try withStaging(commit: commit) { $0.removeItem(id: id) }
  }

  /// Marks an object saved with the row that now stands for it and the values that row shows
  /// (for an event, from `occurrenceStart`, its start unless given). A save not yet committed
  /// is remembered, so that `reset()` can undo it on the object.
  func didSave(
    _ item: EKCalendarItem, identity: ItemIdentity, record: ItemRecord, values: ItemValues,
    commit: Bool, occurrenceStart: Date? = nil
  ) {
    if !commit { stagedObjects.note(item) }
    item.identity = identity
    item.record = record
    item.adopt(values)
    item.saved = values
    (item as? EKEvent)?.occurrenceStart = occurrenceStart ?? values.startDate
  }

  /// Applies a change to the staged set, then commits when asked. When the commit fails the
  /// staged set goes back to what it was, so the failed change leaves no trace. (Only then is
  /// the staged set copied: a batch of saves with `commit: false` grows it in place.)
  func withStaging(commit: Bool, _ change: (inout StagedChanges) -> Void) throws {
    writeLock.lock()
    defer { writeLock.unlock() }
    guard commit else {
      state.withLock { change(&$0.staged) }
      return
    }
    let before = state.withLock { staging in
      let before = staging.staged
      change(&staging.staged)
      return before
    }
    do {
      try commitStaged()
    } catch {
      state.withLock { $0.staged = before }
      throw error
    }
  }
}
