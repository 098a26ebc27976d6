import GRDB

/// Every write of an `item` or `calendar` row, inside the caller's write transaction. The
/// API's commits (``StagedWriter``), imports (``ImportWriter``) and CalDAV sync write through
/// one, so that what must go with every write is done in one place, in the same
/// transaction: the longest single event in `meta` grows with the rows that need it, and a
/// local change to a calendar of a CalDAV source is recorded in the ``Outbox``.
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
  /// The earliest and latest relative offsets of the timed alarms of the events written.
  private var alarmOffsets: (lowest: Double, highest: Double)?
  /// Where local changes are recorded; nil for sync's own writes of what the server sent.
  private var outbox: Outbox?
  /// The item rows written, for sync's writes: a resource's rows that the server's version
  /// did not write again are gone from it.
  private(set) var writtenIds: Set<String> = []
  private let origin: Origin
  /// The `item` table's INSERT and UPDATE, found once for all the rows of a write: GRDB's
  /// statement cache hashes the SQL text (36 columns of it) on every lookup, 4% of saving an
  /// event in a batch.
  private var itemStatements: ItemRecord.Statements?

  /// Whose change a write is.
  enum Origin {
    /// The API's or an import's: sent to the server by the next sync.
    case local
    /// The server's, written by sync: nothing to send back.
    case server
  }

  private init(_ db: Database, origin: Origin) {
    self.db = db
    self.origin = origin
    outbox = origin == .local ? Outbox() : nil
  }

  /// Runs `body` with a writer, then records what its writes need recorded.
  static func writing<T>(
    _ db: Database, origin: Origin = .local, _ body: (inout RowWriter) throws -> T
  ) throws -> T {
    var bounds = MetaBounds()
    return try writing(db, origin: origin, bounds: &bounds, body)
  }

  /// Runs `body` with a writer, then records what its writes need recorded, leaving out the
  /// bounds in `meta` that `bounds` (what this connection has seen committed) already covers.
  /// On return `bounds` holds the bounds as this write leaves them, to be kept once its
  /// transaction commits (``MetaBounds``).
  static func writing<T>(
    _ db: Database, origin: Origin = .local, bounds: inout MetaBounds,
    _ body: (inout RowWriter) throws -> T
  ) throws -> T {
    var writer = RowWriter(db, origin: origin)
    let result = try body(&writer)
    try writer.finish(&bounds)
    return result
  }

  // MARK: Items

  /// Inserts a row that is not in the table yet.
  mutating func insert(_ record: ItemRecord) throws {
    try outbox?.willSave(record, isNew: true, db)
    try record.insert(db, statements: try statements())
    note(record)
    CrashPoint.row.passed()
  }

  /// Updates a row, or inserts it when it is not there (deleted meanwhile by another store:
  /// saving it brings it back, as saving a changed object should).
  mutating func save(_ record: ItemRecord) throws {
    try outbox?.willSave(record, isNew: false, db)
    try record.save(db, statements: try statements())
    note(record)
    CrashPoint.row.passed()
  }

  /// Deletes a row (a series' detached rows go with it: the foreign key cascades).
  mutating func removeItem(id: String) throws {
    try outbox?.willRemove(itemId: id, db)
    _ = try ItemRecord.deleteOne(db, key: id)
    CrashPoint.row.passed()
  }

  // MARK: Calendars

  mutating func insert(_ calendar: CalendarRecord) throws {
    try calendar.insert(db)
    try outbox?.didSave(calendar, isNew: true, db)
  }

  mutating func save(_ calendar: CalendarRecord) throws {
    try calendar.save(db)
    try outbox?.didSave(calendar, isNew: false, db)
  }

  /// Deletes a calendar with every item in it (the foreign key cascades).
  mutating func removeCalendar(id: String) throws {
    try outbox?.willRemove(calendarId: id, db)
    _ = try CalendarRecord.deleteOne(db, key: id)
  }

  private mutating func statements() throws -> ItemRecord.Statements {
    if let itemStatements { return itemStatements }
    let found = try ItemRecord.Statements(db)
    itemStatements = found
    return found
  }

  // MARK: Bookkeeping

  private mutating func note(_ record: ItemRecord) {
    if origin == .server { writtenIds.insert(record.id) }
    if record.kind == .event, !record.isSeries, let start = record.startKey,
      let end = record.endKey
    {
      longestSingle = max(longestSingle, end - start)
    }
    if record.kind == .event {
      for offset in AlarmOffsets.relative(record.alarms) {
        alarmOffsets = (
          min(alarmOffsets?.lowest ?? offset, offset), max(alarmOffsets?.highest ?? offset, offset)
        )
      }
    }
  }

  private func finish(_ bounds: inout MetaBounds) throws {
    // A search for the alarms of a window widens it by these
    // (``AlarmRows/eventOffsetBounds(_:)``); they only widen, or an alarm saved before could
    // be missed.
    if let alarmOffsets,
      !bounds.covers(alarmOffsetsFrom: alarmOffsets.lowest, to: alarmOffsets.highest)
    {
      try AlarmRows.widenOffsetBounds(
        db, lowest: alarmOffsets.lowest, highest: alarmOffsets.highest)
      var written = MetaBounds()
      written.lowestAlarmOffset = alarmOffsets.lowest
      written.highestAlarmOffset = alarmOffsets.highest
      bounds = bounds.widened(by: written)
    }
    guard longestSingle > 0, !bounds.covers(longestSingle: longestSingle) else { return }
    // Window queries look back this far for single events that started before the window
    // (``ItemRows/longestSingleEvent(_:)``). It only grows: a shorter bound could miss a
    // long event saved before.
    try db.cachedStatement(
      sql: """
        UPDATE meta SET value = CAST(MAX(CAST(value AS INTEGER), ?) AS TEXT)
        WHERE key = ?
        """
    ).execute(arguments: [longestSingle, DefaultContent.Key.longestSingleEvent])
    bounds.longestSingle = longestSingle
  }
}
