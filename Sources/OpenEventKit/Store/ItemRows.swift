import Foundation
import GRDB

/// Every read of `item` rows that is not a window query (``EventQuery``), in one place: the
/// API's fetches by identifier and of reminders, span edits, export and import all read
/// through here, inside the caller's read or write transaction. (Writes go through
/// ``RowWriter``.)
///
/// Queries that an index serves repeat the index's condition literally (`kind = 1`), so that
/// SQLite uses it (see `CalendarSchema`).
enum ItemRows {
  /// The row with this identifier.
  static func item(_ db: Database, id: String) throws -> ItemRecord? {
    try ItemRecord.fetchOne(db, id: id)
  }

  /// The event row with this identifier (`event(withIdentifier:)`).
  static func event(_ db: Database, id: String) throws -> ItemRecord? {
    try ItemRecord.fetchOne(
      db, sql: "SELECT \(ItemRecord.selection) FROM item WHERE id = ? AND kind = 0",
      arguments: [id])
  }

  /// The rows whose iCalendar UID is `uid`: `uid` is stored only where it differs from the
  /// identifier, so a row with none is found by its identifier.
  static func items(_ db: Database, uid: String) throws -> [ItemRecord] {
    try ItemRecord.fetchAll(
      db,
      sql: """
        SELECT \(ItemRecord.selection) FROM item WHERE uid = ?
        UNION ALL SELECT \(ItemRecord.selection) FROM item WHERE id = ? AND uid IS NULL
        """, arguments: [uid, uid])
  }

  /// The detached occurrences of a series.
  static func detached(_ db: Database, seriesId: String) throws -> [ItemRecord] {
    try ItemRecord.fetchAll(
      db, sql: "SELECT \(ItemRecord.selection) FROM item WHERE seriesId = ?",
      arguments: [seriesId])
  }

  /// Reminders, by completion, in some calendars (nil: all). Due and completion dates are
  /// compared by the predicate in Swift.
  static func reminders(_ db: Database, completed: Bool?, calendarIds: [String]?) throws
    -> [ItemRecord]
  {
    var sql = "SELECT \(ItemRecord.selection) FROM item INDEXED BY item_reminder_due WHERE kind = 1"
    var arguments = StatementArguments()
    if let completed { sql += completed ? " AND isCompleted = 1" : " AND isCompleted = 0" }
    if let calendarIds {
      sql += " AND calendarId IN (" + calendarIds.map { _ in "?" }.joined(separator: ",") + ")"
      arguments += StatementArguments(calendarIds)
    }
    return try ItemRecord.fetchAll(db, sql: sql, arguments: arguments)
  }

  /// The rows of one resource of a calendar (a CalDAV resource: a series with its detached
  /// occurrences, or one item), the series first.
  ///
  /// Found by UID (or id), then kept to the calendar: `+calendarId` bars SQLite from the
  /// calendar's index, which it would otherwise choose, having no statistics (no ANALYZE), and
  /// which reads every row of the calendar for each resource — a first sync of n events read
  /// n²/2 rows (client processor 8.9 s against 3.8 s at 10,000 events, issue 48).
  static func resource(_ db: Database, calendarId: String, uid: String) throws -> [ItemRecord] {
    try ItemRecord.fetchAll(db, sql: resourceSQL, arguments: [calendarId, uid, uid])
  }

  /// ``resource(_:calendarId:uid:)``'s query: its arguments are the calendar, the UID, the UID.
  static let resourceSQL = """
    SELECT \(ItemRecord.selection) FROM item
    WHERE +calendarId = ? AND (uid = ? OR (uid IS NULL AND id = ?))
    ORDER BY seriesId IS NOT NULL, startKey, id
    """

  /// Every row of some calendars, in the order an export writes them: events before
  /// reminders, each series before its detached occurrences.
  static func exported(_ db: Database, calendarIds: [String]) throws -> [ItemRecord] {
    try ItemRecord.fetchAll(
      db,
      sql: """
        SELECT \(ItemRecord.selection) FROM item
        WHERE calendarId IN (\(calendarIds.map { _ in "?" }.joined(separator: ", ")))
        ORDER BY kind, seriesId IS NOT NULL, startKey, id
        """,
      arguments: StatementArguments(calendarIds))
  }

  /// When each item of these kinds last changed, by identifier.
  static func stamps(_ db: Database, kinds: [EKEntityType]) throws -> [String: Date] {
    var stamps: [String: Date] = [:]
    let rows = try Row.fetchCursor(
      db, sql: "SELECT id, modifiedAt FROM item WHERE \(condition(kinds))")
    while let row = try rows.next() {
      stamps[row[0]] = Date(timeIntervalSince1970: row[1])
    }
    return stamps
  }

  /// The titles of the items of these kinds, by identifier: of every one, or of those in
  /// `ids` (unknown ones left out).
  static func titles(_ db: Database, kinds: [EKEntityType], ids: [String]?) throws
    -> [String: String]
  {
    var titles: [String: String] = [:]
    func collect(_ sql: String, _ arguments: StatementArguments) throws {
      let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
      while let row = try rows.next() { titles[row[0]] = row[1] ?? "" }
    }
    guard let ids else {
      try collect("SELECT id, title FROM item WHERE \(condition(kinds))", [])
      return titles
    }
    // SQLite takes at most 32,766 arguments a statement.
    var start = ids.startIndex
    while start < ids.endIndex {
      let part = ids[start..<min(start + 10_000, ids.endIndex)]
      try collect(
        "SELECT id, title FROM item WHERE \(condition(kinds)) AND id IN ("
          + Array(repeating: "?", count: part.count).joined(separator: ",") + ")",
        StatementArguments(Array(part)))
      start = part.endIndex
    }
    return titles
  }

  /// How many rows a calendar holds: its single events, series, detached occurrences and
  /// reminders.
  static func count(_ db: Database, calendarId: String) throws -> Int {
    try Int.fetchOne(
      db, sql: "SELECT COUNT(*) FROM item WHERE calendarId = ?", arguments: [calendarId]) ?? 0
  }

  /// What an import of a calendar matches its components against: each row's identifier,
  /// UID, series and RECURRENCE-ID, creation date, and (for an override kept without its
  /// series) the kept lines that hold its RECURRENCE-ID.
  static func importKeys(_ db: Database, calendarId: String) throws -> RowCursor {
    try Row.fetchCursor(
      db,
      sql: """
        SELECT id, COALESCE(uid, id), seriesId, recurrenceId, createdAt,
          CASE WHEN extra LIKE '%RECURRENCE-ID%' THEN extra END
        FROM item WHERE calendarId = ?
        """,
      arguments: [calendarId])
  }

  /// ``importKeys(_:calendarId:)`` of the rows of some UIDs only (the rows
  /// ``resource(_:calendarId:uid:)`` reads for each), in one query for all of them: a sync
  /// writing a batch of resources reads what the batch replaces, not the whole calendar
  /// nor one UID at a time. By rowid, as the calendar's whole reading, within each part of
  /// 10,000 UIDs (one part for a sync's batch): a UID's rows are always together, in order.
  static func importKeys(_ db: Database, calendarId: String, uids: [String]) throws -> [Row] {
    var found: [Row] = []
    // SQLite takes at most 32,766 arguments a statement; each UID takes two.
    var start = uids.startIndex
    while start < uids.endIndex {
      let part = Array(uids[start..<min(start + 10_000, uids.endIndex)])
      // Compiled once a connection for a whole batch's count (the last batch's too).
      found += try Row.fetchAll(
        db.cachedStatement(sql: importKeysSQL(count: part.count)),
        arguments: StatementArguments([calendarId] + part + part))
      start += part.count
    }
    return found
  }

  /// The query of ``importKeys(_:calendarId:uids:)`` for `count` UIDs: by the UID index and
  /// the identifier, with `+calendarId` so that SQLite does not choose the index on
  /// `calendarId` instead, and read the whole calendar.
  static func importKeysSQL(count: Int) -> String {
    let marks = Array(repeating: "?", count: count).joined(separator: ",")
    return """
      SELECT id, COALESCE(uid, id), seriesId, recurrenceId, createdAt,
        CASE WHEN extra LIKE '%RECURRENCE-ID%' THEN extra END
      FROM item
      WHERE +calendarId = ? AND (uid IN (\(marks)) OR (uid IS NULL AND id IN (\(marks))))
      ORDER BY rowid
      """
  }

  /// How long the longest single event ever saved lasts, in seconds: how far back before a
  /// window its query looks for events that started earlier and still last.
  /// ``RowWriter`` keeps it.
  static func longestSingleEvent(_ db: Database) throws -> Int {
    try Int.fetchOne(
      db.cachedStatement(sql: "SELECT CAST(value AS INTEGER) FROM meta WHERE key = ?"),
      arguments: [DefaultContent.Key.longestSingleEvent]) ?? 0
  }

  private static func condition(_ kinds: [EKEntityType]) -> String {
    "kind IN (\(kinds.map { String($0.rawValue) }.joined(separator: ", ")))"
  }
}
