import GRDB

/// Every write of an `item` or `calendar` row, inside the caller's write transaction. The
/// API's commits (``StagedWriter``) and imports (``ImportWriter``) write through one, so that
/// what must go with every write is done in one place: the longest single event in `meta`
/// grows with the rows that need it, in the same transaction.
///
/// ```swift
/// try database.write { db in
///   try RowWriter.writing(db) { rows in
///     try rows.save(record)
///   }
/// }
/// ```
struct RowWriter {
  let db: Database
  /// The longest single event written so far, in seconds.
  private var longestSingle = 0

  private init(_ db: Database) { self.db = db }

  /// Runs `body` with a writer, then records what its writes need recorded.
  static func writing<T>(_ db: Database, _ body: (inout RowWriter) throws -> T) throws -> T {
    var writer = RowWriter(db)
    let result = try body(&writer)
    try writer.finish()
    return result
  }

  // MARK: Items

  /// Inserts a row that is not in the table yet.
  mutating func insert(_ record: ItemRecord) throws {
    try record.insert(db)
    note(record)
  }

  /// Updates a row, or inserts it when it is not there (deleted meanwhile by another store:
  /// saving it brings it back, as saving a changed object should).
  mutating func save(_ record: ItemRecord) throws {
    try record.save(db)
    note(record)
  }

  /// Deletes a row (a series' detached rows go with it: the foreign key cascades).
  func removeItem(id: String) throws {
    _ = try ItemRecord.deleteOne(db, key: id)
  }

  // MARK: Calendars

  func insert(_ calendar: CalendarRecord) throws {
    try calendar.insert(db)
  }

  func save(_ calendar: CalendarRecord) throws {
    try calendar.save(db)
  }

  /// Deletes a calendar with every item in it (the foreign key cascades).
  func removeCalendar(id: String) throws {
    _ = try CalendarRecord.deleteOne(db, key: id)
  }

  // MARK: Bookkeeping

  private mutating func note(_ record: ItemRecord) {
    if record.kind == .event, !record.isSeries, let start = record.startKey,
      let end = record.endKey
    {
      longestSingle = max(longestSingle, end - start)
    }
  }

  private func finish() throws {
    guard longestSingle > 0 else { return }
    // Window queries look back this far for single events that started before the window
    // (``ItemRows/longestSingleEvent(_:)``). It only grows: a shorter bound could miss a
    // long event saved before.
    try db.execute(
      sql: """
        UPDATE meta SET value = CAST(MAX(CAST(value AS INTEGER), ?) AS TEXT)
        WHERE key = ?
        """,
      arguments: [longestSingle, DefaultContent.Key.longestSingleEvent])
  }
}
