import Foundation
import GRDB

/// One row of the `calendar` table.
package struct CalendarRecord: Hashable, Sendable, FetchableRecord, PersistableRecord {
  package static let databaseTableName = "calendar"

  package var id: String
  var sourceId: String
  package var title: String
  var type: EKCalendarType
  /// `#RRGGBB`.
  package var color: String
  package var entityMask: EKEntityMask
  package var allowsContentModifications: Bool
  var isSubscribed: Bool
  var isImmutable: Bool
  var availabilityMask: EKCalendarEventAvailabilityMask
  var position: Int

  init(
    id: String, sourceId: String, title: String, type: EKCalendarType, color: String,
    entityMask: EKEntityMask, allowsContentModifications: Bool = true,
    isSubscribed: Bool = false, isImmutable: Bool = false,
    availabilityMask: EKCalendarEventAvailabilityMask, position: Int
  ) {
    self.id = id
    self.sourceId = sourceId
    self.title = title
    self.type = type
    self.color = color
    self.entityMask = entityMask
    self.allowsContentModifications = allowsContentModifications
    self.isSubscribed = isSubscribed
    self.isImmutable = isImmutable
    self.availabilityMask = availabilityMask
    self.position = position
  }

  package init(row: Row) {
    id = row["id"]
    sourceId = row["sourceId"]
    title = row["title"]
    type = EKCalendarType(rawValue: row["type"]) ?? .local
    color = row["color"]
    entityMask = EKEntityMask(rawValue: row["entityMask"])
    allowsContentModifications = row["allowsContentModifications"]
    isSubscribed = row["isSubscribed"]
    isImmutable = row["isImmutable"]
    availabilityMask = EKCalendarEventAvailabilityMask(rawValue: row["availabilityMask"])
    position = row["position"]
  }

  package func encode(to container: inout PersistenceContainer) {
    container["id"] = id
    container["sourceId"] = sourceId
    container["title"] = title
    container["type"] = type.rawValue
    container["color"] = color
    container["entityMask"] = entityMask.rawValue
    container["allowsContentModifications"] = allowsContentModifications
    container["isSubscribed"] = isSubscribed
    container["isImmutable"] = isImmutable
    container["availabilityMask"] = availabilityMask.rawValue
    container["position"] = position
  }
}

/// One row of the `source` table.
struct SourceRecord: Hashable, Sendable, FetchableRecord {
  static let databaseTableName = "source"

  var id: String
  var title: String
  var type: EKSourceType
  var allowsCalendarAddDelete: Bool

  init(row: Row) {
    id = row["id"]
    title = row["title"]
    type = EKSourceType(rawValue: row["type"]) ?? .local
    allowsCalendarAddDelete = row["allowsCalendarAddDelete"]
  }
}

extension SourceRecord: TableRecord {}

// MARK: Reads

extension CalendarRecord {
  /// The first calendar (by position) with this title that holds `mask`'s items.
  static func first(_ db: Database, title: String, holding mask: EKEntityMask) throws
    -> CalendarRecord?
  {
    try fetchOne(
      db,
      sql: """
        SELECT * FROM calendar WHERE title = ? AND (entityMask & ?) != 0
        ORDER BY position LIMIT 1
        """,
      arguments: [title, mask.rawValue])
  }

  /// Whether the calendar is in the database. Every commit asks it of the calendars it writes
  /// to, so the statement is compiled once per connection.
  static func isPresent(_ db: Database, id: String) throws -> Bool {
    try Row.fetchOne(
      db.cachedStatement(sql: "SELECT 1 FROM calendar WHERE id = ?"), arguments: [id])
      != nil
  }

  /// The colours new calendars take in turn, by position, when nobody chose one.
  static let palette = [
    "#1BADF8", "#63DA38", "#FF2968", "#CC73E1", "#FF9500", "#A2845E", "#FFCC00",
  ]

  static func color(forPosition position: Int) -> String {
    palette[position % palette.count]
  }

  /// A colour as the store keeps it, `#RRGGBB` upper-cased, from a server's `#RRGGBB` or
  /// `#RRGGBBAA` (Apple's calendar-color); nil for anything else.
  package static func normalizedColor(_ text: String) -> String? {
    let digits = text.hasPrefix("#") ? text.dropFirst() : Substring(text)
    guard digits.count == 6 || digits.count == 8, digits.allSatisfy(\.isHexDigit) else {
      return nil
    }
    return "#" + digits.prefix(6).uppercased()
  }

  /// The position after every calendar's: where a new calendar goes.
  static func nextPosition(_ db: Database) throws -> Int {
    (try Int.fetchOne(db, sql: "SELECT MAX(position) FROM calendar") ?? 0) + 1
  }
}

extension SourceRecord {
  /// The first source (by position) of this type that allows adding calendars.
  static func firstAllowingCalendars(_ db: Database, type: EKSourceType) throws -> String? {
    try String.fetchOne(
      db,
      sql:
        "SELECT id FROM source WHERE type = ? AND allowsCalendarAddDelete ORDER BY position LIMIT 1",
      arguments: [type.rawValue])
  }
}

extension EKCalendarType {
  /// The type of a calendar made in a source of this type.
  init(madeIn source: EKSourceType) {
    switch source {
    case .subscribed: self = .subscription
    case .calDAV: self = .calDAV
    case .exchange: self = .exchange
    case .birthdays: self = .birthday
    case .local, .mobileMe: self = .local
    }
  }
}
