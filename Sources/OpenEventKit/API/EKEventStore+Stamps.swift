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

  /// How many events or reminders `calendar` holds, counted in the database as an export
  /// writes them: a repeating event once, and each occurrence changed apart from it (which has
  /// an `eventIdentifier` of its own) once more. What a tool tells before it removes a calendar
  /// with everything in it (`ekctl calendars rm`), where `events(matching:)` over every year
  /// would expand each series that never ends. An OpenEventKit addition.
  ///
  /// See <doc:SavingAndBatching#Calendars>.
  ///
  /// - Parameters:
  ///   - calendar: A calendar or reminder list of this store.
  /// - Returns: The number of items; 0 when the app may not read the calendar's entity type, or
  ///   the database cannot be read. Changes staged with `commit: false` are not counted.
  ///
  /// ```swift
  /// let count = store.calendarItemCount(in: calendar)
  /// print("Delete \"\(calendar.title)\" and its \(count) events?")
  /// ```
  public func calendarItemCount(in calendar: EKCalendar) -> Int {
    let entity: EKEntityType = calendar.allowedEntityTypes.contains(.event) ? .event : .reminder
    guard calendar.eventStore === self, canRead(entity) else { return 0 }
    return read { db in try ItemRows.count(db, calendarId: calendar.calendarIdentifier) } ?? 0
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
