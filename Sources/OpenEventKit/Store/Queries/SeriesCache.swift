import Foundation
import GRDB

/// The rows of every repeating event, kept between window queries.
///
/// Every window query needs the series that may reach it, and open-ended series reach every
/// window: reading and decoding them again for each query would cost more than expanding them.
/// The cache is valid while nothing was committed: `PRAGMA data_version` changes on a reader
/// connection exactly when another connection (this store's writer included) commits, so the
/// rows are kept with the connection and version they were read at.
final class SeriesCache: @unchecked Sendable {
  /// Past this many series the rows are read per query instead, to bound memory.
  static let capacity = 20_000

  private let lock = NSLock()
  private var connection: ObjectIdentifier?
  private var version: Int?
  private var rows: [StoredRecord] = []

  /// Every series row, from the cache when nothing changed since it was read on this
  /// connection; nil when there are too many to keep.
  func seriesRows(_ db: Database) throws -> [StoredRecord]? {
    let version = try Int.fetchOne(db.cachedStatement(sql: "PRAGMA data_version"))
    let connection = ObjectIdentifier(db)
    let cached = lock.withLock {
      self.connection == connection && self.version == version ? rows : nil
    }
    if let cached { return cached }
    let count =
      try Int.fetchOne(
        db,
        sql: """
          SELECT COUNT(*) FROM item INDEXED BY item_series_start
          WHERE kind = 0 AND recurrenceRules IS NOT NULL
          """) ?? 0
    guard count <= SeriesCache.capacity else { return nil }
    // After a commit, most series are as they were: a row read again unchanged keeps the
    // object that holds what queries made of it (its prepared expansion and values), so an
    // app's next query after one save prepares one series, not all of them.
    let previous = lock.withLock { rows }
    var unchanged: [String: StoredRecord] = [:]
    unchanged.reserveCapacity(previous.count)
    for row in previous { unchanged[row.record.id] = row }
    var fresh: [StoredRecord] = []
    fresh.reserveCapacity(count)
    try ItemRecord.forEach(
      db,
      db.makeStatement(
        sql: """
          SELECT \(ItemRecord.selection) FROM item INDEXED BY item_series_start
          WHERE kind = 0 AND recurrenceRules IS NOT NULL
          """)
    ) { record in
      if let kept = unchanged[record.id], kept.record == record {
        fresh.append(kept)
      } else {
        fresh.append(StoredRecord(record))
      }
    }
    lock.withLock {
      self.connection = connection
      self.version = version
      rows = fresh
    }
    return fresh
  }
}
