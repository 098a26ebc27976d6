/// Changes saved with `commit: false`: kept in the store that made them, shown by its own
/// fetches, and written in one transaction by `commit()` (or dropped by `reset()`).
///
/// Operations are kept in order, because their order matters to the database (a calendar must
/// exist before its items). Beside them, the latest staged state of each item and calendar lets
/// fetches lay the staged changes over what the database returns, and is what a save writes:
/// an item saved twice is written with its last values.
struct StagedChanges: Sendable {
  enum Operation: Sendable {
    case saveItem(id: String, isNew: Bool)
    case removeItem(id: String)
    case saveCalendar(CalendarRecord, isNew: Bool)
    case removeCalendar(id: String)
  }

  private(set) var operations: [Operation] = []
  /// The staged state of each item touched: its row, or nil when it is removed. Rows are held
  /// by reference: a batch of thousands of saves then grows this table cheaply.
  private(set) var items: [String: StoredRecord?] = [:]
  /// The staged state of each calendar touched: its row, or nil when it is removed.
  private(set) var calendars: [String: CalendarRecord?] = [:]
  /// Calendars that exist only because they were staged (never committed). (For items, their
  /// staged row says so.)
  private var newCalendars: Set<String> = []
  /// Rows that must still be in the database as they are here when the batch is written
  /// (``EKEventStore/saveIfUnchanged(_:span:commit:)``), by item identifier.
  private(set) var conditions: [String: ItemRecord] = [:]
  /// Series rows whose staged change is only touches (``SeriesTouch``), in order, by item
  /// identifier: the write applies them to the row as it finds it. A full save of the row
  /// drops them: it was made from the staged row, touches included.
  private(set) var touches: [String: [SeriesTouch]] = [:]

  var isEmpty: Bool { operations.isEmpty }

  /// Makes the batch's write depend on `expected` being the item's row in the database then.
  /// Returns false, adding nothing, when the batch already holds a change of that item or a
  /// condition on it: the first change in a batch is the one made from what was read.
  mutating func require(_ expected: ItemRecord) -> Bool {
    guard items[expected.id] == nil, conditions[expected.id] == nil else { return false }
    conditions[expected.id] = expected
    return true
  }

  /// Forgets a condition added by ``require(_:)`` for a save that failed.
  mutating func dropCondition(id: String) {
    conditions[id] = nil
  }

  mutating func save(_ record: ItemRecord, isNew: Bool, touch: SeriesTouch? = nil) {
    // A touch of a row the batch already writes whole is part of that whole row.
    if let touch, items[record.id] == nil || touches[record.id] != nil {
      touches[record.id, default: []].append(touch)
    } else {
      touches[record.id] = nil
    }
    let isNew = isNew || (items[record.id]??.isStagedNew ?? false)
    operations.append(.saveItem(id: record.id, isNew: isNew))
    items[record.id] = StoredRecord(record, isStagedNew: isNew)
  }

  mutating func removeItem(id: String) {
    touches[id] = nil
    if items[id]??.isStagedNew == true {
      // Never written: forget it instead of writing and deleting it.
      operations.removeAll {
        if case .saveItem(let saved, _) = $0 { return saved == id }
        return false
      }
    } else {
      operations.append(.removeItem(id: id))
    }
    items[id] = .some(nil)
  }

  mutating func save(_ record: CalendarRecord, isNew: Bool) {
    let isNew = isNew || newCalendars.contains(record.id)
    if isNew { newCalendars.insert(record.id) }
    operations.append(.saveCalendar(record, isNew: isNew))
    calendars[record.id] = record
  }

  mutating func removeCalendar(id: String) {
    operations.append(.removeCalendar(id: id))
    newCalendars.remove(id)
    calendars[id] = .some(nil)
  }

  /// Whether a staged change hides or replaces this item or its calendar.
  func overrides(item id: String, calendarId: String) -> Bool {
    items[id] != nil || isRemoved(calendar: calendarId)
  }

  func isRemoved(calendar id: String) -> Bool {
    if case .some(.none) = calendars[id] { return true }
    return false
  }

  /// The staged row of an item saved and not removed since.
  func record(_ id: String) -> StoredRecord? { items[id] ?? nil }

  /// Staged items still present, with calendars still present.
  var presentItems: [StoredRecord] {
    items.values.compactMap { $0 }.filter { !isRemoved(calendar: $0.record.calendarId) }
  }

}
