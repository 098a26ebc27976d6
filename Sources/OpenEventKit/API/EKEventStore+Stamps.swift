import Foundation
import GRDB

extension EKEventStore {
  /// Every item the app may read, by `calendarItemIdentifier`, with when it last changed:
  /// what a tool that follows the store (`ekctl watch`) compares after `EKEventStoreChanged`
  /// to tell what was added, changed or removed. An OpenEventKit addition.
  public func calendarItemStamps() -> [String: Date] {
    let readable = [EKEntityType.event, .reminder].filter(canRead).map(\.rawValue)
    guard !readable.isEmpty else { return [:] }
    return read { db in
      var stamps: [String: Date] = [:]
      let rows = try Row.fetchCursor(
        db,
        sql: """
          SELECT id, modifiedAt FROM item
          WHERE kind IN (\(readable.map(String.init).joined(separator: ", ")))
          """)
      while let row = try rows.next() {
        stamps[row[0]] = Date(timeIntervalSince1970: row[1])
      }
      return stamps
    } ?? [:]
  }

  /// The calendar database file this store uses.
  public var databaseFile: URL { location.calendarDatabase }
}
