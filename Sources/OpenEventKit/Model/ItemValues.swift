import Foundation
import ICalendar

/// Everything a calendar item (event or reminder) holds that a person can change, as plain
/// values: what `EKEvent` and `EKReminder` edit, what the store writes, and what `hasChanges`
/// compares against the last saved state.
///
/// Dates are instants. A floating or all-day event's instants are its wall-clock readings in
/// the current time zone, recomputed whenever it is read from the database, as Apple's are.
///
/// A fetch makes one object per occurrence, all alike but for their dates; so the dates are
/// kept inline and the other fields in one shared, copy-on-write ``ItemFields`` storage:
/// copying values costs one reference, not one per string and list.
@dynamicMemberLookup
struct ItemValues: Hashable, Sendable {
  var startDate: Date?
  var endDate: Date?
  private var storage: Storage

  init(calendarId: String?) {
    storage = Storage(ItemFields(calendarId: calendarId))
  }

  /// Values made whole at once: cheaper than setting fields one by one, each of which checks
  /// that the storage is not shared.
  init(fields: ItemFields, startDate: Date?, endDate: Date?) {
    storage = Storage(fields)
    self.startDate = startDate
    self.endDate = endDate
  }

  subscript<Value>(dynamicMember field: WritableKeyPath<ItemFields, Value>) -> Value {
    get { storage.fields[keyPath: field] }
    set {
      if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.fields) }
      storage.fields[keyPath: field] = newValue
    }
  }

  static func == (lhs: ItemValues, rhs: ItemValues) -> Bool {
    lhs.startDate == rhs.startDate && lhs.endDate == rhs.endDate
      && (lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields)
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(startDate)
    hasher.combine(endDate)
    hasher.combine(storage.fields)
  }

  /// The latest saved values with the fields changed locally (`current` differing from
  /// `saved`) kept: what `refresh()` leaves, as EventKit's "unloads all properties that have
  /// not been modified".
  static func merging(_ current: ItemValues, saved: ItemValues, latest: ItemValues) -> ItemValues {
    var result = latest
    if current.startDate != saved.startDate { result.startDate = current.startDate }
    if current.endDate != saved.endDate { result.endDate = current.endDate }
    func keep<Value: Equatable>(_ field: WritableKeyPath<ItemFields, Value>) {
      if current[dynamicMember: field] != saved[dynamicMember: field] {
        result[dynamicMember: field] = current[dynamicMember: field]
      }
    }
    keep(\.calendarId)
    keep(\.title)
    keep(\.location)
    keep(\.notes)
    keep(\.url)
    keep(\.timeZone)
    keep(\.isAllDay)
    keep(\.availability)
    keep(\.status)
    keep(\.rules)
    keep(\.alarms)
    keep(\.structuredLocation)
    keep(\.participants)
    keep(\.startComponents)
    keep(\.dueComponents)
    keep(\.isCompleted)
    keep(\.completionDate)
    keep(\.priority)
    return result
  }

  private final class Storage: @unchecked Sendable {
    var fields: ItemFields
    init(_ fields: ItemFields) { self.fields = fields }
  }
}

/// The fields of ``ItemValues`` other than the dates.
struct ItemFields: Hashable, Sendable {
  var calendarId: String?
  var title: String?
  var location: String?
  var notes: String?
  var url: URL?
  /// The event's zone identifier; nil for a floating event or any all-day event.
  var timeZone: String?
  var isAllDay = false
  var availability = EKEventAvailability.busy
  var status = EKEventStatus.none
  var rules: [RuleValues] = []
  var alarms: [AlarmValues] = []
  var structuredLocation: LocationValues?
  /// Read-only through the API: set by import (issue #8).
  var participants: [ParticipantValues] = []
  // Reminders.
  var startComponents: DateComponents?
  var dueComponents: DateComponents?
  var isCompleted = false
  var completionDate: Date?
  var priority = 0
}

/// How an item is known, fixed once it is saved.
struct ItemIdentity: Hashable, Sendable {
  /// `calendarItemIdentifier`, the row's key; for an event also its `eventIdentifier`.
  var id: String
  /// `calendarItemExternalIdentifier`: the iCalendar UID.
  var uid: String
  var createdAt: Date
  var modifiedAt: Date

  static func new(kind: EKEntityType, now: Date = Date()) -> ItemIdentity {
    let id = Identifier.make()
    return ItemIdentity(
      id: id, uid: id,
      createdAt: now.wholeSeconds, modifiedAt: now.wholeSeconds)
  }
}

/// A recurrence rule as an item holds it: the RFC 5545 rule without its end, and the end as
/// EventKit states it. The end becomes COUNT or UNTIL when the item is written, because UNTIL
/// must match the kind of DTSTART (§3.3.10): UTC for a zoned start, a DATE for an all-day one.
struct RuleValues: Hashable, Sendable {
  var rule: RecurrenceRule
  var end: End?

  enum End: Hashable, Sendable {
    case count(Int)
    case date(Date)
  }
}

/// An alarm: a relative offset from the start (or due date), or an absolute date, optionally
/// tied to a place.
struct AlarmValues: Hashable, Sendable {
  var relativeOffset: TimeInterval = 0
  var absoluteDate: Date?
  var proximity = EKAlarmProximity.none
  var location: LocationValues?
  var emailAddress: String?
  var soundName: String?
  var url: URL?
  /// The VALARM's content lines other than TRIGGER, from an imported file, written back on
  /// export (issue #8).
  var kept: [String] = []
}

/// A place: a title and, optionally, coordinates and a radius in metres (0: the default).
struct LocationValues: Hashable, Sendable, Decodable {
  var title: String?
  var latitude: Double?
  var longitude: Double?
  var radius: Double = 0
}

/// An attendee or the organizer of an event (read-only through the API).
struct ParticipantValues: Hashable, Sendable {
  var url: URL
  var name: String?
  var role = EKParticipantRole.unknown
  var status = EKParticipantStatus.unknown
  var type = EKParticipantType.unknown
  var isCurrentUser = false
  var isOrganizer = false
  /// The ATTENDEE or ORGANIZER line it was imported from, written back on export as it was.
  var contentLine: String?
}

extension Date {
  /// The date without its fractional second: the store keeps whole seconds, as Apple's does.
  var wholeSeconds: Date {
    Date(timeIntervalSince1970: timeIntervalSince1970.rounded(.down))
  }
}
