import Foundation
import GRDB
import ICalendar

/// One row of the `item` table: an event or a reminder as the database keeps it, with wall-
/// clock readings and the keys window queries use (see ``CalendarSchema``).
///
/// Records are what the store stages, commits and expands; ``ItemValues`` is what the API
/// edits. ``init(kind:identity:values:previous:)`` and ``values()`` convert between them.
struct ItemRecord: Hashable, Sendable {
  var id: String
  var eventId: String?
  var calendarId: String
  var kind: EKEntityType
  var uid: String
  var title: String?
  var location: String?
  var notes: String?
  var url: String?
  var createdAt: Double
  var modifiedAt: Double
  var timeZone: String?
  var isAllDay: Bool
  var startReading: Int?
  var endReading: Int?
  var startKey: Int?
  var endKey: Int?
  var availability: Int
  var status: Int
  var recurrenceRules: String?
  var recurrenceDates: String?
  var exceptionDates: String?
  var seriesEndKey: Int?
  var structuredLocation: String?
  var alarms: String?
  var participants: String?
  var startComponents: String?
  var dueComponents: String?
  var dueKey: Int?
  var isCompleted: Bool
  var completedAt: Double?
  var priority: Int
  var sequence: Int
  var extra: String?

  var identity: ItemIdentity {
    ItemIdentity(
      id: id, eventId: eventId, uid: uid, createdAt: Date(timeIntervalSince1970: createdAt),
      modifiedAt: Date(timeIntervalSince1970: modifiedAt))
  }

  /// Whether the item repeats.
  var isSeries: Bool { recurrenceRules != nil }

  /// Floating and all-day items are read on the current zone's clock; their keys are readings.
  var isFloating: Bool { timeZone == nil }
}

extension ItemRecord: FetchableRecord, PersistableRecord {
  static let databaseTableName = "item"

  init(row: Row) {
    id = row["id"]
    eventId = row["eventId"]
    calendarId = row["calendarId"]
    kind = EKEntityType(rawValue: row["kind"]) ?? .event
    uid = row["uid"]
    title = row["title"]
    location = row["location"]
    notes = row["notes"]
    url = row["url"]
    createdAt = row["createdAt"]
    modifiedAt = row["modifiedAt"]
    timeZone = row["timeZone"]
    isAllDay = row["isAllDay"]
    startReading = row["startReading"]
    endReading = row["endReading"]
    startKey = row["startKey"]
    endKey = row["endKey"]
    availability = row["availability"]
    status = row["status"]
    recurrenceRules = row["recurrenceRules"]
    recurrenceDates = row["recurrenceDates"]
    exceptionDates = row["exceptionDates"]
    seriesEndKey = row["seriesEndKey"]
    structuredLocation = row["structuredLocation"]
    alarms = row["alarms"]
    participants = row["participants"]
    startComponents = row["startComponents"]
    dueComponents = row["dueComponents"]
    dueKey = row["dueKey"]
    isCompleted = row["isCompleted"]
    completedAt = row["completedAt"]
    priority = row["priority"]
    sequence = row["sequence"]
    extra = row["extra"]
  }

  func encode(to container: inout PersistenceContainer) {
    container["id"] = id
    container["eventId"] = eventId
    container["calendarId"] = calendarId
    container["kind"] = kind.rawValue
    container["uid"] = uid
    container["title"] = title
    container["location"] = location
    container["notes"] = notes
    container["url"] = url
    container["createdAt"] = createdAt
    container["modifiedAt"] = modifiedAt
    container["timeZone"] = timeZone
    container["isAllDay"] = isAllDay
    container["startReading"] = startReading
    container["endReading"] = endReading
    container["startKey"] = startKey
    container["endKey"] = endKey
    container["availability"] = availability
    container["status"] = status
    container["recurrenceRules"] = recurrenceRules
    container["recurrenceDates"] = recurrenceDates
    container["exceptionDates"] = exceptionDates
    container["seriesEndKey"] = seriesEndKey
    container["structuredLocation"] = structuredLocation
    container["alarms"] = alarms
    container["participants"] = participants
    container["startComponents"] = startComponents
    container["dueComponents"] = dueComponents
    container["dueKey"] = dueKey
    container["isCompleted"] = isCompleted
    container["completedAt"] = completedAt
    container["priority"] = priority
    container["sequence"] = sequence
    container["extra"] = extra
  }
}
