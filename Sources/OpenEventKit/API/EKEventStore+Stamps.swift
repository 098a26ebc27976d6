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

  /// The titles of the items the app may read, by `calendarItemIdentifier`: of every one, or
  /// of those in `identifiers` (unknown ones are left out). One query, where
  /// `calendarItem(withIdentifier:)` for each would read and build the items one by one: a
  /// tool that names what changed among 40,000 items (`ekctl watch`) needs only their titles.
  /// An OpenEventKit addition.
  public func calendarItemTitles(of identifiers: [String]? = nil) -> [String: String] {
    let readable = [EKEntityType.event, .reminder].filter(canRead).map(\.rawValue)
    guard !readable.isEmpty else { return [:] }
    let kinds = "kind IN (\(readable.map(String.init).joined(separator: ", ")))"
    return read { db in
      var titles: [String: String] = [:]
      func collect(_ sql: String, _ arguments: StatementArguments) throws {
        let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
        while let row = try rows.next() { titles[row[0]] = row[1] ?? "" }
      }
      guard let identifiers else {
        try collect("SELECT id, title FROM item WHERE \(kinds)", [])
        return titles
      }
      // SQLite takes at most 32,766 arguments a statement.
      var start = identifiers.startIndex
      while start < identifiers.endIndex {
        let part = identifiers[start..<min(start + 10_000, identifiers.endIndex)]
        try collect(
          "SELECT id, title FROM item WHERE \(kinds) AND id IN ("
            + Array(repeating: "?", count: part.count).joined(separator: ",") + ")",
          StatementArguments(Array(part)))
        start = part.endIndex
      }
      return titles
    } ?? [:]
  }

  /// The calendar database file this store uses.
  public var databaseFile: URL { location.calendarDatabase }
}
