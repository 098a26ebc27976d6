import GRDB

/// The SQL behind ``EKEventStore/alarmFirings(from:to:calendars:)``: alarms live in each row's
/// `alarms` column as a JSON array (``AlarmValues``), read here with SQLite's JSON functions
/// so that only rows with alarms are fetched.
enum AlarmRows {
  /// The earliest and latest relative offsets of the events' timed alarms (an absolute alarm
  /// keeps no offset; a location alarm does not fire by time), in seconds; nil when there is
  /// none. How far before and after a window the occurrences whose alarms fire in it start.
  static func eventOffsetBounds(_ db: Database) throws -> (lowest: Double, highest: Double)? {
    let row = try Row.fetchOne(
      db,
      sql: """
        SELECT MIN(json_extract(a.value, '$.relativeOffset')),
          MAX(json_extract(a.value, '$.relativeOffset'))
        FROM item, json_each(item.alarms) AS a
        WHERE item.kind = 0 AND item.alarms IS NOT NULL
          AND json_extract(a.value, '$.absoluteDate') IS NULL
          AND json_extract(a.value, '$.proximity') IS NULL
        """)
    guard let row, let lowest = row[0] as Double?, let highest = row[1] as Double? else {
      return nil
    }
    return (lowest, highest)
  }

  /// The event rows with an absolute alarm in `[start, end)` (seconds since 1970).
  static func eventsWithAbsoluteAlarms(_ db: Database, from start: Double, to end: Double)
    throws -> [ItemRecord]
  {
    try ItemRecord.fetchAll(
      db,
      sql: """
        SELECT \(ItemRecord.selection) FROM item WHERE kind = 0 AND alarms IS NOT NULL
          AND EXISTS (
            SELECT 1 FROM json_each(item.alarms) AS a
            WHERE json_extract(a.value, '$.absoluteDate') >= ?
              AND json_extract(a.value, '$.absoluteDate') < ?)
        """,
      arguments: [start, end])
  }

  /// The rows of `kind` with a location alarm (one with a proximity).
  static func itemsWithLocationAlarms(_ db: Database, kind: EKEntityType) throws -> [ItemRecord] {
    try ItemRecord.fetchAll(
      db,
      sql: """
        SELECT \(ItemRecord.selection) FROM item WHERE kind = ? AND alarms IS NOT NULL
          AND EXISTS (
            SELECT 1 FROM json_each(item.alarms) AS a
            WHERE json_extract(a.value, '$.proximity') IS NOT NULL)
        """,
      arguments: [kind.rawValue])
  }

  /// The reminders not completed that have alarms.
  static func incompleteRemindersWithAlarms(_ db: Database) throws -> [ItemRecord] {
    try ItemRecord.fetchAll(
      db,
      sql: """
        SELECT \(ItemRecord.selection) FROM item
        WHERE kind = 1 AND isCompleted = 0 AND alarms IS NOT NULL
        """)
  }
}
