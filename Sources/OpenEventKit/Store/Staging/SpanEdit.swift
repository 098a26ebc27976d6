import Foundation
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
// replaced by the new series' instance. <doc:RecurringEvents> explains each rule.

/// The rows a span edit reads: the database with the editing store's staged changes laid
/// over it.
protocol StoreRows {
  /// The row with this identifier; nil when it is gone.
  func latestRecord(_ id: String) -> ItemRecord?
  /// The detached occurrences of a series.
  func detachedRecords(of seriesId: String) -> [ItemRecord]
}

/// The rows one edit saves and removes, staged together so that they commit in one
/// transaction: saves first, in order (a series before the rows that name it), then removals.
struct RowChanges {
  private(set) var saves: [(record: ItemRecord, isNew: Bool, touch: SeriesTouch?)] = []
  private(set) var removals: [String] = []

  mutating func save(_ record: ItemRecord, isNew: Bool) { saves.append((record, isNew, nil)) }
  /// Saves a series' row whose change is only `touch` (``SeriesTouch``): `record` is the
  /// touch applied to the row as read, and the write applies it to the row as it is then.
  mutating func touch(_ record: ItemRecord, _ touch: SeriesTouch) {
    saves.append((record, false, touch))
  }
  mutating func remove(_ id: String) { removals.append(id) }

  func stage(into staged: inout StagedChanges) {
    for (record, isNew, touch) in saves { staged.save(record, isNew: isNew, touch: touch) }
    for id in removals { staged.removeItem(id: id) }
  }
}

/// A span save: the rows it changes, and what the saved object stands for afterwards.
struct SpanSave {
  var changes: RowChanges
  var identity: ItemIdentity
  var record: ItemRecord
  var values: ItemValues
  /// The original start of the occurrence the object stands for; nil for its start.
  var occurrenceStart: Date?
}

/// An occurrence of a saved series, as a span edit needs to know it.
struct OccurrenceContext {
  /// The series as it is now (the store's staged changes included).
  var series: ItemRecord
  /// The detached row this occurrence is, if it is one.
  var detached: ItemRecord?
  /// Whether the object was read from the series' own row (as `event(withIdentifier:)`
  /// gives a series, at its first instance) rather than from the detached row: then a
  /// detached row of that instance, made through another object, is another's edit.
  var readFromSeries = false
  /// The instance's original start: as a Date, as DTSTART writes it, and as a key.
  var originalStart: Date
  var original: DateTimeValue
  var key: Int

  /// The occurrence an object read from `row` stands for, or nil when it is no occurrence of
  /// a saved series (a single event, a series deleted meanwhile). `start` is the object's
  /// original start as it knows it, for an occurrence of a series' own row.
  init?(row: ItemRecord, start: Date?, rows: some StoreRows) {
    let seriesId: String
    var detached: ItemRecord?
    if let parent = row.seriesId {
      seriesId = parent
      detached = rows.latestRecord(row.id)
    } else if row.isSeries {
      seriesId = row.id
    } else {
      return nil
    }
    guard let series = rows.latestRecord(seriesId), series.isSeries else { return nil }
    guard let originalStart = detached?.originalStart ?? row.originalStart ?? start else {
      return nil
    }
    let original = series.recurrenceValue(of: originalStart)
    guard let key = series.instanceKey(original) else { return nil }
    // The object may be older than the series: the instance may have been detached (or its
    // detached row removed) through another object since.
    if detached == nil {
      detached = rows.detachedRecords(of: seriesId).first {
        DateTimeLines.values($0.recurrenceId).first == original
      }
    }
    self.init(
      series: series, detached: detached, originalStart: originalStart, original: original,
      key: key)
    readFromSeries = row.seriesId == nil
  }

  init(
    series: ItemRecord, detached: ItemRecord?, originalStart: Date, original: DateTimeValue,
    key: Int
  ) {
    self.series = series
    self.detached = detached
    self.originalStart = originalStart
    self.original = original
    self.key = key
  }

  /// Refuses to act on an instance that is no longer an occurrence of its series (removed,
  /// or cut off, since the object was fetched).
  func checkStillThere() throws(EKError) {
    guard detached == nil else { return }
    let exists =
      (try? series.recurrenceSet()?.occurrences(from: key, to: key + 1))??
      .contains { $0.secondsSinceEpoch == key } ?? false
    guard exists else { throw Self.noLongerThere }
  }

  /// Refuses a removal through an object read before another store moved or changed the
  /// whole series: its instance is none of the series' any more, while the series goes on
  /// after it, so `.futureEvents` would cut between two occurrences (not from the one asked)
  /// and `.thisEvent` would remove nothing, without a word. An instance removed or cut off
  /// since is not refused: removing it again changes nothing.
  func checkNotMovedAway() throws(EKError) {
    guard detached == nil, series.movedAway(from: key) else { return }
    throw Self.movedAway
  }

  /// The refusal of a change through an object read before another store moved or changed
  /// the whole series (``ItemRecord/movedAway(from:)``).
  static let movedAway = EKError(
    .internalFailure,
    "This occurrence is no longer part of its series (the series was changed since it was "
      + "fetched): fetch it again.")

  /// The refusal of a change to an occurrence that is no longer one: removed, cut off, or its
  /// series removed, since the object was fetched.
  static let noLongerThere = EKError(
    .internalFailure,
    "This occurrence is no longer part of its series (it was removed since it was fetched).")
}

/// The row-level edits of a save or removal of one occurrence with a span.
enum SpanEdit {
  /// Saves an occurrence of a series with a span: the rows to stage, or nil when nothing
  /// changed (nothing to detach or split). `saved` are the values the object was read with.
  static func save(
    _ values: ItemValues, saved: ItemValues?, context: OccurrenceContext, span: EKSpan,
    rows: some StoreRows
  ) throws -> SpanSave? {
    // "This and future" from an instance before every one left (the series' first, removed
    // since the object was read) is the whole series, as from the master event.
    let beforeAll = context.series.firstOccurrenceKey.map { context.key < $0 } ?? false
    if !(span == .futureEvents && context.detached == nil && beforeAll) {
      try context.checkStillThere()
    }
    if let saved, saved == values { return nil }
    let rulesChanged = values.rules != (saved?.rules ?? values.rules)
    switch span {
    case .thisEvent:
      if rulesChanged {
        throw EKError(
          .invalidSpan,
          "Recurrence rules change the whole series: save with .futureEvents to change them.")
      }
      // A detached occurrence lives in its series' calendar: moved alone it stayed there,
      // saved without a word. The series moves, or the part of it from this one on.
      if let saved, values.calendarId != saved.calendarId {
        throw EKError(
          .invalidSpan,
          "An occurrence moves to another calendar with its series: save with .futureEvents "
            + "to move it and the later ones.")
      }
      return try detach(values, context: context, rows: rows)
    case .futureEvents:
      if let first = context.series.firstOccurrenceKey, context.key <= first {
        return try saveWholeSeries(values, context: context, rows: rows)
      }
      return try split(values, context: context, rulesChanged: rulesChanged, rows: rows)
    }
  }

  /// `.thisEvent`: the occurrence becomes (or stays) a detached row of its series.
  static func detach(
    _ values: ItemValues, context: OccurrenceContext, rows: some StoreRows
  ) throws -> SpanSave {
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
      let others = rows.detachedRecords(of: series.id).filter { $0.id != identity.id }
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

    // The series' part is a touch: written to its row as the commit finds it, so that another
    // app's change to the series made meanwhile is kept.
    let touch = SeriesTouch(detached: [context.original])
    var changes = RowChanges()
    changes.touch(touch.applied(to: series), touch)
    changes.save(detached, isNew: context.detached == nil)
    return SpanSave(
      changes: changes, identity: identity, record: detached, values: detached.values(),
      occurrenceStart: context.originalStart)
  }

  /// `.futureEvents` from the first occurrence: the whole series changes. The change is the
  /// occurrence's: its start moved by some amount moves the series' start by as much, and the
  /// removed and detached instances move with it; those no longer produced by the new rules
  /// are dropped.
  static func saveWholeSeries(
    _ values: ItemValues, context: OccurrenceContext, rows: some StoreRows
  ) throws -> SpanSave {
    let series = context.series
    let seriesStart = series.values().startDate ?? context.originalStart
    let move = (values.startDate ?? context.originalStart).timeIntervalSince(context.originalStart)
    var seriesValues = values
    // Saved from the detached first occurrence: it is the series' start again, and the
    // series keeps its rules (a detached row has none). Saved from the series itself, a
    // detached first occurrence (another object's edit) is kept, as later ones are.
    let consumed = context.readFromSeries ? nil : context.detached
    if consumed != nil { seriesValues.rules = series.values().rules }
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
    // Made single (its rules removed), it has no occurrence left to override: its detached
    // occurrences go, the first one too (which its start still produces).
    let carriedDetached = updated.isSeries ? carried(series.detachedDates) : []
    updated.detachedDates = DateTimeLines.text(carriedDetached)
    let keptDetached = Set(carriedDetached)
    updated.seriesEndKey = updated.lastPossibleEnd()

    var kept: [ItemRecord] = []
    var removals: [String] = []
    if let consumed {
      removals.append(consumed.id)
      updated.detachedDates = ItemRecord.removing(
        shift.shifted(context.original), from: updated.detachedDates)
    }
    for var row in rows.detachedRecords(of: series.id) where row.id != consumed?.id {
      guard let recurrence = DateTimeLines.values(row.recurrenceId).first else { continue }
      let moved = shift.shifted(recurrence)
      if keptDetached.contains(moved) {
        let before = row
        row.recurrenceId = DateTimeLines.text([moved])
        row.calendarId = updated.calendarId
        // Written only when it moves: rewriting it as read would undo another app's change
        // to that occurrence made since.
        if row != before { kept.append(row) }
      } else {
        removals.append(row.id)
      }
    }
    var changes = RowChanges()
    changes.save(updated, isNew: false)
    for row in kept { changes.save(row, isNew: false) }
    for id in removals { changes.remove(id) }
    let occurrence = updated.occurrenceValues(
      originalStart: context.originalStart.addingTimeInterval(move))
    return SpanSave(
      changes: changes, identity: identity, record: updated,
      values: occurrence ?? updated.values())
  }

  /// `.futureEvents` from a later occurrence: the series ends before it, and a new series
  /// starts with it.
  static func split(
    _ values: ItemValues, context: OccurrenceContext, rulesChanged: Bool, rows: some StoreRows
  ) throws -> SpanSave {
    let series = context.series
    guard let cut = series.truncated(before: context.key) else {
      return try saveWholeSeries(values, context: context, rows: rows)
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

    var kept: [ItemRecord] = []
    var removals: [String] = []
    let keptDetached = Set(DateTimeLines.values(newSeries.detachedDates))
    for var row in rows.detachedRecords(of: series.id) {
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
      kept.append(row)
    }
    var changes = RowChanges()
    changes.touch(cut.touched(), SeriesTouch(cutBefore: context.key))  // ``SeriesTouch``
    changes.save(newSeries, isNew: true)
    for row in kept { changes.save(row, isNew: false) }
    for id in removals { changes.remove(id) }
    return SpanSave(
      changes: changes, identity: identity, record: newSeries, values: newSeries.values())
  }

  // MARK: Removing

  /// Removes an occurrence of a series with a span.
  static func remove(_ context: OccurrenceContext, span: EKSpan, rows: some StoreRows)
    -> RowChanges
  {
    let series = context.series
    let detached = rows.detachedRecords(of: series.id)
    let first = series.firstOccurrenceKey
    if span == .futureEvents, first.map({ context.key <= $0 }) ?? true {
      return removingSeries(series, detached: detached)
    }
    var updated: ItemRecord?
    var touch: SeriesTouch?
    var removals: [String] = []
    switch span {
    case .thisEvent:
      // A touch of the series, as a detach is (``SeriesTouch``).
      var exclusion = SeriesTouch(excluded: [context.original])
      if let row = context.detached {
        exclusion.undetached = [context.original]
        removals.append(row.id)
      }
      let excluded = exclusion.applied(to: series)
      updated = excluded.firstOccurrenceKey == nil && excluded.detachedDates == nil ? nil : excluded
      touch = exclusion
    case .futureEvents:
      updated = series.truncated(before: context.key)?.touched()
      touch = SeriesTouch(cutBefore: context.key)
      for row in detached {
        guard let recurrence = DateTimeLines.values(row.recurrenceId).first,
          let key = series.instanceKey(recurrence), key >= context.key
        else { continue }
        removals.append(row.id)
      }
    }
    guard let updated else { return removingSeries(series, detached: detached) }
    var changes = RowChanges()
    if let touch { changes.touch(updated, touch) } else { changes.save(updated, isNew: false) }
    for id in removals { changes.remove(id) }
    return changes
  }

  /// Removes a series with its detached occurrences.
  private static func removingSeries(_ series: ItemRecord, detached: [ItemRecord]) -> RowChanges {
    var changes = RowChanges()
    for row in detached { changes.remove(row.id) }
    changes.remove(series.id)
    return changes
  }
}
