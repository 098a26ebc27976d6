import Foundation
import GRDB

extension EKEventStore {
  /// The titles of the items the app may read, by `calendarItemIdentifier`: of every one, or
  /// of those in `identifiers` (unknown ones are left out). One query, where
  /// `calendarItem(withIdentifier:)` for each would read and build the items one by one: a
  /// tool that names what changed among 40,000 items (`ekctl watch`) needs only their titles.
  /// Package API, for `ekctl watch`.
  ///
  /// - Parameters:
  ///   - identifiers: The ``EKCalendarItem/calendarItemIdentifier``s to name; nil for every item
  ///     the app may read.
  /// - Returns: The titles by identifier; empty when the app may read nothing.
  ///
  /// ```swift
  /// let changed: Set<String> = [event.calendarItemIdentifier]  // say, from a ChangeTracker
  /// let titles = store.calendarItemTitles(of: Array(changed))
  /// for id in changed { print(titles[id] ?? "(removed)") }
  /// ```
  package func calendarItemTitles(of identifiers: [String]? = nil) -> [String: String] {
    let readable = [EKEntityType.event, .reminder].filter(canRead)
    guard !readable.isEmpty else { return [:] }
    return read { db in try ItemRows.titles(db, kinds: readable, ids: identifiers) } ?? [:]
  }
}
