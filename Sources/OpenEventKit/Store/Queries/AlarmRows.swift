import GRDB
import Synchronization

/// The SQL behind ``EKEventStore/alarmFirings(from:to:calendars:)``: alarms live in each row's
/// `alarms` column as a JSON array (``AlarmValues``), read here with SQLite's JSON functions
/// so that only rows with alarms are fetched.
enum AlarmRows {
  /// What the schema's "v3 alarms" migration adds: a partial index of the events that have
  /// an absolute alarm, which are few, so that a window's absolute alarms are found without
  /// reading every row's alarms; and the offset bounds in `meta`, from the rows already there
  /// (``RowWriter`` keeps them after).
  static func createIndexes(_ db: Database) throws {
    try db.execute(
      sql: "CREATE INDEX item_absolute_alarm ON item(kind) WHERE \(hasAbsoluteAlarm)")
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
    if let row, let lowest = row[0] as Double?, let highest = row[1] as Double? {
      try widenOffsetBounds(db, lowest: lowest, highest: highest)
    }
  }

  /// The condition of the partial index: the column's JSON names an absolute date.
  static let hasAbsoluteAlarm = "alarms LIKE '%\"absoluteDate\"%'"

  /// The earliest and latest relative offsets of the events' timed alarms, in seconds; nil
  /// when no event has one. How far before and after a window the occurrences whose alarms
  /// fire in it start.
  static func eventOffsetBounds(_ db: Database) throws -> (lowest: Double, highest: Double)? {
    let values = try Row.fetchAll(
      db, sql: "SELECT key, CAST(value AS REAL) FROM meta WHERE key IN (?, ?)",
      arguments: [DefaultContent.Key.earliestAlarmOffset, DefaultContent.Key.latestAlarmOffset])
    var bounds: [String: Double] = [:]
    for row in values { bounds[row[0]] = row[1] }
    guard let lowest = bounds[DefaultContent.Key.earliestAlarmOffset],
      let highest = bounds[DefaultContent.Key.latestAlarmOffset]
    else { return nil }
    return (lowest, highest)
  }

  /// Widens the offset bounds in `meta` to take in `lowest` and `highest`.
  static func widenOffsetBounds(_ db: Database, lowest: Double, highest: Double) throws {
    for (key, value, pick) in [
      (DefaultContent.Key.earliestAlarmOffset, lowest, "MIN"),
      (DefaultContent.Key.latestAlarmOffset, highest, "MAX"),
    ] {
      try db.cachedStatement(
        sql: """
          INSERT INTO meta (key, value) VALUES (?, CAST(? AS TEXT))
          ON CONFLICT(key) DO UPDATE SET
            value = CAST(\(pick)(CAST(value AS REAL), CAST(excluded.value AS REAL)) AS TEXT)
          """
      ).execute(arguments: [key, value])
    }
  }

  /// The event rows with an absolute alarm in `[start, end)` (seconds since 1970).
  static func eventsWithAbsoluteAlarms(_ db: Database, from start: Double, to end: Double)
    throws -> [ItemRecord]
  {
    try ItemRecord.fetchAll(
      db,
      sql: """
        SELECT \(ItemRecord.selection) FROM item INDEXED BY item_absolute_alarm
        WHERE kind = 0 AND \(hasAbsoluteAlarm)
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

/// The relative offsets of the timed alarms in an `alarms` column (an absolute alarm keeps no
/// offset; a location alarm fires by place, not time), decoded once per distinct
/// text: a search reads every repeating event's alarms, and most share a few texts ("10
/// minutes before"), so the JSON is not decoded again for each row and each search.
enum AlarmOffsets {
  private static let cache = Mutex([String: [Double]]())

  static func relative(_ column: String?) -> [Double] {
    guard let column else { return [] }
    if let known = cache.withLock({ $0[column] }) { return known }
    let offsets = (JSONColumn.value([AlarmValues].self, from: column) ?? []).compactMap {
      $0.absoluteDate == nil && $0.proximity == .none ? $0.relativeOffset : nil
    }
    cache.withLock {
      // Bounded: a store whose rows all have alarms of their own starts again.
      if $0.count > 10_000 { $0.removeAll() }
      $0[column] = offsets
    }
    return offsets
  }
}
