import Foundation
import GRDB
import ICalendar

/// What a new calendar database holds: a Local source with a "Calendar" for events and a
/// "Reminders" list, and a read-only subscribed "Holidays" calendar, so that read-only
/// behaviour can be tried on any machine.
enum DefaultContent {
  /// Keys of the `meta` table.
  enum Key {
    static let storeIdentifier = "storeIdentifier"
    static let defaultEventCalendar = "defaultEventCalendar"
    static let defaultReminderCalendar = "defaultReminderCalendar"
    /// The longest single (non-repeating) event, in seconds: bounds how far back a window
    /// query must look for events that started before it and still last.
    static let longestSingleEvent = "longestSingleEvent"
    /// The earliest and the latest relative offset of any event's timed alarm, in seconds
    /// (absent while no event has one): how far a search for the alarms firing in a window
    /// widens it to the occurrences that can fire there. They only widen, as the longest
    /// single event only grows.
    static let earliestAlarmOffset = "earliestAlarmOffset"
    static let latestAlarmOffset = "latestAlarmOffset"
  }

  /// Public holidays observed in many countries: (title, month, day).
  static let holidays = [
    ("New Year's Day", 1, 1), ("International Workers' Day", 5, 1), ("Christmas Day", 12, 25),
  ]

  static func insert(_ db: Database) throws {
    let now = Date().timeIntervalSince1970
    let local = UUID().uuidString
    let subscribed = UUID().uuidString
    let calendar = UUID().uuidString
    let reminders = UUID().uuidString
    let holidaysCalendar = UUID().uuidString

    let sources: [(String, String, EKSourceType, Bool)] = [
      (local, "Local", .local, true),
      (subscribed, "Subscribed Calendars", .subscribed, false),
    ]
    for (position, (id, title, type, allowsAddDelete)) in sources.enumerated() {
      try db.execute(
        sql: """
          INSERT INTO source (id, title, type, allowsCalendarAddDelete, position)
          VALUES (?, ?, ?, ?, ?)
          """,
        arguments: [id, title, type.rawValue, allowsAddDelete, position])
    }
    let everyAvailability = EKCalendarEventAvailabilityMask([
      .busy, .free, .tentative, .unavailable,
    ])
    let calendars:
      [(
        id: String, source: String, title: String, type: EKCalendarType, color: String,
        entities: EKEntityMask, writable: Bool, subscribed: Bool
      )] = [
        (calendar, local, "Calendar", .local, "#1BADF8", .event, true, false),
        (reminders, local, "Reminders", .local, "#FF9500", .reminder, true, false),
        (holidaysCalendar, subscribed, "Holidays", .subscription, "#34C759", .event, false, true),
      ]
    for (position, entry) in calendars.enumerated() {
      try db.execute(
        sql: """
          INSERT INTO calendar (id, sourceId, title, type, color, entityMask,
            allowsContentModifications, isSubscribed, isImmutable, availabilityMask, position)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
          """,
        arguments: [
          entry.id, entry.source, entry.title, entry.type.rawValue, entry.color,
          entry.entities.rawValue, entry.writable, entry.subscribed, entry.subscribed,
          entry.entities.contains(.event) ? everyAvailability.rawValue : 0, position,
        ])
    }
    let meta = [
      Key.storeIdentifier: UUID().uuidString, Key.defaultEventCalendar: calendar,
      Key.defaultReminderCalendar: reminders, Key.longestSingleEvent: "0",
    ]
    for (key, value) in meta {
      try db.execute(sql: "INSERT INTO meta (key, value) VALUES (?, ?)", arguments: [key, value])
    }

    // Each holiday: an all-day event repeating every year from 2000.
    for (title, month, day) in holidays {
      let start = CivilDate(year: 2000, month: month, day: day)!.dayNumber * 86_400
      try db.execute(
        sql: """
          INSERT INTO item (id, calendarId, kind, uid, title, createdAt, modifiedAt,
            isAllDay, startReading, endReading, startKey, endKey, availability,
            recurrenceRules)
          VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, 'FREQ=YEARLY')
          """,
        arguments: [
          UUID().uuidString, holidaysCalendar, EKEntityType.event.rawValue,
          "\(UUID().uuidString)@openeventkit", title, now, now, start, start + 86_400, start,
          start + 86_400, EKEventAvailability.free.rawValue,
        ])
    }
  }
}
