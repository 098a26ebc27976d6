import Foundation
import GRDB

extension EKEventStore {
  /// Every item the app may read, by `calendarItemIdentifier`, with when it last changed:
  /// what a tool that follows the store (`ekctl watch`) compares after `EKEventStoreChanged`
  /// to tell what was added, changed or removed. An OpenEventKit addition.
  public func calendarItemStamps() -> [String: Date] {
    let readable = [EKEntityType.event, .reminder].filter(canRead)
    guard !readable.isEmpty else { return [:] }
    return read { db in try ItemRows.stamps(db, kinds: readable) } ?? [:]
  }

  /// The titles of the items the app may read, by `calendarItemIdentifier`: of every one, or
  /// of those in `identifiers` (unknown ones are left out). One query, where
  /// `calendarItem(withIdentifier:)` for each would read and build the items one by one: a
  /// tool that names what changed among 40,000 items (`ekctl watch`) needs only their titles.
  /// An OpenEventKit addition.
  public func calendarItemTitles(of identifiers: [String]? = nil) -> [String: String] {
    let readable = [EKEntityType.event, .reminder].filter(canRead)
    guard !readable.isEmpty else { return [:] }
    return read { db in try ItemRows.titles(db, kinds: readable, ids: identifiers) } ?? [:]
  }

  /// The calendar database file this store uses.
  public var databaseFile: URL { location.calendarDatabase }
}
