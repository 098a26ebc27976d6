import Foundation
import GRDB

// Finding events and reminders: by identifier, and by predicate over a range of dates.
// Fetches see this store's staged changes laid over the database.
extension EKEventStore {
  // MARK: By identifier

  /// `calendarItem(withIdentifier:)`.
  func findCalendarItem(identifier: String) -> EKCalendarItem? {
    itemRecord { db in
      try ItemRows.item(db, id: identifier)
    } staged: {
      $0.id == identifier
    }.flatMap { canRead($0.kind) ? makeFirstItem($0) : nil }
  }

  /// `calendarItems(withExternalIdentifier:)`.
  func findCalendarItems(externalIdentifier: String) -> [EKCalendarItem] {
    itemRecords { db in
      try ItemRows.items(db, uid: externalIdentifier)
    } staged: {
      $0.identity.uid == externalIdentifier
    }.filter { canRead($0.kind) }.compactMap(makeFirstItem)
  }

  /// `event(withIdentifier:)`.
  func findEvent(identifier: String) -> EKEvent? {
    guard canRead(.event) else { return nil }
    return itemRecord { db in
      try ItemRows.event(db, id: identifier)
    } staged: {
      $0.id == identifier && $0.kind == .event
    }.flatMap(makeFirstItem) as? EKEvent
  }

  /// The latest saved values of an item (for an occurrence, of that occurrence); nil when it
  /// is gone.
  func latestValues(of item: EKCalendarItem) -> ItemValues? {
    guard canRead(item.kind) else { return nil }
    let id = item.identity.id
    guard
      let record = itemRecord(
        { db in try ItemRows.item(db, id: id) }, staged: { $0.id == id }
      )
    else { return nil }
    item.record = record
    guard let event = item as? EKEvent, record.isSeries, let original = event.occurrenceStart else {
      return record.values()
    }
    if let values = record.occurrenceValues(originalStart: original) { return values }
    // The instance is gone. An object that stood for the series' first occurrence goes on
    // standing for it when the series' start moved later; any other occurrence was deleted.
    guard let first = record.firstOccurrenceValues(), let start = first.startDate,
      original <= start
    else { return nil }
    event.occurrenceStart = start
    return first
  }

  /// The object for a row: a reminder, a single event, or a series' first occurrence.
  func makeFirstItem(_ record: ItemRecord) -> EKCalendarItem? {
    guard record.kind == .event else {
      return EKReminder(eventStore: self, record: StoredRecord(record), values: record.values())
    }
    var values = record.values()
    if record.isSeries {
      // The series itself, standing for its first instance not removed, as EventKit's master
      // event does: with the series' identifier, values and rules even when that instance is
      // detached (the detached row is found by its own identifier, or by a fetch).
      guard let first = record.firstOccurrenceValues() else { return nil }
      values = first
    }
    let event = EKEvent(eventStore: self, record: StoredRecord(record), values: values)
    event.occurrenceStart = record.originalStart ?? values.startDate
    return event
  }

  func itemRecord(
    _ fetch: (Database) throws -> ItemRecord?, staged isMatch: (ItemRecord) -> Bool
  ) -> ItemRecord? {
    itemRecords({ db in try fetch(db).map { [$0] } ?? [] }, staged: isMatch).first
  }

  /// Rows from the database with this store's staged changes laid over them.
  func itemRecords(
    _ fetch: (Database) throws -> [ItemRecord], staged isMatch: (ItemRecord) -> Bool
  ) -> [ItemRecord] {
    let staged = state.withLock { $0.staged }
    let visible = visibleCalendarIds()
    let stored = (read(fetch) ?? []).filter {
      !staged.overrides(item: $0.id, calendarId: $0.calendarId)
    }
    return (stored + staged.presentItems.map(\.record).filter(isMatch)).filter {
      visible.contains($0.calendarId)
    }
  }

  /// The calendars this store shows (all, or those of its sources), staged ones included.
  func visibleCalendarIds() -> Set<String> {
    Set(calendarRecords().map(\.id))
  }

  // MARK: Rows, for span edits

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

  // MARK: Events by date

  /// `events(matching:)`.
  func fetchEvents(matching predicate: NSPredicate) -> [EKEvent] {
    guard let predicate = predicate as? EventPredicate, canRead(.event) else { return [] }
    let query = EventQuery(
      start: WallClock.seconds(predicate.start), end: WallClock.seconds(predicate.end),
      startAtLeast: nil, calendarIds: searchedCalendars(predicate.calendarIds))
    return events(for: query)
  }

  /// `enumerateEvents(matching:using:)`: the rows are read a month at a time, and their
  /// occurrences merged one at a time (`OccurrenceMerge`), so that memory stays flat however
  /// long the range and however dense the series.
  func streamEvents(matching predicate: NSPredicate, using block: EKEventSearchCallback) {
    guard let predicate = predicate as? EventPredicate, canRead(.event) else { return }
    let start = WallClock.seconds(predicate.start)
    let end = WallClock.seconds(predicate.end)
    let calendarIds = searchedCalendars(predicate.calendarIds)
    var stop = ObjCBool(false)
    var chunkStart = start
    while chunkStart < end {
      let chunkEnd = min(end, chunkStart + EKEventStore.enumerationChunk)
      // The first chunk takes events that began earlier and still last; the others take only
      // events starting in them, so that each event is reported once.
      let query = EventQuery(
        start: chunkStart, end: chunkEnd, startAtLeast: chunkStart == start ? nil : chunkStart,
        calendarIds: calendarIds)
      // One occurrence at a time, its object made just before the block sees it.
      let rows = eventRows(for: query)
      let clock = WallClock.current
      var bases = [ItemValues?](repeating: nil, count: rows.count)
      for (times, index) in OccurrenceMerge(
        rows.map { query.lazyOccurrences(of: $0, clock: clock) })
      {
        if bases[index] == nil { bases[index] = rows[index].values(current: clock) }
        block(event(rows[index], base: bases[index].unsafelyUnwrapped, times: times), &stop)
        if stop.boolValue { return }
      }
      chunkStart = chunkEnd
    }
  }

  /// The span `enumerateEvents` reads at a time: 31 days.
  static let enumerationChunk = 31 * 86_400

  /// The calendars a predicate searches, limited to those this store shows.
  func searchedCalendars(_ ids: [String]?) -> [String]? {
    guard let ids else { return sourceFilter == nil ? nil : Array(visibleCalendarIds()) }
    let visible = visibleCalendarIds()
    return ids.filter(visible.contains)
  }

  /// The rows that may have occurrences in the query's window, with this store's staged
  /// changes laid over them.
  func eventRows(for query: EventQuery) -> [StoredRecord] {
    let staged = state.withLock { $0.staged }
    var rows = read { db in try query.candidates(db, cache: seriesCache) } ?? []
    if !staged.isEmpty {
      rows.removeAll { staged.overrides(item: $0.record.id, calendarId: $0.record.calendarId) }
      rows += staged.presentItems.filter {
        $0.kind == .event && (query.calendarIds?.contains($0.record.calendarId) ?? true)
      }
    }
    return rows
  }

  func events(for query: EventQuery) -> [EKEvent] {
    let rows = eventRows(for: query)
    // Find every occurrence first and sort those small values; then make the objects, in
    // order. Rows are held by reference, so that no step copies a whole row.
    let clock = WallClock.current
    var found: [(times: EventQuery.Times, row: Int)] = []
    for (index, row) in rows.enumerated() {
      for times in query.lazyOccurrences(of: row, clock: clock) {
        found.append((times, index))
      }
    }
    // Each row's values, made once for all its occurrences.
    var bases = [ItemValues?](repeating: nil, count: rows.count)
    var events: [EKEvent] = []
    events.reserveCapacity(found.count)
    // By start, then by row: `found` holds each row's occurrences in order, row after row.
    for position in EventQuery.startOrder(found.map(\.times.start)) {
      let (times, index) = found[position]
      if bases[index] == nil { bases[index] = rows[index].values(current: clock) }
      events.append(event(rows[index], base: bases[index].unsafelyUnwrapped, times: times))
    }
    return events
  }

  /// The object of one occurrence of `row`, whose values are `base`.
  func event(_ row: StoredRecord, base: ItemValues, times: EventQuery.Times) -> EKEvent {
    let values =
      row.isSeries ? base.moved(to: times, isAllDay: row.isAllDay) : base
    let event = EKEvent(eventStore: self, record: row, values: values)
    event.occurrenceStart = row.isDetached ? row.record.originalStart : values.startDate
    event.startKey = times.start
    return event
  }

  // MARK: Reminders

  /// `fetchReminders(matching:completion:)`.
  func startReminderFetch(
    matching predicate: NSPredicate, completion: @escaping ([EKReminder]?) -> Void
  ) -> Any {
    let request = FetchRequest()
    state.withLock { $0.fetches[ObjectIdentifier(request)] = request }
    nonisolated(unsafe) let completion = completion
    nonisolated(unsafe) let predicate = predicate
    fetchQueue.async { [self] in
      let reminders = (predicate as? ReminderPredicate).map(reminders(matching:))
      let cancelled = state.withLock {
        $0.fetches.removeValue(forKey: ObjectIdentifier(request))
        return request.isCancelled
      }
      if !cancelled { completion(reminders) }
    }
    return request
  }

  func cancelReminderFetch(_ fetchIdentifier: Any) {
    guard let request = fetchIdentifier as? FetchRequest else { return }
    state.withLock { _ in request.isCancelled = true }
  }

  func reminders(matching predicate: ReminderPredicate) -> [EKReminder] {
    guard canRead(.reminder) else { return [] }
    let completed: Bool? =
      switch predicate.kind {
      case .all: nil
      case .incomplete: false
      case .completed: true
      }
    let search = searchedCalendars(predicate.calendarIds)
    return itemRecords { db in
      try ItemRows.reminders(db, completed: completed, calendarIds: search)
    } staged: {
      $0.kind == .reminder
    }.filter { predicate.matches($0) && (search?.contains($0.calendarId) ?? true) }
      .map { EKReminder(eventStore: self, record: StoredRecord($0), values: $0.values()) }
  }
}

/// The handle `fetchReminders(matching:completion:)` returns. Its flag is read and written
/// under the store's lock.
final class FetchRequest: @unchecked Sendable {
  var isCancelled = false
}

extension EKEventStore: StoreRows {}
