import Foundation
import GRDB

extension EKEventStore {
  /// Every item the app may read, by `calendarItemIdentifier`, with when it last changed:
  /// what a tool that follows the store (`ekctl watch`) compares after `EKEventStoreChanged`
  /// to tell what was added, changed or removed. An OpenEventKit addition.
  ///
  /// Empty when the app may read neither events nor reminders, or the database cannot be read. See
  /// <doc:ObservingChanges>.
  ///
  /// - Returns: Each readable item's ``EKCalendarItem/calendarItemIdentifier`` with its last
  ///   modification time.
  ///
  /// ```swift
  /// var before = store.calendarItemStamps()
  /// for await _ in store.changes {
  ///   let now = store.calendarItemStamps()
  ///   let added = now.keys.filter { before[$0] == nil }
  ///   before = now
  ///   print("\(added.count) added")
  /// }
  /// ```
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
  ///
  /// See <doc:ObservingChanges>.
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
  public func calendarItemTitles(of identifiers: [String]? = nil) -> [String: String] {
    let readable = [EKEntityType.event, .reminder].filter(canRead)
    guard !readable.isEmpty else { return [:] }
    return read { db in try ItemRows.titles(db, kinds: readable, ids: identifiers) } ?? [:]
  }

  /// The calendar database file this store uses.
  ///
  /// An OpenEventKit addition: the file ``init()``, ``init(folder:)`` or ``init(ownerOf:create:)``
  /// opened, whether or not it could be opened.
  ///
  /// ```swift
  /// let store = EKEventStore()
  /// print(store.databaseFile.path)  // ~/.local/share/OpenEventKit/Calendar.sqlite
  /// ```
  public var databaseFile: URL { location.calendarDatabase }
}
