import Foundation

// swift-format-ignore: AlwaysUseLowerCamelCase
/// The error domain of every ``EKError``. See <doc:SavingAndBatching#When-a-save-is-refused>.
public let EKErrorDomain = "EKErrorDomain"

/// An EventKit error: a code from Apple's list, with a message for a person in `userInfo`.
///
/// Built like Foundation's `CocoaError`, so that `catch EKError.noCalendar`, `error.code` and
/// bridging to `NSError` (`domain` `EKErrorDomain`, Apple's integer codes) all work as they do
/// with Apple's EventKit.
///
/// Differs from Apple's: OpenEventKit reports only some of the codes, listed under each save and
/// remove; each message names what is wrong. See <doc:SavingAndBatching#When-a-save-is-refused>.
///
/// ```swift
/// do {
///   try store.save(event, span: .thisEvent)
/// } catch EKError.datesInverted {
///   print("The end is before the start.")
/// } catch let error as EKError {
///   print(error.code, error.localizedDescription)
/// }
/// ```
public struct EKError: _BridgedStoredNSError, @unchecked Sendable {
  /// The `NSError` the error wraps, in ``EKErrorDomain``.
  public let _nsError: NSError

  /// Wraps an `NSError` of ``EKErrorDomain``; any other domain stops the program.
  ///
  /// See <doc:SavingAndBatching#When-a-save-is-refused>.
  ///
  /// - Parameters:
  ///   - error: An error with domain ``EKErrorDomain``.
  public init(_nsError error: NSError) {
    precondition(error.domain == EKErrorDomain, "an EKError must be in EKErrorDomain")
    _nsError = error
  }

  /// ``EKErrorDomain``.
  public static var errorDomain: String { EKErrorDomain }
  /// ``EKErrorDomain``, for Foundation's bridging.
  public static var _nsErrorDomain: String { EKErrorDomain }

  /// The hash of the wrapped `NSError`.
  public var hashValue: Int { _nsError.hashValue }

  /// An error with a message naming what is wrong (its `localizedDescription`).
  ///
  /// An OpenEventKit addition, used by the store and by test doubles.
  ///
  /// See <doc:SavingAndBatching#When-a-save-is-refused>.
  ///
  /// - Parameters:
  ///   - code: What went wrong.
  ///   - message: A sentence for a person.
  ///
  /// ```swift
  /// let error = EKError(.calendarReadOnly, "The calendar \"Holidays\" is read-only.")
  /// ```
  public init(_ code: Code, _ message: String) {
    self.init(code, userInfo: [NSLocalizedDescriptionKey: message])
  }

  /// Apple's error codes, with Apple's raw values.
  ///
  /// See <doc:SavingAndBatching#When-a-save-is-refused>.
  public enum Code: Int, _ErrorCodeProtocol, Sendable {
    /// The error type the codes belong to, for `catch` patterns.
    public typealias _ErrorType = EKError

    /// The event cannot be changed. OpenEventKit never reports it.
    case eventNotMutable = 0
    /// The item has no calendar, or its calendar is gone; also a calendar to remove that is not in
    /// the store.
    case noCalendar = 1
    /// The event has no start date.
    case noStartDate = 2
    /// The event has no end date.
    case noEndDate = 3
    /// The event ends before it starts, or its recurrence ends before its first occurrence.
    case datesInverted = 4
    /// Anything else: a value the store cannot keep, an item never saved, a database that cannot be
    /// opened or refuses a write. The message says which.
    case internalFailure = 5
    /// The calendar does not allow changes to its items.
    case calendarReadOnly = 6
    /// A repeating event lasts longer than the time between its occurrences.
    case durationGreaterThanRecurrence = 7
    /// An alarm of a repeating event is further from its start than the time between occurrences.
    case alarmGreaterThanRecurrence = 8
    /// A date lies outside the years 1 to 9999, which the store keeps.
    case startDateTooFarInFuture = 9
    /// An occurrence would move to where another occurrence of its series starts.
    case startDateCollidesWithOtherOccurrence = 10
    /// The object was made by or fetched from another store.
    case objectBelongsToDifferentStore = 11
    /// An invitation cannot be moved to another calendar. OpenEventKit never reports it.
    case invitesCannotBeMoved = 12
    /// The span does not fit the change, as rules or the calendar changed with `.thisEvent`.
    case invalidSpan = 13
    /// The calendar has no source, or the store has no source to put it in.
    case calendarHasNoSource = 14
    /// A saved calendar cannot move to another source.
    case calendarSourceCannotBeModified = 15
    /// The calendar cannot be changed or removed.
    case calendarIsImmutable = 16
    /// The source does not allow adding or removing calendars.
    case sourceDoesNotAllowCalendarAddDelete = 17
    /// A repeating reminder needs a due date with a year, month and day.
    case recurringReminderRequiresDueDate = 18
    /// The calendar does not keep structured locations. OpenEventKit never reports it.
    case structuredLocationsNotSupported = 19
    /// The calendar does not keep locations of reminders. OpenEventKit never reports it.
    case reminderLocationsNotSupported = 20
    /// An alarm has a proximity but no location to watch.
    case alarmProximityNotSupported = 21
    /// The calendar holds reminders, not events.
    case calendarDoesNotAllowEvents = 22
    /// The calendar holds events, not reminders.
    case calendarDoesNotAllowReminders = 23
    /// The source keeps no reminders. OpenEventKit never reports it.
    case sourceDoesNotAllowReminders = 24
    /// The source keeps no events. OpenEventKit never reports it.
    case sourceDoesNotAllowEvents = 25
    /// A reminder's priority is not between 0 and 9.
    case priorityIsInvalid = 26
    /// The entity type does not fit the request, as write-only access to reminders.
    case invalidEntityType = 27
    /// An alarm opens a URL, which the store does not keep.
    case procedureAlarmsNotMutable = 28
    /// The app lacks the access the call needs, or its request for access failed.
    case eventStoreNotAuthorized = 29
    /// The system does not support the call. OpenEventKit never reports it.
    case osNotSupported = 30
    /// The calendar for invitation replies is not valid. OpenEventKit never reports it.
    case invalidInviteReplyCalendar = 31
    /// Apple's notifications collection is not set up. OpenEventKit never reports it.
    case notificationsCollectionFlagNotSet = 32
    /// The objects come from different sources. OpenEventKit never reports it.
    case sourceMismatch = 33
    /// The notifications collection does not match. OpenEventKit never reports it.
    case notificationCollectionMismatch = 34
    /// A notification was saved without its collection. OpenEventKit never reports it.
    case notificationSavedWithoutCollection = 35
    /// A reminder's alarm sends email or opens a URL.
    case reminderAlarmContainsEmailOrUrl = 36
    /// The number of codes, a marker for Apple's internal use. OpenEventKit never reports it.
    case last = 37
  }

  /// ``Code/eventNotMutable``, for `catch EKError.eventNotMutable`.
  ///
  /// See <doc:SavingAndBatching#When-a-save-is-refused>.
  public static var eventNotMutable: Code { .eventNotMutable }
  /// ``Code/noCalendar``, for `catch EKError.noCalendar`.
  ///
  /// See <doc:SavingAndBatching#When-a-save-is-refused>.
  public static var noCalendar: Code { .noCalendar }
  /// ``Code/noStartDate``, for `catch EKError.noStartDate`.
  ///
  /// See <doc:SavingAndBatching#When-a-save-is-refused>.
  public static var noStartDate: Code { .noStartDate }
  /// ``Code/noEndDate``, for `catch EKError.noEndDate`.
  ///
  /// See <doc:SavingAndBatching#When-a-save-is-refused>.
  public static var noEndDate: Code { .noEndDate }
  /// ``Code/datesInverted``, for `catch EKError.datesInverted`.
  ///
  /// See <doc:SavingAndBatching#When-a-save-is-refused>.
  public static var datesInverted: Code { .datesInverted }
  /// ``Code/internalFailure``, for `catch EKError.internalFailure`.
  ///
  /// See <doc:SavingAndBatching#When-a-save-is-refused>.
  public static var internalFailure: Code { .internalFailure }
  /// ``Code/calendarReadOnly``, for `catch EKError.calendarReadOnly`.
  ///
  /// See <doc:SavingAndBatching#When-a-save-is-refused>.
  public static var calendarReadOnly: Code { .calendarReadOnly }
  /// ``Code/durationGreaterThanRecurrence``, for `catch EKError.durationGreaterThanRecurrence`.
  ///
  /// See <doc:SavingAndBatching#When-a-save-is-refused>.
  public static var durationGreaterThanRecurrence: Code { .durationGreaterThanRecurrence }
  /// ``Code/alarmGreaterThanRecurrence``, for `catch EKError.alarmGreaterThanRecurrence`.
  ///
  /// See <doc:SavingAndBatching#When-a-save-is-refused>.
  public static var alarmGreaterThanRecurrence: Code { .alarmGreaterThanRecurrence }
  /// ``Code/startDateTooFarInFuture``, for `catch EKError.startDateTooFarInFuture`.
  ///
  /// See <doc:SavingAndBatching#When-a-save-is-refused>.
  public static var startDateTooFarInFuture: Code { .startDateTooFarInFuture }
  /// ``Code/startDateCollidesWithOtherOccurrence``, for `catch
  /// EKError.startDateCollidesWithOtherOccurrence`.
  ///
  /// See <doc:SavingAndBatching#When-a-save-is-refused>.
  public static var startDateCollidesWithOtherOccurrence: Code {
    .startDateCollidesWithOtherOccurrence
  }
  /// ``Code/objectBelongsToDifferentStore``, for `catch EKError.objectBelongsToDifferentStore`.
  ///
  /// See <doc:SavingAndBatching#When-a-save-is-refused>.
  public static var objectBelongsToDifferentStore: Code { .objectBelongsToDifferentStore }
  /// ``Code/invitesCannotBeMoved``, for `catch EKError.invitesCannotBeMoved`.
  ///
  /// See <doc:SavingAndBatching#When-a-save-is-refused>.
  public static var invitesCannotBeMoved: Code { .invitesCannotBeMoved }
  /// ``Code/invalidSpan``, for `catch EKError.invalidSpan`.
  ///
  /// See <doc:SavingAndBatching#When-a-save-is-refused>.
  public static var invalidSpan: Code { .invalidSpan }
  /// ``Code/calendarHasNoSource``, for `catch EKError.calendarHasNoSource`.
  ///
  /// See <doc:SavingAndBatching#When-a-save-is-refused>.
  public static var calendarHasNoSource: Code { .calendarHasNoSource }
  /// ``Code/calendarSourceCannotBeModified``, for `catch EKError.calendarSourceCannotBeModified`.
  ///
  /// See <doc:SavingAndBatching#When-a-save-is-refused>.
  public static var calendarSourceCannotBeModified: Code { .calendarSourceCannotBeModified }
  /// ``Code/calendarIsImmutable``, for `catch EKError.calendarIsImmutable`.
  ///
  /// See <doc:SavingAndBatching#When-a-save-is-refused>.
  public static var calendarIsImmutable: Code { .calendarIsImmutable }
  /// ``Code/sourceDoesNotAllowCalendarAddDelete``, for `catch
  /// EKError.sourceDoesNotAllowCalendarAddDelete`.
  ///
  /// See <doc:SavingAndBatching#When-a-save-is-refused>.
  public static var sourceDoesNotAllowCalendarAddDelete: Code {
    .sourceDoesNotAllowCalendarAddDelete
  }
  /// ``Code/recurringReminderRequiresDueDate``, for `catch
  /// EKError.recurringReminderRequiresDueDate`.
  ///
  /// See <doc:SavingAndBatching#When-a-save-is-refused>.
  public static var recurringReminderRequiresDueDate: Code { .recurringReminderRequiresDueDate }
  /// ``Code/structuredLocationsNotSupported``, for `catch EKError.structuredLocationsNotSupported`.
  ///
  /// See <doc:SavingAndBatching#When-a-save-is-refused>.
  public static var structuredLocationsNotSupported: Code { .structuredLocationsNotSupported }
  /// ``Code/reminderLocationsNotSupported``, for `catch EKError.reminderLocationsNotSupported`.
  ///
  /// See <doc:SavingAndBatching#When-a-save-is-refused>.
  public static var reminderLocationsNotSupported: Code { .reminderLocationsNotSupported }
  /// ``Code/alarmProximityNotSupported``, for `catch EKError.alarmProximityNotSupported`.
  ///
  /// See <doc:SavingAndBatching#When-a-save-is-refused>.
  public static var alarmProximityNotSupported: Code { .alarmProximityNotSupported }
  /// ``Code/calendarDoesNotAllowEvents``, for `catch EKError.calendarDoesNotAllowEvents`.
  ///
  /// See <doc:SavingAndBatching#When-a-save-is-refused>.
  public static var calendarDoesNotAllowEvents: Code { .calendarDoesNotAllowEvents }
  /// ``Code/calendarDoesNotAllowReminders``, for `catch EKError.calendarDoesNotAllowReminders`.
  ///
  /// See <doc:SavingAndBatching#When-a-save-is-refused>.
  public static var calendarDoesNotAllowReminders: Code { .calendarDoesNotAllowReminders }
  /// ``Code/sourceDoesNotAllowReminders``, for `catch EKError.sourceDoesNotAllowReminders`.
  ///
  /// See <doc:SavingAndBatching#When-a-save-is-refused>.
  public static var sourceDoesNotAllowReminders: Code { .sourceDoesNotAllowReminders }
  /// ``Code/sourceDoesNotAllowEvents``, for `catch EKError.sourceDoesNotAllowEvents`.
  ///
  /// See <doc:SavingAndBatching#When-a-save-is-refused>.
  public static var sourceDoesNotAllowEvents: Code { .sourceDoesNotAllowEvents }
  /// ``Code/priorityIsInvalid``, for `catch EKError.priorityIsInvalid`.
  ///
  /// See <doc:SavingAndBatching#When-a-save-is-refused>.
  public static var priorityIsInvalid: Code { .priorityIsInvalid }
  /// ``Code/invalidEntityType``, for `catch EKError.invalidEntityType`.
  ///
  /// See <doc:Privacy#Changing-a-decision>.
  public static var invalidEntityType: Code { .invalidEntityType }
  /// ``Code/procedureAlarmsNotMutable``, for `catch EKError.procedureAlarmsNotMutable`.
  ///
  /// See <doc:SavingAndBatching#When-a-save-is-refused>.
  public static var procedureAlarmsNotMutable: Code { .procedureAlarmsNotMutable }
  /// ``Code/eventStoreNotAuthorized``, for `catch EKError.eventStoreNotAuthorized`.
  ///
  /// See <doc:Privacy#What-the-store-enforces>.
  public static var eventStoreNotAuthorized: Code { .eventStoreNotAuthorized }
  /// ``Code/osNotSupported``, for `catch EKError.osNotSupported`.
  ///
  /// See <doc:SavingAndBatching#When-a-save-is-refused>.
  public static var osNotSupported: Code { .osNotSupported }
  /// ``Code/invalidInviteReplyCalendar``, for `catch EKError.invalidInviteReplyCalendar`.
  ///
  /// See <doc:SavingAndBatching#When-a-save-is-refused>.
  public static var invalidInviteReplyCalendar: Code { .invalidInviteReplyCalendar }
  /// ``Code/notificationsCollectionFlagNotSet``, for `catch
  /// EKError.notificationsCollectionFlagNotSet`.
  ///
  /// See <doc:SavingAndBatching#When-a-save-is-refused>.
  public static var notificationsCollectionFlagNotSet: Code { .notificationsCollectionFlagNotSet }
  /// ``Code/sourceMismatch``, for `catch EKError.sourceMismatch`.
  ///
  /// See <doc:SavingAndBatching#When-a-save-is-refused>.
  public static var sourceMismatch: Code { .sourceMismatch }
  /// ``Code/notificationCollectionMismatch``, for `catch EKError.notificationCollectionMismatch`.
  ///
  /// See <doc:SavingAndBatching#When-a-save-is-refused>.
  public static var notificationCollectionMismatch: Code { .notificationCollectionMismatch }
  /// ``Code/notificationSavedWithoutCollection``, for `catch
  /// EKError.notificationSavedWithoutCollection`.
  ///
  /// See <doc:SavingAndBatching#When-a-save-is-refused>.
  public static var notificationSavedWithoutCollection: Code {
    .notificationSavedWithoutCollection
  }
  /// ``Code/reminderAlarmContainsEmailOrUrl``, for `catch EKError.reminderAlarmContainsEmailOrUrl`.
  ///
  /// See <doc:SavingAndBatching#When-a-save-is-refused>.
  public static var reminderAlarmContainsEmailOrUrl: Code { .reminderAlarmContainsEmailOrUrl }
  /// ``Code/last``, for `catch EKError.last`. See <doc:SavingAndBatching#When-a-save-is-refused>.
  public static var last: Code { .last }
}
