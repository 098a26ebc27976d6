import Foundation

// EventKit's enumerations and option sets, with Apple's raw values, so that code that stores,
// compares or switches over them behaves as it does on Apple's platforms.

/// What kind of calendar item a calendar holds or an access request is for.
///
/// See <doc:Privacy#Requesting-access>.
public enum EKEntityType: UInt, Sendable {
  /// Events, in calendars.
  case event = 0
  /// Reminders, in lists.
  case reminder = 1
}

/// A set of entity types, such as the ones a calendar allows. See <doc:Learn>.
public struct EKEntityMask: OptionSet, Sendable, Hashable {
  /// The bits: 1 for events, 2 for reminders. See <doc:EventKitCompatibility#EKEntityMask>.
  public let rawValue: UInt
  /// A set from its bits.
  ///
  /// See <doc:EventKitCompatibility#EKEntityMask>.
  ///
  /// - Parameters:
  ///   - rawValue: 1 for events, 2 for reminders, 3 for both.
  public init(rawValue: UInt) { self.rawValue = rawValue }

  /// Events. See <doc:EventKitCompatibility#EKEntityMask>.
  public static let event = EKEntityMask(rawValue: 1 << EKEntityType.event.rawValue)
  /// Reminders. See <doc:EventKitCompatibility#EKEntityMask>.
  public static let reminder = EKEntityMask(rawValue: 1 << EKEntityType.reminder.rawValue)
}

/// Which occurrences of a repeating event a save or remove applies to. See <doc:RecurringEvents>.
public enum EKSpan: Int, Sendable {
  /// This occurrence only (or the whole event, when it does not repeat).
  case thisEvent = 0
  /// This occurrence and every later one of the series.
  case futureEvents = 1
}

/// The app's access to events or reminders. See <doc:Privacy#Handling-every-status>.
public enum EKAuthorizationStatus: Int, Sendable {
  /// The person has not decided yet: the app may request access.
  case notDetermined = 0
  /// Access cannot be granted, and the person cannot change that.
  case restricted = 1
  /// The person refused access.
  case denied = 2
  /// The app may read and change the items.
  case fullAccess = 3
  /// The app may add events, but read none.
  case writeOnly = 4

  /// The status before write-only access existed; the same as ``fullAccess``.
  ///
  /// See <doc:Privacy#Code-from-before-iOS-17>.
  @available(*, deprecated, renamed: "fullAccess")
  public static var authorized: EKAuthorizationStatus { .fullAccess }
}

/// How an event shows the person's time: busy, free… See <doc:Learn>.
public enum EKEventAvailability: Int, Sendable {
  /// The calendar does not record availability.
  case notSupported = -1
  /// The person is busy.
  case busy = 0
  /// The person is free.
  case free = 1
  /// The person may be busy.
  case tentative = 2
  /// The person is away.
  case unavailable = 3
}

/// An event's status (iCalendar STATUS). See <doc:ICalendarFiles>.
public enum EKEventStatus: Int, Sendable {
  /// No status given.
  case none = 0
  /// The event takes place.
  case confirmed = 1
  /// The event is not confirmed yet.
  case tentative = 2
  /// The event was called off.
  case canceled = 3
}

/// The kind of calendar. See <doc:Learn>.
public enum EKCalendarType: Int, Sendable {
  /// A calendar kept only in this store.
  case local = 0
  /// A calendar of a CalDAV account (<doc:Sync>).
  case calDAV = 1
  /// An Exchange calendar; OpenEventKit makes none.
  case exchange = 2
  /// A read-only subscribed calendar.
  case subscription = 3
  /// The birthdays from contacts; OpenEventKit makes none.
  case birthday = 4
}

/// The kind of account a source is. (Its order differs from ``EKCalendarType``'s, as Apple's.)
///
/// See <doc:Sync>.
public enum EKSourceType: Int, Sendable {
  /// The store's own source, on this machine.
  case local = 0
  /// An Exchange account; OpenEventKit has none.
  case exchange = 1
  /// A CalDAV account.
  case calDAV = 2
  /// Apple's old MobileMe accounts; OpenEventKit has none.
  case mobileMe = 3
  /// Subscribed calendars.
  case subscribed = 4
  /// Birthdays from contacts; OpenEventKit has none.
  case birthdays = 5
}

/// The event availabilities a calendar supports. See <doc:EventKitCompatibility#EKCalendarEventAvailabilityMask>.
public struct EKCalendarEventAvailabilityMask: OptionSet, Sendable, Hashable {
  /// The bits: 1 busy, 2 free, 4 tentative, 8 unavailable. See <doc:EventKitCompatibility#EKCalendarEventAvailabilityMask>.
  public let rawValue: UInt
  /// A set from its bits.
  ///
  /// See <doc:EventKitCompatibility#EKCalendarEventAvailabilityMask>.
  ///
  /// - Parameters:
  ///   - rawValue: 1 busy, 2 free, 4 tentative, 8 unavailable, or a sum of them.
  public init(rawValue: UInt) { self.rawValue = rawValue }

  /// Events may be busy. See <doc:EventKitCompatibility#EKCalendarEventAvailabilityMask>.
  public static let busy = EKCalendarEventAvailabilityMask(rawValue: 1)
  /// Events may be free. See <doc:EventKitCompatibility#EKCalendarEventAvailabilityMask>.
  public static let free = EKCalendarEventAvailabilityMask(rawValue: 2)
  /// Events may be tentative. See <doc:EventKitCompatibility#EKCalendarEventAvailabilityMask>.
  public static let tentative = EKCalendarEventAvailabilityMask(rawValue: 4)
  /// Events may be unavailable. See <doc:EventKitCompatibility#EKCalendarEventAvailabilityMask>.
  public static let unavailable = EKCalendarEventAvailabilityMask(rawValue: 8)
}

/// Whether a location alarm fires on arriving or on leaving. See <doc:Learn>.
public enum EKAlarmProximity: Int, Sendable {
  /// Not a location alarm.
  case none = 0
  /// On arriving at the place.
  case enter = 1
  /// On leaving the place.
  case leave = 2
}

/// What an alarm does when it fires. See <doc:Learn>.
public enum EKAlarmType: Int, Sendable {
  /// Shows a message.
  case display = 0
  /// Plays a sound (``EKAlarm/soundName``).
  case audio = 1
  /// Opens a URL; saving it is refused.
  case procedure = 2
  /// Sends an email (``EKAlarm/emailAddress``).
  case email = 3
}

/// An attendee's role (iCalendar ROLE). See <doc:ICalendarFiles>.
public enum EKParticipantRole: Int, Sendable {
  /// No role given.
  case unknown = 0
  /// Expected to attend.
  case required = 1
  /// Welcome, not expected.
  case optional = 2
  /// Leads the meeting.
  case chair = 3
  /// Told about the event, not attending.
  case nonParticipant = 4
}

/// An attendee's answer (iCalendar PARTSTAT). See <doc:ICalendarFiles>.
public enum EKParticipantStatus: Int, Sendable {
  /// No answer known.
  case unknown = 0
  /// Not answered yet.
  case pending = 1
  /// Accepted.
  case accepted = 2
  /// Declined.
  case declined = 3
  /// Accepted tentatively.
  case tentative = 4
  /// Passed on to someone else.
  case delegated = 5
  /// Done (for a to-do).
  case completed = 6
  /// Under way (for a to-do).
  case inProcess = 7
}

/// What an attendee is (iCalendar CUTYPE). See <doc:ICalendarFiles>.
public enum EKParticipantType: Int, Sendable {
  /// Not given.
  case unknown = 0
  /// A person.
  case person = 1
  /// A room.
  case room = 2
  /// Equipment or another resource.
  case resource = 3
  /// A group of people.
  case group = 4
}

/// Where an invitation to an attendee stands.
///
/// Declared for compatibility: no property of OpenEventKit returns it. See <doc:ICalendarFiles>.
public enum EKParticipantScheduleStatus: Int, Sendable {
  /// No invitation sent.
  case none = 0
  /// Waiting to be sent.
  case pending = 1
  /// Sent.
  case sent = 2
  /// Delivered.
  case delivered = 3
  /// The recipient's address is unknown.
  case recipientNotRecognized = 4
  /// The sender may not invite this recipient.
  case noPrivileges = 5
  /// Delivery failed.
  case deliveryFailed = 6
  /// No way to deliver it.
  case cannotDeliver = 7
  /// The recipient may not be invited.
  case recipientNotAllowed = 8
}

/// The named reminder priorities; ``EKReminder`` stores priority as an `Int` from 0 to 9.
///
/// See <doc:FetchingEvents#Reminders>.
public enum EKReminderPriority: UInt, Sendable {
  /// No priority: 0.
  case none = 0
  /// High: 1.
  case high = 1
  /// Medium: 5.
  case medium = 5
  /// Low: 9.
  case low = 9
}

/// How often a recurrence rule repeats. See <doc:RecurringEvents>.
public enum EKRecurrenceFrequency: Int, Sendable {
  /// Every day (FREQ=DAILY).
  case daily = 0
  /// Every week (FREQ=WEEKLY).
  case weekly = 1
  /// Every month (FREQ=MONTHLY).
  case monthly = 2
  /// Every year (FREQ=YEARLY).
  case yearly = 3
}

/// A day of the week; Sunday is 1, as in Foundation's `Calendar`. See <doc:RecurringEvents>.
@frozen
public enum EKWeekday: Int, Sendable {
  /// Sunday, 1.
  case sunday = 1
  /// Monday, 2.
  case monday = 2
  /// Tuesday, 3.
  case tuesday = 3
  /// Wednesday, 4.
  case wednesday = 4
  /// Thursday, 5.
  case thursday = 5
  /// Friday, 6.
  case friday = 6
  /// Saturday, 7.
  case saturday = 7

  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// The old name of ``sunday``; deprecated, as Apple's is. See <doc:EventKitCompatibility#EKWeekday>.
  @available(*, deprecated, renamed: "sunday")
  public static var EKSunday: EKWeekday { .sunday }
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// The old name of ``monday``; deprecated, as Apple's is. See <doc:EventKitCompatibility#EKWeekday>.
  @available(*, deprecated, renamed: "monday")
  public static var EKMonday: EKWeekday { .monday }
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// The old name of ``tuesday``; deprecated, as Apple's is. See <doc:EventKitCompatibility#EKWeekday>.
  @available(*, deprecated, renamed: "tuesday")
  public static var EKTuesday: EKWeekday { .tuesday }
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// The old name of ``wednesday``; deprecated, as Apple's is. See <doc:EventKitCompatibility#EKWeekday>.
  @available(*, deprecated, renamed: "wednesday")
  public static var EKWednesday: EKWeekday { .wednesday }
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// The old name of ``thursday``; deprecated, as Apple's is. See <doc:EventKitCompatibility#EKWeekday>.
  @available(*, deprecated, renamed: "thursday")
  public static var EKThursday: EKWeekday { .thursday }
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// The old name of ``friday``; deprecated, as Apple's is. See <doc:EventKitCompatibility#EKWeekday>.
  @available(*, deprecated, renamed: "friday")
  public static var EKFriday: EKWeekday { .friday }
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// The old name of ``saturday``; deprecated, as Apple's is. See <doc:EventKitCompatibility#EKWeekday>.
  @available(*, deprecated, renamed: "saturday")
  public static var EKSaturday: EKWeekday { .saturday }
}
