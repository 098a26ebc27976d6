import Foundation
import GRDB
import ICalendar

/// Writes the items of one import inside the caller's write transaction: into the calendar of
/// the given title (made when missing), or into one calendar CalDAV sync names, replacing the
/// items that have the same UID there.
///
/// Everything happens in that one transaction, so a failure or a killed process leaves the
/// store as it was (SQLite rolls back what a transaction did not commit).
struct ImportWriter {
  /// Where the items go.
  enum Destination {
    /// The writable calendar (for events) and list (for to-dos) of this title, made in the
    /// Local source when missing: an import.
    case titled(String)
    /// This calendar, for whatever the items are: sync writes each calendar's own.
    case calendar(id: String)
  }

  let destination: Destination
  let progress: ((ICalendarTransferProgress) -> Void)?
  /// The rows the items may replace (``ItemRows/importKeys(_:calendarId:uids:)``), when the
  /// caller read them: else every row of the calendar is read.
  private let known: [Row]?

  // What a write in progress knows: set by `begin`.
  private var summary = ICalendarImportSummary()
  private var existingEvents: ExistingItems?
  private var existingReminders: ExistingItems?
  private var total = 0
  private var done = 0

  init(title: String, progress: ((ICalendarTransferProgress) -> Void)?) {
    destination = .titled(title)
    self.progress = progress
    known = nil
  }

  /// A writer into one calendar; `existing`, when given, holds the rows of every UID the
  /// items have (``ItemRows/importKeys(_:calendarId:uids:)``), so that the rest of the
  /// calendar is not read.
  init(calendarId: String, existing: [Row]? = nil) {
    destination = .calendar(id: calendarId)
    progress = nil
    known = existing
  }

  func write(events: [ImportedItem], reminders: [ImportedItem], to db: Database) throws
    -> ICalendarImportSummary
  {
    try RowWriter.writing(db) { rows in
      try write(events: events, reminders: reminders, to: &rows)
    }
  }

  /// Writes the items: begins and finishes at once.
  func write(events: [ImportedItem], reminders: [ImportedItem], to rows: inout RowWriter)
    throws -> ICalendarImportSummary
  {
    var writer = self
    try writer.begin(
      events: !events.isEmpty, reminders: !reminders.isEmpty,
      total: events.count + reminders.count, rows: &rows)
    return try writer.finish(events: events, reminders: reminders, rows: &rows)
  }

  /// Finds or makes the calendars the items go into (the reminder list first), and reads
  /// which items are there already.
  ///
  /// - Parameters:
  ///   - events: Whether there are events to write.
  ///   - reminders: Whether there are reminders to write.
  ///   - total: How many items there are, for the progress.
  mutating func begin(events: Bool, reminders: Bool, total: Int, rows: inout RowWriter) throws {
    self.total = total
    if reminders {
      let calendarId = try calendar(&rows, entity: .reminder, summary: &summary)
      summary.reminderCalendarIdentifier = calendarId
      existingReminders = try existing(rows.db, calendarId: calendarId)
    }
    if events {
      let calendarId = try calendar(&rows, entity: .event, summary: &summary)
      summary.eventCalendarIdentifier = calendarId
      existingEvents = try existing(rows.db, calendarId: calendarId)
    }
  }

  private func existing(_ db: Database, calendarId: String) throws -> ExistingItems {
    if let known { return ExistingItems(known) }
    return try ExistingItems(ItemRows.importKeys(db, calendarId: calendarId))
  }

  /// Whether an event can be written before the rest of the file is read: a series or single
  /// event whose UID no other VEVENT of the file has (`sharedUIDs`, ``ImportReading``), so
  /// that no later version, override or split can change its row.
  static func standsAlone(_ item: ImportedItem, sharedUIDs: Set<String>) -> Bool {
    item.recurrenceId == nil && item.periodOccurrences.isEmpty && !item.isPeriod
      && item.range == nil && item.reminderOverrideLine == nil
      && !sharedUIDs.contains(item.uid)
  }

  /// Writes an event that ``standsAlone(_:sharedUIDs:)``, after
  /// ``begin(events:reminders:total:rows:)`` with events, as
  /// ``finish(events:reminders:rows:)`` would have.
  mutating func writeAlone(_ item: ImportedItem, rows: inout RowWriter) throws {
    guard var existing = existingEvents, let calendarId = summary.eventCalendarIdentifier else {
      preconditionFailure("an event written before the import's calendar was found")
    }
    existingEvents = nil  // not copied on write
    var item = item
    item.record.calendarId = calendarId
    let updated = existing.adopt(&item)
    existingEvents = existing
    summary.eventsAdded += updated ? 0 : 1
    summary.eventsUpdated += updated ? 1 : 0
    try item.write(to: &rows)
    advance()
  }

  private mutating func advance() {
    done += 1
    if done & 0x3FF == 0 {
      progress?(ICalendarTransferProgress(phase: .writing, done: min(done, total), total: total))
    }
  }

  /// Writes the items not written alone, in file order, after
  /// ``begin(events:reminders:total:rows:)``: the latest version of each, series before the
  /// overrides that refer to them.
  mutating func finish(events: [ImportedItem], reminders: [ImportedItem], rows: inout RowWriter)
    throws -> ICalendarImportSummary
  {
    let db = rows.db
    if !reminders.isEmpty, var existing = existingReminders,
      let calendarId = summary.reminderCalendarIdentifier
    {
      for var item in reminders {
        item.record.calendarId = calendarId
        // An override of a repeating to-do is a reminder of its own (the reader says why),
        // found again by its UID and RECURRENCE-ID line, as an event's override without its
        // series is.
        let updated =
          if let line = item.reminderOverrideLine {
            existing.adoptOrphan(&item, recurrenceIdLine: line)
          } else {
            existing.adopt(&item)
          }
        try item.write(to: &rows)
        summary.remindersAdded += updated ? 0 : 1
        summary.remindersUpdated += updated ? 1 : 0
        advance()
      }
    }
    if !events.isEmpty, var existing = existingEvents,
      let calendarId = summary.eventCalendarIdentifier
    {
      existingEvents = nil
      var masters: [String: Int] = [:]  // UID → index in `series`
      var series: [ImportedItem] = []
      var overrides: [ImportedItem] = []
      for var item in events {
        item.record.calendarId = calendarId
        if item.recurrenceId == nil {
          masters[item.uid] = series.count
          series.append(item)
        } else {
          overrides.append(item)
        }
      }
      // Masters first: an override's row refers to its series'.
      var placed: [ImportedItem] = []
      for index in series.indices {
        let updated = existing.adopt(&series[index])
        summary.eventsAdded += updated ? 0 : 1
        summary.eventsUpdated += updated ? 1 : 0
      }
      // RANGE=THISANDFUTURE overrides split their series; the new series are found again by
      // their UIDs, like any other.
      let adopted = series.count
      Self.splitSeries(&series, overrides: &overrides)
      for index in adopted..<series.count {
        masters[series[index].uid] = index
        let updated = existing.adopt(&series[index])
        summary.eventsAdded += updated ? 0 : 1
        summary.eventsUpdated += updated ? 1 : 0
      }
      var detachedBySeries: [String: [DateTimeValue]] = [:]
      // What each series' overrides are checked against, read once per series: a series may
      // have thousands of overrides and thousands of EXDATEs.
      var targets: [String: OverrideTarget] = [:]
      for var item in overrides {
        // The series is in this file, or was imported before.
        var target: OverrideTarget?
        if let index = masters[item.uid] {
          let id = series[index].record.id
          target = targets[id] ?? OverrideTarget(series[index].record)
          targets[id] = target
        } else if let id = existing.seriesId(uid: item.uid) {
          target = try targets[id] ?? ItemRows.item(db, id: id).map(OverrideTarget.init)
          targets[id] = target
        }
        guard let target, target.record.isSeries, let recurrenceId = item.recurrenceId,
          let clock = try? ItemClock(
            target.record.dtstart(reading: target.record.startReading ?? 0)),
          let reading = try? clock.reading(of: recurrenceId)
        else {
          // An override whose series is elsewhere (a shared instance of someone else's
          // series): a single event of its own, its RECURRENCE-ID kept for export.
          // The line the file wrote when the reader kept it (with a RANGE), else one made
          // from the value: the line an import of the file again looks the event up by.
          var kept = KeptContent.from(column: item.record.extra)
          let line: String
          if let written = kept.recurrenceIdLine {
            line = written
          } else {
            line = recurrenceIdLine(item) ?? ""
            kept.properties.insert(line, at: 0)
          }
          item.record.extra = kept.columnText
          item.recurrenceId = nil
          let updated = existing.adoptOrphan(&item, recurrenceIdLine: line)
          summary.eventsAdded += updated ? 0 : 1
          summary.eventsUpdated += updated ? 1 : 0
          placed.append(item)
          continue
        }
        let master = target.record
        let value = clock.value(reading)
        // An override of an excluded instance was deleted after it was made (the series'
        // newer version excludes it): nothing to show.
        if target.exceptions.contains(value) { continue }
        // An older override of an instance the series' newer version no longer has (it was
        // shortened after the override was made): gone with that instance.
        if item.record.sequence < master.sequence,
          let key = master.instanceKey(value), !target.instances.contains(key)
        {
          continue
        }
        item.record.seriesId = master.id
        item.record.recurrenceId = value.description
        item.record.uid = master.uid ?? master.id
        let updated = existing.adoptDetached(&item)
        summary.eventsAdded += updated ? 0 : 1
        summary.eventsUpdated += updated ? 1 : 0
        detachedBySeries[master.id, default: []].append(value)
        placed.append(item)
      }
      for index in series.indices {
        if let values = detachedBySeries.removeValue(forKey: series[index].record.id) {
          series[index].record.detachedDates = DateTimeLines.text(values)
          series[index].record.seriesEndKey = series[index].record.lastPossibleEnd()
        }
        try series[index].write(to: &rows)
        advance()
      }
      // Series imported before, with new detached occurrences from this file.
      for (id, values) in detachedBySeries {
        guard var record = try ItemRows.item(db, id: id) else { continue }
        let current = DateTimeLines.values(record.detachedDates)
        let known = Set(current)
        record.detachedDates = DateTimeLines.text(current + values.filter { !known.contains($0) })
        try rows.save(record)
      }
      for item in placed {
        try item.write(to: &rows)
        advance()
      }
    }
    progress?(ICalendarTransferProgress(phase: .writing, done: total, total: total))
    return summary
  }

  /// One component per UID and RECURRENCE-ID: a file may hold several versions of an item
  /// (a series re-sent with a higher SEQUENCE after an edit); the highest SEQUENCE wins, and
  /// of equal ones the last in the file, as RFC 5546 §2.1.5 orders versions.
  static func latestVersions(_ items: [ImportedItem]) -> [ImportedItem] {
    var chosen: [String: Int] = [:]
    for (index, item) in items.enumerated() {
      let key = item.uid + "\n" + item.instanceKey
      if let previous = chosen[key], items[previous].record.sequence > item.record.sequence {
        continue
      }
      chosen[key] = index
    }
    guard chosen.count < items.count else { return items }
    let kept = Set(chosen.values)
    return items.indices.filter(kept.contains).map { items[$0] }
  }

  private func recurrenceIdLine(_ item: ImportedItem) -> String? {
    guard let value = item.recurrenceId else { return nil }
    var parameters: [ICalendarParameter] = []
    if let tzid = value.tzid { parameters.append(ICalendarParameter(name: "TZID", value: tzid)) }
    if value.isDate { parameters.append(ICalendarParameter(name: "VALUE", value: "DATE")) }
    return ICalendarProperty(name: "RECURRENCE-ID", parameters: parameters, value: value.text)
      .contentLine
  }

  /// The calendar the items of `entity` go into.
  private func calendar(
    _ rows: inout RowWriter, entity: EKEntityType, summary: inout ICalendarImportSummary
  ) throws -> String {
    switch destination {
    case .calendar(let id): return id
    case .titled(let title):
      return try calendar(&rows, title: title, entity: entity, summary: &summary)
    }
  }

  /// The writable calendar of the import's title for `entity`, made in the Local source when
  /// there is none.
  private func calendar(
    _ rows: inout RowWriter, title: String, entity: EKEntityType,
    summary: inout ICalendarImportSummary
  ) throws -> String {
    let db = rows.db
    let mask: EKEntityMask = entity == .event ? .event : .reminder
    if let record = try CalendarRecord.first(db, title: title, holding: mask) {
      guard record.allowsContentModifications, !record.isImmutable else {
        throw EKError(.calendarReadOnly, "The calendar \"\(title)\" is read-only.")
      }
      return record.id
    }
    guard
      let sourceId = try SourceRecord.firstAllowingCalendars(db, type: .local)
    else {
      throw EKError(.calendarHasNoSource, "The store has no local source to add \"\(title)\" to.")
    }
    let position = try CalendarRecord.nextPosition(db)
    let record = CalendarRecord(
      id: Identifier.make(), sourceId: sourceId, title: title, type: .local,
      color: CalendarRecord.color(forPosition: position), entityMask: mask,
      availabilityMask: entity == .event ? [.busy, .free, .tentative, .unavailable] : [],
      position: position)
    try rows.insert(record)
    summary.calendarsCreated += 1
    return record.id
  }
}

/// A series that overrides in the file replace instances of, with its EXDATEs and instances
/// read once for all of them.
private struct OverrideTarget {
  let record: ItemRecord
  let exceptions: Set<DateTimeValue>
  let instances: ItemRecord.Instances

  init(_ record: ItemRecord) {
    self.record = record
    exceptions = Set(DateTimeLines.values(record.exceptionDates))
    instances = record.instances()
  }
}

/// The items already in a calendar, by UID: what an import replaces instead of duplicating.
private struct ExistingItems {
  private var byUID: [String: (id: String, createdAt: Double)] = [:]
  private var detached: [String: String] = [:]  // series id + "\n" + RECURRENCE-ID → id
  /// Overrides imported without their series: UID + "\n" + their RECURRENCE-ID line → id.
  private var orphans: [String: String] = [:]

  /// From the rows ``ItemRows/importKeys(_:calendarId:)`` reads.
  init(_ rows: RowCursor) throws {
    while let row = try rows.next() { add(row) }
  }

  init(_ rows: [Row]) {
    for row in rows { add(row) }
  }

  private mutating func add(_ row: Row) {
    let id: String = row[0]
    let uid: String = row[1]
    if let seriesId: String = row[2] {
      detached[seriesId + "\n" + ((row[3] as String?) ?? "")] = id
    } else if let line = KeptContent.from(column: row[5]).recurrenceIdLine {
      orphans[uid + "\n" + line] = id
    } else {
      byUID[uid] = (id, row[4])
    }
  }

  /// Like ``adopt(_:)`` for an override without its series, known by its RECURRENCE-ID too.
  mutating func adoptOrphan(_ item: inout ImportedItem, recurrenceIdLine line: String) -> Bool {
    item.record.uid = item.uid
    let key = item.uid + "\n" + line
    if let id = orphans[key] {
      item.record.id = id
      item.replaces = true
      return true
    }
    item.record.id = Identifier.make()
    orphans[key] = item.record.id
    return false
  }

  /// The series (or single item) with this UID.
  func seriesId(uid: String) -> String? { byUID[uid]?.id }

  /// Gives the item the identifier of the one it replaces, or a new one; true when it
  /// replaces one.
  mutating func adopt(_ item: inout ImportedItem) -> Bool {
    if let (id, _) = byUID[item.uid] {
      item.record.id = id
      item.record.uid = item.uid == id ? nil : item.uid
      item.replaces = true
      return true
    }
    item.record.id = Identifier.make()
    item.record.uid = item.uid
    byUID[item.uid] = (item.record.id, item.record.createdAt)
    return false
  }

  mutating func adoptDetached(_ item: inout ImportedItem) -> Bool {
    let key = (item.record.seriesId ?? "") + "\n" + (item.record.recurrenceId ?? "")
    if let id = detached[key] {
      item.record.id = id
      item.replaces = true
      return true
    }
    // An override a THISANDFUTURE split moved into a new series: the row an import made
    // before the split, under the original series, is the one it updates.
    if let former = item.formerKey, let id = detached.removeValue(forKey: former) {
      item.record.id = id
      item.replaces = true
      detached[key] = id
      return true
    }
    item.record.id = Identifier.make()
    detached[key] = item.record.id
    return false
  }
}
