import Foundation
import GRDB

/// Writes staged changes inside one write transaction (the caller's `pool.write`).
enum StagedWriter {
  /// Writes `staged`. `bounds` is what the connection has seen committed of `meta`'s bounds
  /// (``MetaBounds``), and comes back as this write leaves them.
  static func write(_ staged: StagedChanges, to db: Database, bounds: inout MetaBounds) throws {
    // Rows are written in the order of the first change to each, with its last values, which
    // may name a series written later in the batch (a detached occurrence moved, then its
    // series split): references are checked when the transaction commits, not row by row.
    // SQLite turns this off again at the end of the transaction. A change of one row has
    // nothing later in its batch to wait for, and is spared the pragma: setting it expires
    // every compiled statement of the connection (SQLite's flag pragmas do), which would
    // compile a single save's statements anew each time.
    let defersReferences = staged.operations.count > 1
    if defersReferences {
      try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
    }
    // Conditional saves first: the transaction is IMMEDIATE (GRDB's writes are), so no other
    // writer can come between this check and the writes below.
    for (id, expected) in staged.conditions.sorted(by: { $0.key < $1.key }) {
      let current = try ItemRecord.fetchOne(db, id: id)
      if current != expected {
        throw SaveConflictError(
          calendarItemIdentifier: id, title: expected.title, wasRemoved: current == nil)
      }
    }
    try RowWriter.writing(db, bounds: &bounds) { rows in
      var presentCalendars = Set<String>()
      // Items written by this batch: each write is of the item's last staged values, so a
      // later save of the same item has nothing to add (and a new one must not be inserted
      // twice, as when a series saved in the batch gets a detached occurrence after it).
      var written = Set<String>()
      for operation in staged.operations {
        switch operation {
        case .saveItem(let id, let isNew):
          // Removed again later in the batch: its removal comes after, nothing to write.
          guard let stored = staged.record(id), written.insert(id).inserted else { continue }
          var record = stored.record
          // A series touched by a change of one occurrence: the touch goes to the row as it
          // is now (another app may have changed it since the change was staged). The
          // occurrence must still be one: a detached row for an instance another app removed
          // or cut off since the check at staging, or of a series since removed, would bring
          // back an occurrence (or a series) nobody has.
          // A removal or cut of an occurrence of a series since removed has nothing left to do.
          if let touches = staged.touches[id] {
            guard let current = try ItemRecord.fetchOne(db, id: id) else {
              if touches.allSatisfy({ $0.detached.isEmpty }) { continue }
              throw OccurrenceContext.noLongerThere
            }
            guard touches.allSatisfy({ $0.detached.allSatisfy(current.generates) }) else {
              throw OccurrenceContext.noLongerThere
            }
            // A cut or an exclusion staged before another store moved the whole series
            // would fall between two of its occurrences now.
            let keys = touches.flatMap { [$0.cutBefore] + $0.excluded.map(current.instanceKey) }
            if keys.contains(where: { $0.map(current.movedAway(from:)) ?? false }) {
              throw OccurrenceContext.movedAway
            }
            record = touches.reduce(current) { $1.applied(to: $0) }
          }
          // A batch's references are checked at its commit, where a missing calendar could
          // not be named: each calendar is looked up before its first row. A single change's
          // are checked as the row is written, and the lookup waits for a failure (a save
          // spared a query).
          if defersReferences, !presentCalendars.contains(record.calendarId) {
            try requireCalendar(of: record, db)
            presentCalendars.insert(record.calendarId)
          }
          do {
            if isNew { try rows.insert(record) } else { try rows.save(record) }
          } catch let error as DatabaseError
            where error.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY
          {
            try requireCalendar(of: record, db)
            throw error
          }
        case .removeItem(let id):
          try rows.removeItem(id: id)
          written.remove(id)
        case .saveCalendar(let record, let isNew):
          if isNew { try rows.insert(record) } else { try rows.save(record) }
        case .removeCalendar(let id):
          try rows.removeCalendar(id: id)
          presentCalendars.remove(id)
        }
      }
    }
  }

  /// Throws `noCalendar`, naming the calendar and the item, when the calendar of `record` is
  /// not in the database (another store removed it since the item was staged).
  private static func requireCalendar(of record: ItemRecord, _ db: Database) throws {
    guard try CalendarRecord.isPresent(db, id: record.calendarId) else {
      throw EKError(
        .noCalendar, "The calendar \(record.calendarId) of \"\(record.title ?? "")\" is gone.")
    }
  }

  /// An error from the database as an `EKError` a person can read: what went wrong, not the
  /// statement (``DatabaseFailure``).
  static func translate(_ error: any Error) -> EKError {
    if let error = error as? DatabaseError,
      error.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY
    {
      return EKError(.noCalendar, "A calendar or repeating event the change needs is gone.")
    }
    return EKError(
      .internalFailure,
      "The calendar database refused the change: \(DatabaseFailure.reason(error)).")
  }
}
