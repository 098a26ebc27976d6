import Foundation
import GRDB
import ICalendar

/// One row of the `item` table: an event or a reminder as the database keeps it, with wall-
/// clock readings and the keys window queries use (see ``CalendarSchema``).
///
/// Records are what the store stages, commits and expands; ``ItemValues`` is what the API
/// edits. ``init(kind:identity:values:previous:)`` and ``values()`` convert between them.
struct ItemRecord: Hashable, Sendable {
  var id: String
  var calendarId: String
  var kind: EKEntityType
  /// The iCalendar UID when it differs from `id`.
  var uid: String?
  var title: String?
  var location: String?
  var notes: String?
  var url: String?
  var createdAt: Double
  var modifiedAt: Double
  var timeZone: String?
  var isAllDay: Bool
  var startReading: Int?
  var endReading: Int?
  var startKey: Int?
  var endKey: Int?
  var availability: Int
  var status: Int
  var recurrenceRules: String?
  var recurrenceDates: String?
  var exceptionDates: String?
  var seriesEndKey: Int?
  var structuredLocation: String?
  var alarms: String?
  var participants: String?
  var startComponents: String?
  var dueComponents: String?
  var dueKey: Int?
  var isCompleted: Bool
  var completedAt: Double?
  var priority: Int
  var sequence: Int
  var extra: String?
  /// For a detached occurrence: its series, and the instance it replaces (RECURRENCE-ID).
  var seriesId: String?
  var recurrenceId: String?
  /// For a series: the instances its detached occurrences replace, one per line.
  var detachedDates: String?

  var identity: ItemIdentity {
    ItemIdentity(
      id: id, uid: uid ?? id, createdAt: Date(timeIntervalSince1970: createdAt),
      modifiedAt: Date(timeIntervalSince1970: modifiedAt))
  }

  /// Whether the item repeats.
  var isSeries: Bool { recurrenceRules != nil }

  /// Floating and all-day items are read on the current zone's clock; their keys are readings.
  var isFloating: Bool { timeZone == nil }
}

/// Reading and writing rows. Columns are read by position, in table order (``columns``),
/// through SQLite's C interface (``ColumnReader``), and written with prepared statements cached
/// per connection: a fetch of thousands of rows or a commit of thousands of items spends its
/// time in SQLite, not in looking up column names.
extension ItemRecord: TableRecord {
  static let databaseTableName = "item"

  /// The table's columns, in the order ``CalendarSchema`` creates them.
  static let columns = [
    "id",
    "calendarId",
    "kind",
    "uid",
    "title",
    "location",
    "notes",
    "url",
    "createdAt",
    "modifiedAt",
    "timeZone",
    "isAllDay",
    "startReading",
    "endReading",
    "startKey",
    "endKey",
    "availability",
    "status",
    "recurrenceRules",
    "recurrenceDates",
    "exceptionDates",
    "seriesEndKey",
    "structuredLocation",
    "alarms",
    "participants",
    "startComponents",
    "dueComponents",
    "dueKey",
    "isCompleted",
    "completedAt",
    "priority",
    "sequence",
    "extra",
    "seriesId",
    "recurrenceId",
    "detachedDates",
  ]

  /// The column list for a SELECT that ``init(_:)`` reads.
  static let selection = columns.joined(separator: ", ")

  /// The row whose columns `columns` reads, selected as ``selection`` lists them.
  ///
  /// Made whole by the memberwise initializer: assigned field by field, the row was built
  /// aside and copied out, its twenty strings counted up and down once more.
  init(_ columns: ColumnReader) {
    self.init(
      id: columns.text(0) ?? "",
      calendarId: columns.text(1) ?? "",
      kind: EKEntityType(rawValue: UInt(clamping: columns.integer(2))) ?? .event,
      uid: columns.text(3),
      title: columns.text(4),
      location: columns.text(5),
      notes: columns.text(6),
      url: columns.text(7),
      createdAt: columns.double(8),
      modifiedAt: columns.double(9),
      timeZone: columns.text(10),
      isAllDay: columns.bool(11),
      startReading: columns.optionalInteger(12),
      endReading: columns.optionalInteger(13),
      startKey: columns.optionalInteger(14),
      endKey: columns.optionalInteger(15),
      availability: columns.integer(16),
      status: columns.integer(17),
      recurrenceRules: columns.text(18),
      recurrenceDates: columns.text(19),
      exceptionDates: columns.text(20),
      seriesEndKey: columns.optionalInteger(21),
      structuredLocation: columns.text(22),
      alarms: columns.text(23),
      participants: columns.text(24),
      startComponents: columns.text(25),
      dueComponents: columns.text(26),
      dueKey: columns.optionalInteger(27),
      isCompleted: columns.bool(28),
      completedAt: columns.optionalDouble(29),
      priority: columns.integer(30),
      sequence: columns.integer(31),
      extra: columns.text(32),
      seriesId: columns.text(33),
      recurrenceId: columns.text(34),
      detachedDates: columns.text(35))
  }

  /// Calls `body` with each row `statement` selects (it selects ``selection``), or with the
  /// first `limit` rows.
  static func forEach(
    _ db: Database, _ statement: Statement, arguments: StatementArguments = StatementArguments(),
    limit: Int = .max, _ body: (consuming ItemRecord) throws -> Void
  ) throws {
    try statement.forEachRow(in: db, arguments: arguments, limit: limit) { columns in
      try body(ItemRecord(columns))
    }
  }

  /// The rows `sql` selects (it selects ``selection``).
  static func fetchAll(
    _ db: Database, sql: String, arguments: StatementArguments = StatementArguments()
  ) throws -> [ItemRecord] {
    var rows: [ItemRecord] = []
    try forEach(db, db.makeStatement(sql: sql), arguments: arguments) { rows.append($0) }
    return rows
  }

  /// The first row `sql` selects (it selects ``selection``), or nil.
  static func fetchOne(
    _ db: Database, sql: String, arguments: StatementArguments = StatementArguments()
  ) throws -> ItemRecord? {
    var row: ItemRecord?
    try forEach(db, db.makeStatement(sql: sql), arguments: arguments, limit: 1) { row = $0 }
    return row
  }

  /// The values to write, in ``columns`` order (for error messages).
  private var columnValues: [(any DatabaseValueConvertible)?] {
    [
      id,
      calendarId,
      kind.rawValue,
      uid,
      title,
      location,
      notes,
      url,
      createdAt,
      modifiedAt,
      timeZone,
      isAllDay,
      startReading,
      endReading,
      startKey,
      endKey,
      availability,
      status,
      recurrenceRules,
      recurrenceDates,
      exceptionDates,
      seriesEndKey,
      structuredLocation,
      alarms,
      participants,
      startComponents,
      dueComponents,
      dueKey,
      isCompleted,
      completedAt,
      priority,
      sequence,
      extra,
      seriesId,
      recurrenceId,
      detachedDates,
    ]
  }

  /// Binds every column but `id`, in ``columns`` order.
  private func bindColumnsAfterId(_ binder: inout ColumnBinder) {
    binder.add(calendarId)
    binder.add(kind.rawValue)
    binder.add(uid)
    binder.add(title)
    binder.add(location)
    binder.add(notes)
    binder.add(url)
    binder.add(createdAt)
    binder.add(modifiedAt)
    binder.add(timeZone)
    binder.add(isAllDay)
    binder.add(startReading)
    binder.add(endReading)
    binder.add(startKey)
    binder.add(endKey)
    binder.add(availability)
    binder.add(status)
    binder.add(recurrenceRules)
    binder.add(recurrenceDates)
    binder.add(exceptionDates)
    binder.add(seriesEndKey)
    binder.add(structuredLocation)
    binder.add(alarms)
    binder.add(participants)
    binder.add(startComponents)
    binder.add(dueComponents)
    binder.add(dueKey)
    binder.add(isCompleted)
    binder.add(completedAt)
    binder.add(priority)
    binder.add(sequence)
    binder.add(extra)
    binder.add(seriesId)
    binder.add(recurrenceId)
    binder.add(detachedDates)
  }

  private static let insertSQL =
    "INSERT INTO item (\(selection)) VALUES ("
    + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"

  private static let updateSQL =
    "UPDATE item SET " + columns.dropFirst().map { "\($0) = ?" }.joined(separator: ", ")
    + " WHERE id = ?"

  /// The row with this identifier.
  static func fetchOne(_ db: Database, id: String) throws -> ItemRecord? {
    try fetchOne(db, sql: "SELECT \(selection) FROM item WHERE id = ?", arguments: [id])
  }

  /// The table's INSERT and UPDATE statements on one connection, for a writer to keep.
  struct Statements {
    let insert: Statement
    let update: Statement

    init(_ db: Database) throws {
      insert = try db.cachedStatement(sql: ItemRecord.insertSQL)
      update = try db.cachedStatement(sql: ItemRecord.updateSQL)
    }
  }

  /// Inserts the row.
  func insert(_ db: Database, statements: Statements) throws {
    try statements.insert.run(
      in: db, arguments: { columnValues },
      bind: { binder in
        binder.add(id)
        bindColumnsAfterId(&binder)
      })
  }

  /// Updates the row, or inserts it when it is not there (deleted meanwhile by another store:
  /// saving it brings it back, as saving a changed object should).
  func save(_ db: Database, statements: Statements) throws {
    try statements.update.run(
      in: db, arguments: { Array(columnValues.dropFirst()) + [id] },
      bind: { binder in
        bindColumnsAfterId(&binder)
        binder.add(id)
      })
    if db.changesCount == 0 { try insert(db, statements: statements) }
  }
}
