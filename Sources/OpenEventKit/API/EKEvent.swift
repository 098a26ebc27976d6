import Foundation

/// An event in a calendar: a single event, or one occurrence of a repeating one.
///
/// A fetch returns one `EKEvent` per occurrence in the range asked for; each has its own
/// `startDate` and `endDate`, its `occurrenceDate` (the instance's original start), and the
/// series' `eventIdentifier`.
///
/// See <doc:Learn> and <doc:FetchingEvents>.
open class EKEvent: EKCalendarItem, @unchecked Sendable {
  /// The original start of the instance this event stands for; nil for a new event.
  var occurrenceStart: Date?
  /// Sorts fetched events by start without converting dates.
  var startKey = 0

  /// A new event for `eventStore`: no calendar and no title yet (both nil, as in EventKit),
  /// in the current time zone.
  ///
  /// See <doc:SavingAndBatching#Saving-an-event>.
  ///
  /// - Parameters:
  ///   - eventStore: The store that will save the event.
  ///
  /// ```swift
  /// let event = EKEvent(eventStore: store)
  /// event.calendar = store.defaultCalendarForNewEvents
  /// ```
  public convenience init(eventStore: EKEventStore) {
    var values = ItemValues(calendarId: nil)
    values.timeZone = TimeZone.current.identifier
    self.init(eventStore: eventStore, kind: .event, values: values)
  }

  /// The event's identifier, nil until it is saved. Every occurrence of a repeating event has
  /// the series' identifier.
  ///
  /// See <doc:Identifiers>.
  open var eventIdentifier: String! { saved == nil ? nil : identity.id }

  /// Whether the event takes whole days: its times are read as days, in no time zone. See
  /// <doc:FetchingEvents#All-day-events>.
  open var isAllDay: Bool {
    get { values.isAllDay }
    set { values.isAllDay = newValue }
  }

  /// When the event (or this occurrence) starts; nil on a new event until set. See
  /// <doc:FetchingEvents>.
  open var startDate: Date! {
    get { values.startDate }
    set { values.startDate = newValue }
  }

  /// When the event (or this occurrence) ends; nil on a new event until set. See
  /// <doc:FetchingEvents>.
  open var endDate: Date! {
    get { values.endDate }
    set { values.endDate = newValue }
  }

  /// The event's zone; nil for a floating event and for every all-day event.
  ///
  /// See <doc:FetchingEvents#Zoned-events>.
  open override var timeZone: TimeZone? {
    get { values.isAllDay ? nil : super.timeZone }
    set { super.timeZone = newValue }
  }

  /// The place of the event, with a title and optional coordinates; set as a copy
  /// (`@NSCopying` in Apple's header). See <doc:Learn>.
  open var structuredLocation: EKStructuredLocation? {
    get { structuredLocationObject }
    set { structuredLocationObject = newValue }
  }

  /// How the event shows the person's time to others (busy, free…). See <doc:Learn>.
  open var availability: EKEventAvailability {
    get { values.availability }
    set { values.availability = newValue }
  }

  /// The event's status from its invitation (iCalendar STATUS); `.none` for events made here.
  /// Read-only. See <doc:ICalendarFiles>.
  open var status: EKEventStatus { values.status }

  /// Who sent the invitation; nil for an event made here. Read-only: it comes from an imported
  /// invitation. See <doc:ICalendarFiles>.
  open var organizer: EKParticipant? {
    values.participants.first(where: \.isOrganizer).map(EKParticipant.init(values:))
  }

  /// The instance's original start: for a repeating event, where the rule put it, even when
  /// the occurrence was moved; for a single event, its start.
  ///
  /// See <doc:RecurringEvents>.
  open var occurrenceDate: Date! { occurrenceStart ?? values.startDate }

  /// Whether this occurrence was changed apart from its series (saved with `.thisEvent`).
  ///
  /// See <doc:RecurringEvents>.
  open var isDetached: Bool { storedRecord?.isDetached ?? false }

  /// Birthdays come from Contacts, which OpenEventKit does not read.
  ///
  /// Differs from Apple's: always nil. See <doc:Learn>.
  open var birthdayContactIdentifier: String? { nil }

  /// Orders events by start date, as `sort` with EventKit expects.
  ///
  /// An event without a start date comes first. See <doc:FetchingEvents#Order>.
  ///
  /// - Parameters:
  ///   - other: The event to compare with.
  /// - Returns: `.orderedAscending` when this event starts first.
  ///
  /// ```swift
  /// let sorted = events.sorted { $0.compareStartDate(with: $1) == .orderedAscending }
  /// ```
  open func compareStartDate(with other: EKEvent) -> ComparisonResult {
    switch (startDate, other.startDate) {
    case (let a?, let b?): a.compare(b)
    case (nil, nil): .orderedSame
    case (nil, _): .orderedAscending
    case (_, nil): .orderedDescending
    }
  }

  /// Reloads the event from the store, keeping the fields changed here and not yet saved. See
  /// <doc:SavingAndBatching>.
  ///
  /// - Returns: False when the event, or this occurrence, no longer exists in the store.
  @discardableResult
  open override func refresh() -> Bool { super.refresh() }

  override var occurrenceKey: Date? { occurrenceStart }

  /// A short summary for debugging: title, dates and rules.
  open override var description: String {
    let start = values.startDate.map { "\($0)" } ?? "nil"
    let end = values.endDate.map { "\($0)" } ?? "nil"
    return "EKEvent(title: \(values.title ?? "nil"), startDate: \(start), endDate: \(end)"
      + (values.isAllDay ? ", allDay" : "")
      + (values.rules.isEmpty ? "" : ", \(values.rules.count) rule(s)") + ")"
  }
}
