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
    var fresh: [StoredRecord] = []
    fresh.reserveCapacity(count)
    try ItemRecord.forEach(
      db,
      db.makeStatement(
        sql: """
          SELECT \(ItemRecord.selection) FROM item INDEXED BY item_series_start
          WHERE kind = 0 AND recurrenceRules IS NOT NULL
          """)
    ) { fresh.append(StoredRecord($0)) }
    lock.withLock {
      self.connection = connection
      self.version = version
      rows = fresh
    }
    return fresh
  }
}
