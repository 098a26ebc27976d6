import Foundation
import GRDB
import ICalendar

// Saving and removing one occurrence of a repeating event, with EventKit's spans:
//
// - `.thisEvent` detaches the occurrence (a row of its own with RECURRENCE-ID) or, on removal,
//   excludes its instance (EXDATE).
// - `.futureEvents` from the first occurrence changes or removes the whole series; from a
//   later one it splits the series: the original ends just before, and (on save) a new series
//   carries the change from this occurrence on, with the removed and detached instances after
//   the split.
//
// A detached occurrence saved or removed with `.futureEvents` stands for its original instance
// (RFC 5545's RANGE=THISANDFUTURE, §3.2.13): the split happens there, and the detached row is
// replaced by the new series' instance. docs/RecurringEvents.md explains each rule.
extension EKEventStore {
  /// An occurrence of a saved series, as a span edit needs to know it.
  struct OccurrenceContext {
    /// The series as it is now (this store's staged changes included).
    var series: ItemRecord
    /// The detached row this occurrence is, if it is one.
    var detached: ItemRecord?
    /// The instance's original start: as a Date, as DTSTART writes it, and as a key.
    var originalStart: Date
    var original: DateTimeValue
    var key: Int
  }

  /// The occurrence `event` stands for, or nil when it is no occurrence of a saved series (a
  /// new event, a single event, a series deleted meanwhile).
  func occurrenceContext(of event: EKEvent) -> OccurrenceContext? {
    guard event.saved != nil, let row = event.storedRecord?.record else { return nil }
    let seriesId: String
    var detached: ItemRecord?
    if let parent = row.seriesId {
      seriesId = parent
      detached = latestRecord(row.id)
    } else if row.isSeries {
      seriesId = row.id
    } else {
      return nil
    }
    guard let series = latestRecord(seriesId), series.isSeries else { return nil }
    let originalStart =
      detached?.originalStart ?? row.originalStart ?? event.occurrenceStart ?? event.startDate
    guard let originalStart else { return nil }
    let original = series.recurrenceValue(of: originalStart)
    guard let key = series.instanceKey(original) else { return nil }
    // The object may be older than the series: the instance may have been detached (or its
    // detached row removed) through another object since.
    if detached == nil {
      detached = detachedRecords(of: seriesId).first {
        DateTimeLines.values($0.recurrenceId).first == original
      }
    }
    return OccurrenceContext(
      series: series, detached: detached, originalStart: originalStart, original: original,
      key: key)
  }

  /// Refuses to act on an instance that is no longer an occurrence of its series (removed,
  /// or cut off, since the object was fetched).
  private func checkStillThere(_ context: OccurrenceContext) throws(EKError) {
    guard context.detached == nil else { return }
    let exists =
      (try? context.series.recurrenceSet()?.occurrences(from: context.key, to: context.key + 1))??
      .contains { $0.secondsSinceEpoch == context.key } ?? false
    guard exists else {
      throw EKError(
        .internalFailure,
        "This occurrence is no longer part of its series (it was removed since it was fetched).")
    }
  }

  /// The row with this identifier as this store sees it (staged changes included).
  func latestRecord(_ id: String) -> ItemRecord? {
    itemRecord({ db in try ItemRows.item(db, id: id) }, staged: { $0.id == id })
  }

  /// The detached occurrences of a series, as this store sees them.
  func detachedRecords(of seriesId: String) -> [ItemRecord] {
    let staged = state.withLock { $0.staged }
    let stored =
      read { db in try ItemRows.detached(db, seriesId: seriesId) } ?? []
    return stored.filter { staged.items[$0.id] == nil }
      + staged.presentItems.map(\.record).filter { $0.seriesId == seriesId }
  }

  // MARK: Saving

  /// Saves an occurrence of a series with a span.
  func saveOccurrence(
    _ event: EKEvent, values: ItemValues, context: OccurrenceContext, span: EKSpan, commit: Bool
  ) throws {
    try checkStillThere(context)
    // Nothing changed: nothing to detach or split.
    if let saved = event.saved, saved == values { return }
    let rulesChanged = values.rules != (event.saved?.rules ?? values.rules)
    switch span {
    case .thisEvent:
      if rulesChanged {
        throw EKError(
          .invalidSpan,
          "Recurrence rules change the whole series: save with .futureEvents to change them.")
      }
      try detach(event, values: values, context: context, commit: commit)
    case .futureEvents:
      if let first = context.series.firstOccurrenceKey, context.key <= first {
        try saveWholeSeries(event, values: values, context: context, commit: commit)
      } else {
        try split(
          event, values: values, context: context, rulesChanged: rulesChanged, commit: commit)
      }
    }
  }

  /// `.thisEvent`: the occurrence becomes (or stays) a detached row of its series.
  private func detach(
    _ event: EKEvent, values: ItemValues, context: OccurrenceContext, commit: Bool
  ) throws {
    let series = context.series
    let now = Date().wholeSeconds
    var identity =
      context.detached?.identity
      ?? ItemIdentity(
        id: Identifier.make(), uid: series.identity.uid, createdAt: now, modifiedAt: now)
    identity.modifiedAt = now
    var single = values
    single.rules = []
    var detached = ItemRecord(
      kind: .event, identity: identity, values: single, previous: context.detached ?? series)
    // A first detach starts from the series' row for what the API does not edit (iCalendar
    // properties kept for export); the date lists belong to the series alone.
    if context.detached == nil {
      detached.recurrenceDates = nil
      detached.exceptionDates = nil
      detached.detachedDates = nil
      detached.sequence = series.sequence
    }
    detached.seriesId = series.id
    detached.recurrenceId = DateTimeLines.text([context.original])
    detached.calendarId = series.calendarId

    // The occurrence may move anywhere but onto another occurrence of its series.
    if let start = values.startDate,
      let newKey = series.instanceKey(series.recurrenceValue(of: start)), newKey != context.key
    {
      let others = detachedRecords(of: series.id).filter { $0.id != identity.id }
      let takenByInstance =
        (try? series.recurrenceSet()?.occurrences(from: newKey, to: newKey + 1))??
        .contains { $0.secondsSinceEpoch == newKey } ?? false
      let takenByDetached = others.contains { $0.startKey == detached.startKey }
      if takenByInstance || takenByDetached {
        throw EKError(
          .startDateCollidesWithOtherOccurrence,
          "The occurrence would start at \(start), where another occurrence of the series starts.")
      }
    }

    var updated = series.touched()
    updated.detachedDates = ItemRecord.adding(context.original, to: series.detachedDates)
    let isNew = context.detached == nil
    try withStaging(commit: commit) { staged in
      staged.save(updated, isNew: false)
      staged.save(detached, isNew: isNew)
    }
    didSave(
      event, identity: identity, record: detached, values: detached.values(), commit: commit,
      occurrenceStart: context.originalStart)
  }

  /// `.futureEvents` from the first occurrence: the whole series changes. The change is the
  /// occurrence's: its start moved by some amount moves the series' start by as much, and the
  /// removed and detached instances move with it; those no longer produced by the new rules
  /// are dropped.
  private func saveWholeSeries(
    _ event: EKEvent, values: ItemValues, context: OccurrenceContext, commit: Bool
  ) throws {
    let series = context.series
    let seriesStart = series.values().startDate ?? context.originalStart
    let move = (values.startDate ?? context.originalStart).timeIntervalSince(context.originalStart)
    var seriesValues = values
    if context.detached != nil {
      // A detached row has no rules of its own: the series keeps its rules.
      seriesValues.rules = series.values().rules
    }
    seriesValues.startDate = seriesStart.addingTimeInterval(move)
    seriesValues.endDate = seriesValues.startDate?.addingTimeInterval(
      (values.endDate ?? values.startDate ?? seriesStart).timeIntervalSince(
        values.startDate ?? seriesStart))
    var identity = series.identity
    identity.modifiedAt = Date().wholeSeconds
    var updated = ItemRecord(
      kind: .event, identity: identity, values: seriesValues, previous: series)
    try ItemValidation.checkRecurrence(updated, values: seriesValues)

    let shift = SeriesShift(
      from: series, to: updated, originalStart: seriesStart,
      newStart: seriesValues.startDate ?? seriesStart)
    let produced = updated.instances()
    func carried(_ lines: String?) -> [DateTimeValue] {
      DateTimeLines.values(lines).map(shift.shifted).filter { value in
        updated.instanceKey(value).map(produced.contains) ?? false
      }
    }
    updated.exceptionDates = DateTimeLines.text(carried(series.exceptionDates))
    let carriedDetached = carried(series.detachedDates)
    updated.detachedDates = DateTimeLines.text(carriedDetached)
    let keptDetached = Set(carriedDetached)
    updated.seriesEndKey = updated.lastPossibleEnd()

    var saves: [ItemRecord] = []
    var removals: [String] = []
    if let consumed = context.detached {
      // A detached first occurrence saved for the future is the series' start again.
      removals.append(consumed.id)
      updated.detachedDates = ItemRecord.removing(
        shift.shifted(context.original), from: updated.detachedDates)
    }
    for var row in detachedRecords(of: series.id) where row.id != context.detached?.id {
      guard let recurrence = DateTimeLines.values(row.recurrenceId).first else { continue }
      let moved = shift.shifted(recurrence)
      if keptDetached.contains(moved) {
        row.recurrenceId = DateTimeLines.text([moved])
        row.calendarId = updated.calendarId
        saves.append(row)
      } else {
        removals.append(row.id)
      }
    }
    let finalSeries = updated
    try withStaging(commit: commit) { staged in
      staged.save(finalSeries, isNew: false)
      for row in saves { staged.save(row, isNew: false) }
      for id in removals { staged.removeItem(id: id) }
    }
    let occurrence = occurrenceValues(
      of: finalSeries, originalStart: context.originalStart.addingTimeInterval(move))
    didSave(
      event, identity: identity, record: finalSeries,
      values: occurrence ?? finalSeries.values(), commit: commit)
  }

  /// `.futureEvents` from a later occurrence: the series ends before it, and a new series
  /// starts with it.
  private func split(
    _ event: EKEvent, values: ItemValues, context: OccurrenceContext, rulesChanged: Bool,
    commit: Bool
  ) throws {
    let series = context.series
    guard let cut = series.truncated(before: context.key) else {
      return try saveWholeSeries(event, values: values, context: context, commit: commit)
    }
    var newValues = values
    if !rulesChanged || context.detached != nil {
      // The same rules from here on: a COUNT keeps only what remained of it.
      let seriesRules = series.values().rules
      newValues.rules = seriesRules.compactMap { rule in
        var rule = rule
        if case .count(let count) = rule.end {
          var full = rule.rule
          full.end = .count(count)
          let remaining = count - series.instancesBefore(context.key, rule: full)
          guard remaining > 0 else { return nil }
          rule.end = .count(remaining)
        }
        return rule
      }
    }
    let identity = ItemIdentity.new(kind: .event)
    var newSeries = ItemRecord(
      kind: .event, identity: identity, values: newValues, previous: series)
    // A new event: its own UID, a new SEQUENCE, no detached parent.
    newSeries.sequence = 0
    newSeries.seriesId = nil
    newSeries.recurrenceId = nil
    try ItemValidation.checkRecurrence(newSeries, values: newValues)
    let shift = SeriesShift(
      from: series, to: newSeries, originalStart: context.originalStart,
      newStart: values.startDate ?? context.originalStart)
    let produced = newSeries
    let instances = produced.instances()
    func carried(_ lines: String?) -> [DateTimeValue] {
      series.keeping(lines) { $0 >= context.key }.filter { $0 != context.original }
        .map(shift.shifted)
        .filter { value in produced.instanceKey(value).map(instances.contains) ?? false }
    }
    if newSeries.isSeries {
      newSeries.recurrenceDates = DateTimeLines.text(carried(series.recurrenceDates))
      newSeries.exceptionDates = DateTimeLines.text(carried(series.exceptionDates))
      newSeries.detachedDates = DateTimeLines.text(carried(series.detachedDates))
      newSeries.seriesEndKey = newSeries.lastPossibleEnd()
    }

    var saves: [ItemRecord] = []
    var removals: [String] = []
    let keptDetached = Set(DateTimeLines.values(newSeries.detachedDates))
    for var row in detachedRecords(of: series.id) {
      guard let recurrence = DateTimeLines.values(row.recurrenceId).first,
        let key = series.instanceKey(recurrence), key >= context.key
      else { continue }
      let moved = shift.shifted(recurrence)
      if row.id == context.detached?.id || !newSeries.isSeries || !keptDetached.contains(moved) {
        removals.append(row.id)
        continue
      }
      row = row.touched()
      row.seriesId = newSeries.id
      row.recurrenceId = DateTimeLines.text([moved])
      row.uid = newSeries.uid ?? newSeries.id
      row.calendarId = newSeries.calendarId
      saves.append(row)
    }
    let finalSeries = newSeries
    let shortened = cut.touched()
    try withStaging(commit: commit) { staged in
      staged.save(shortened, isNew: false)
      staged.save(finalSeries, isNew: true)
      for row in saves { staged.save(row, isNew: false) }
      for id in removals { staged.removeItem(id: id) }
    }
    didSave(
      event, identity: identity, record: finalSeries, values: finalSeries.values(),
      commit: commit)
  }

  // MARK: Removing

  /// Removes an occurrence of a series with a span.
  func removeOccurrence(_ context: OccurrenceContext, span: EKSpan, commit: Bool) throws {
    let series = context.series
    let detached = detachedRecords(of: series.id)
    let first = series.firstOccurrenceKey
    if span == .futureEvents, first.map({ context.key <= $0 }) ?? true {
      try removeSeries(series, detached: detached, commit: commit)
      return
    }
    var updated: ItemRecord?
    var removals: [String] = []
    switch span {
    case .thisEvent:
      var excluded = series.touched()
      excluded.exceptionDates = ItemRecord.adding(context.original, to: series.exceptionDates)
      if let row = context.detached {
        excluded.detachedDates = ItemRecord.removing(context.original, from: series.detachedDates)
        removals.append(row.id)
      }
      excluded.seriesEndKey = excluded.lastPossibleEnd()
      updated = excluded.firstOccurrenceKey == nil && excluded.detachedDates == nil ? nil : excluded
    case .futureEvents:
      updated = series.truncated(before: context.key)?.touched()
      for row in detached {
        guard let recurrence = DateTimeLines.values(row.recurrenceId).first,
          let key = series.instanceKey(recurrence), key >= context.key
        else { continue }
        removals.append(row.id)
      }
    }
    guard let updated else {
      try removeSeries(series, detached: detached, commit: commit)
      return
    }
    try withStaging(commit: commit) { staged in
      staged.save(updated, isNew: false)
      for id in removals { staged.removeItem(id: id) }
    }
  }

  /// Removes a series with its detached occurrences.
  private func removeSeries(_ series: ItemRecord, detached: [ItemRecord], commit: Bool) throws {
    try withStaging(commit: commit) { staged in
      for row in detached { staged.removeItem(id: row.id) }
      staged.removeItem(id: series.id)
    }
  }
}
