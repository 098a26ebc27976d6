import Foundation

/// An event in a calendar: a single event, or one occurrence of a repeating one.
///
/// A fetch returns one `EKEvent` per occurrence in the range asked for; each has its own
/// `startDate` and `endDate`, its `occurrenceDate` (the instance's original start), and the
/// series' `eventIdentifier`.
open class EKEvent: EKCalendarItem, @unchecked Sendable {
  /// The original start of the instance this event stands for; nil for a new event.
  var occurrenceStart: Date?
  /// Sorts fetched events by start without converting dates.
  var startKey = 0

  /// A new event for `eventStore`: no calendar and no title yet (both nil, as in EventKit),
  /// in the current time zone.
  public convenience init(eventStore: EKEventStore) {
    var values = ItemValues(calendarId: nil)
    values.timeZone = TimeZone.current.identifier
    self.init(eventStore: eventStore, kind: .event, values: values)
  }

  /// The event's identifier, nil until it is saved. Every occurrence of a repeating event has
  /// the series' identifier.
  open var eventIdentifier: String! { saved == nil ? nil : identity.id }

  open var isAllDay: Bool {
    get { values.isAllDay }
    set { values.isAllDay = newValue }
  }

  open var startDate: Date! {
    get { values.startDate }
    set { values.startDate = newValue }
  }

  open var endDate: Date! {
    get { values.endDate }
    set { values.endDate = newValue }
  }

  /// The event's zone; nil for a floating event and for every all-day event.
  open override var timeZone: TimeZone? {
    get { values.isAllDay ? nil : super.timeZone }
    set { super.timeZone = newValue }
  }

  /// Set as a copy (`@NSCopying` in Apple's header).
  open var structuredLocation: EKStructuredLocation? {
    get { structuredLocationObject }
    set { structuredLocationObject = newValue }
  }

  open var availability: EKEventAvailability {
    get { values.availability }
    set { values.availability = newValue }
  }

  open var status: EKEventStatus { values.status }

  open var organizer: EKParticipant? {
    values.participants.first(where: \.isOrganizer).map(EKParticipant.init(values:))
  }

  /// The instance's original start: for a repeating event, where the rule put it, even when
  /// the occurrence was moved; for a single event, its start.
  open var occurrenceDate: Date! { occurrenceStart ?? values.startDate }

  /// Whether this occurrence was changed apart from its series (saved with `.thisEvent`).
  open var isDetached: Bool { storedRecord?.isDetached ?? false }

  /// Birthdays come from Contacts, which OpenEventKit does not read.
  open var birthdayContactIdentifier: String? { nil }

  /// Orders events by start date, as `sort` with EventKit expects.
  open func compareStartDate(with other: EKEvent) -> ComparisonResult {
    switch (startDate, other.startDate) {
    case (let a?, let b?): a.compare(b)
    case (nil, nil): .orderedSame
    case (nil, _): .orderedAscending
    case (_, nil): .orderedDescending
    }
  }

  @discardableResult
  open override func refresh() -> Bool { super.refresh() }

  override var occurrenceKey: Date? { occurrenceStart }

  open override var description: String {
    let start = values.startDate.map { "\($0)" } ?? "nil"
    let end = values.endDate.map { "\($0)" } ?? "nil"
    return "EKEvent(title: \(values.title ?? "nil"), startDate: \(start), endDate: \(end)"
      + (values.isAllDay ? ", allDay" : "")
      + (values.rules.isEmpty ? "" : ", \(values.rules.count) rule(s)") + ")"
  }
}
