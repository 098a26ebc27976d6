import Foundation

// swift-format-ignore: AlwaysUseLowerCamelCase
/// The error domain of every ``EKError``.
public let EKErrorDomain = "EKErrorDomain"

/// An EventKit error: a code from Apple's list, with a message for a person in `userInfo`.
///
/// Built like Foundation's `CocoaError`, so that `catch EKError.noCalendar`, `error.code` and
/// bridging to `NSError` (`domain` `EKErrorDomain`, Apple's integer codes) all work as they do
/// with Apple's EventKit.
public struct EKError: _BridgedStoredNSError, @unchecked Sendable {
  public let _nsError: NSError

  public init(_nsError error: NSError) {
    precondition(error.domain == EKErrorDomain, "an EKError must be in EKErrorDomain")
    _nsError = error
  }

  public static var errorDomain: String { EKErrorDomain }
  public static var _nsErrorDomain: String { EKErrorDomain }

  public var hashValue: Int { _nsError.hashValue }

  /// An error with a message naming what is wrong (its `localizedDescription`).
  public init(_ code: Code, _ message: String) {
    self.init(code, userInfo: [NSLocalizedDescriptionKey: message])
  }

  /// Apple's error codes, with Apple's raw values.
  public enum Code: Int, _ErrorCodeProtocol, Sendable {
    public typealias _ErrorType = EKError

    case eventNotMutable = 0
    case noCalendar = 1
    case noStartDate = 2
    case noEndDate = 3
    case datesInverted = 4
    case internalFailure = 5
    case calendarReadOnly = 6
    case durationGreaterThanRecurrence = 7
    case alarmGreaterThanRecurrence = 8
    case startDateTooFarInFuture = 9
    case startDateCollidesWithOtherOccurrence = 10
    case objectBelongsToDifferentStore = 11
    case invitesCannotBeMoved = 12
    case invalidSpan = 13
    case calendarHasNoSource = 14
    case calendarSourceCannotBeModified = 15
    case calendarIsImmutable = 16
    case sourceDoesNotAllowCalendarAddDelete = 17
    case recurringReminderRequiresDueDate = 18
    case structuredLocationsNotSupported = 19
    case reminderLocationsNotSupported = 20
    case alarmProximityNotSupported = 21
    case calendarDoesNotAllowEvents = 22
    case calendarDoesNotAllowReminders = 23
    case sourceDoesNotAllowReminders = 24
    case sourceDoesNotAllowEvents = 25
    case priorityIsInvalid = 26
    case invalidEntityType = 27
    case procedureAlarmsNotMutable = 28
    case eventStoreNotAuthorized = 29
    case osNotSupported = 30
    case invalidInviteReplyCalendar = 31
    case notificationsCollectionFlagNotSet = 32
    case sourceMismatch = 33
    case notificationCollectionMismatch = 34
    case notificationSavedWithoutCollection = 35
    case reminderAlarmContainsEmailOrUrl = 36
    case last = 37
  }

  public static var eventNotMutable: Code { .eventNotMutable }
  public static var noCalendar: Code { .noCalendar }
  public static var noStartDate: Code { .noStartDate }
  public static var noEndDate: Code { .noEndDate }
  public static var datesInverted: Code { .datesInverted }
  public static var internalFailure: Code { .internalFailure }
  public static var calendarReadOnly: Code { .calendarReadOnly }
  public static var durationGreaterThanRecurrence: Code { .durationGreaterThanRecurrence }
  public static var alarmGreaterThanRecurrence: Code { .alarmGreaterThanRecurrence }
  public static var startDateTooFarInFuture: Code { .startDateTooFarInFuture }
  public static var startDateCollidesWithOtherOccurrence: Code {
    .startDateCollidesWithOtherOccurrence
  }
  public static var objectBelongsToDifferentStore: Code { .objectBelongsToDifferentStore }
  public static var invitesCannotBeMoved: Code { .invitesCannotBeMoved }
  public static var invalidSpan: Code { .invalidSpan }
  public static var calendarHasNoSource: Code { .calendarHasNoSource }
  public static var calendarSourceCannotBeModified: Code { .calendarSourceCannotBeModified }
  public static var calendarIsImmutable: Code { .calendarIsImmutable }
  public static var sourceDoesNotAllowCalendarAddDelete: Code {
    .sourceDoesNotAllowCalendarAddDelete
  }
  public static var recurringReminderRequiresDueDate: Code { .recurringReminderRequiresDueDate }
  public static var structuredLocationsNotSupported: Code { .structuredLocationsNotSupported }
  public static var reminderLocationsNotSupported: Code { .reminderLocationsNotSupported }
  public static var alarmProximityNotSupported: Code { .alarmProximityNotSupported }
  public static var calendarDoesNotAllowEvents: Code { .calendarDoesNotAllowEvents }
  public static var calendarDoesNotAllowReminders: Code { .calendarDoesNotAllowReminders }
  public static var sourceDoesNotAllowReminders: Code { .sourceDoesNotAllowReminders }
  public static var sourceDoesNotAllowEvents: Code { .sourceDoesNotAllowEvents }
  public static var priorityIsInvalid: Code { .priorityIsInvalid }
  public static var invalidEntityType: Code { .invalidEntityType }
  public static var procedureAlarmsNotMutable: Code { .procedureAlarmsNotMutable }
  public static var eventStoreNotAuthorized: Code { .eventStoreNotAuthorized }
  public static var osNotSupported: Code { .osNotSupported }
  public static var invalidInviteReplyCalendar: Code { .invalidInviteReplyCalendar }
  public static var notificationsCollectionFlagNotSet: Code { .notificationsCollectionFlagNotSet }
  public static var sourceMismatch: Code { .sourceMismatch }
  public static var notificationCollectionMismatch: Code { .notificationCollectionMismatch }
  public static var notificationSavedWithoutCollection: Code {
    .notificationSavedWithoutCollection
  }
  public static var reminderAlarmContainsEmailOrUrl: Code { .reminderAlarmContainsEmailOrUrl }
  public static var last: Code { .last }
}
