import Foundation

// EventKit's enumerations and option sets, with Apple's raw values, so that code that stores,
// compares or switches over them behaves as it does on Apple's platforms.

/// What kind of calendar item a calendar holds or an access request is for.
public enum EKEntityType: UInt, Sendable {
  case event = 0
  case reminder = 1
}

/// A set of entity types, such as the ones a calendar allows.
public struct EKEntityMask: OptionSet, Sendable, Hashable {
  public let rawValue: UInt
  public init(rawValue: UInt) { self.rawValue = rawValue }

  public static let event = EKEntityMask(rawValue: 1 << EKEntityType.event.rawValue)
  public static let reminder = EKEntityMask(rawValue: 1 << EKEntityType.reminder.rawValue)
}

/// Which occurrences of a repeating event a save or remove applies to.
public enum EKSpan: Int, Sendable {
  case thisEvent = 0
  case futureEvents = 1
}

/// The app's access to events or reminders.
public enum EKAuthorizationStatus: Int, Sendable {
  case notDetermined = 0
  case restricted = 1
  case denied = 2
  case fullAccess = 3
  case writeOnly = 4

  /// The status before write-only access existed; the same as ``fullAccess``.
  @available(*, deprecated, renamed: "fullAccess")
  public static var authorized: EKAuthorizationStatus { .fullAccess }
}

/// How an event shows the person's time: busy, free…
public enum EKEventAvailability: Int, Sendable {
  case notSupported = -1
  case busy = 0
  case free = 1
  case tentative = 2
  case unavailable = 3
}

/// An event's status (iCalendar STATUS).
public enum EKEventStatus: Int, Sendable {
  case none = 0
  case confirmed = 1
  case tentative = 2
  case canceled = 3
}

/// The kind of calendar.
public enum EKCalendarType: Int, Sendable {
  case local = 0
  case calDAV = 1
  case exchange = 2
  case subscription = 3
  case birthday = 4
}

/// The kind of account a source is. (Its order differs from ``EKCalendarType``'s, as Apple's.)
public enum EKSourceType: Int, Sendable {
  case local = 0
  case exchange = 1
  case calDAV = 2
  case mobileMe = 3
  case subscribed = 4
  case birthdays = 5
}

/// The event availabilities a calendar supports.
public struct EKCalendarEventAvailabilityMask: OptionSet, Sendable, Hashable {
  public let rawValue: UInt
  public init(rawValue: UInt) { self.rawValue = rawValue }

  public static let busy = EKCalendarEventAvailabilityMask(rawValue: 1)
  public static let free = EKCalendarEventAvailabilityMask(rawValue: 2)
  public static let tentative = EKCalendarEventAvailabilityMask(rawValue: 4)
  public static let unavailable = EKCalendarEventAvailabilityMask(rawValue: 8)
}

/// Whether a location alarm fires on arriving or on leaving.
public enum EKAlarmProximity: Int, Sendable {
  case none = 0
  case enter = 1
  case leave = 2
}

/// What an alarm does when it fires.
public enum EKAlarmType: Int, Sendable {
  case display = 0
  case audio = 1
  case procedure = 2
  case email = 3
}

/// An attendee's role (iCalendar ROLE).
public enum EKParticipantRole: Int, Sendable {
  case unknown = 0
  case required = 1
  case optional = 2
  case chair = 3
  case nonParticipant = 4
}

/// An attendee's answer (iCalendar PARTSTAT).
public enum EKParticipantStatus: Int, Sendable {
  case unknown = 0
  case pending = 1
  case accepted = 2
  case declined = 3
  case tentative = 4
  case delegated = 5
  case completed = 6
  case inProcess = 7
}

/// What an attendee is (iCalendar CUTYPE).
public enum EKParticipantType: Int, Sendable {
  case unknown = 0
  case person = 1
  case room = 2
  case resource = 3
  case group = 4
}

/// Where an invitation to an attendee stands.
public enum EKParticipantScheduleStatus: Int, Sendable {
  case none = 0
  case pending = 1
  case sent = 2
  case delivered = 3
  case recipientNotRecognized = 4
  case noPrivileges = 5
  case deliveryFailed = 6
  case cannotDeliver = 7
  case recipientNotAllowed = 8
}

/// The named reminder priorities; ``EKReminder`` stores priority as an `Int` from 0 to 9.
public enum EKReminderPriority: UInt, Sendable {
  case none = 0
  case high = 1
  case medium = 5
  case low = 9
}

/// How often a recurrence rule repeats.
public enum EKRecurrenceFrequency: Int, Sendable {
  case daily = 0
  case weekly = 1
  case monthly = 2
  case yearly = 3
}

/// A day of the week; Sunday is 1, as in Foundation's `Calendar`.
@frozen
public enum EKWeekday: Int, Sendable {
  case sunday = 1
  case monday = 2
  case tuesday = 3
  case wednesday = 4
  case thursday = 5
  case friday = 6
  case saturday = 7

  // swift-format-ignore: AlwaysUseLowerCamelCase
  @available(*, deprecated, renamed: "sunday")
  public static var EKSunday: EKWeekday { .sunday }
  // swift-format-ignore: AlwaysUseLowerCamelCase
  @available(*, deprecated, renamed: "monday")
  public static var EKMonday: EKWeekday { .monday }
  // swift-format-ignore: AlwaysUseLowerCamelCase
  @available(*, deprecated, renamed: "tuesday")
  public static var EKTuesday: EKWeekday { .tuesday }
  // swift-format-ignore: AlwaysUseLowerCamelCase
  @available(*, deprecated, renamed: "wednesday")
  public static var EKWednesday: EKWeekday { .wednesday }
  // swift-format-ignore: AlwaysUseLowerCamelCase
  @available(*, deprecated, renamed: "thursday")
  public static var EKThursday: EKWeekday { .thursday }
  // swift-format-ignore: AlwaysUseLowerCamelCase
  @available(*, deprecated, renamed: "friday")
  public static var EKFriday: EKWeekday { .friday }
  // swift-format-ignore: AlwaysUseLowerCamelCase
  @available(*, deprecated, renamed: "saturday")
  public static var EKSaturday: EKWeekday { .saturday }
}
