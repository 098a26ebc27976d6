import Foundation

/// A calendar of events or a list of reminders.
///
/// Two `EKCalendar` objects are equal when they name the same calendar (identifiers are UUIDs,
/// unique across databases), so calendars fetched at different times or by different stores
/// can be compared and kept in sets.
open class EKCalendar: EKObject, @unchecked Sendable {
  let eventStore: EKEventStore
  /// The values as edited.
  var record: CalendarRecord
  /// The values last saved; nil while the calendar is new.
  var saved: CalendarRecord?

  init(eventStore: EKEventStore, record: CalendarRecord, saved: CalendarRecord?) {
    self.eventStore = eventStore
    self.record = record
    self.saved = saved
  }

  /// A new calendar for events or a new list for reminders. Set `source` and `title`, then
  /// save it with `saveCalendar(_:commit:)`.
  public convenience init(for entityType: EKEntityType, eventStore: EKEventStore) {
    let mask: EKEntityMask = entityType == .event ? .event : .reminder
    let record = CalendarRecord(
      id: Identifier.make(), sourceId: "", title: "", type: .local,
      color: EKCalendar.defaultColor(for: entityType), entityMask: mask,
      availabilityMask: entityType == .event ? [.busy, .free, .tentative, .unavailable] : [],
      position: Int.max)
    self.init(eventStore: eventStore, record: record, saved: nil)
  }

  @available(*, deprecated, renamed: "init(for:eventStore:)")
  public convenience init(eventStore: EKEventStore) {
    self.init(for: .event, eventStore: eventStore)
  }

  static func defaultColor(for entityType: EKEntityType) -> String {
    entityType == .event ? "#63DA38" : "#CC73E1"
  }

  open var calendarIdentifier: String { record.id }

  open var title: String {
    get { record.title }
    set { record.title = newValue }
  }

  /// Can be set while the calendar is new; changing it later is refused on save
  /// (`calendarSourceCannotBeModified`).
  open var source: EKSource! {
    get { eventStore.source(withIdentifier: record.sourceId) }
    set { record.sourceId = newValue?.sourceIdentifier ?? "" }
  }

  open var type: EKCalendarType { record.type }
  open var allowsContentModifications: Bool { record.allowsContentModifications }
  open var isSubscribed: Bool { record.isSubscribed }
  open var isImmutable: Bool { record.isImmutable }
  open var supportedEventAvailabilities: EKCalendarEventAvailabilityMask {
    record.availabilityMask
  }
  open var allowedEntityTypes: EKEntityMask { record.entityMask }

  /// The calendar's colour; the store keeps red, green and blue.
  open var cgColor: CGColor! {
    get { CGColor(hexString: record.color) ?? .black }
    set { record.color = (newValue ?? .black).hexString }
  }

  // MARK: EKObject

  open override var isNew: Bool { saved == nil }
  open override var hasChanges: Bool { saved != record }

  open override func rollback() {
    if let saved { record = saved }
  }

  open override func reset() {
    rollback()
    refresh()
  }

  @discardableResult
  open override func refresh() -> Bool {
    guard saved != nil else { return true }
    guard let saved,
      let latest = eventStore.calendarRecord(withIdentifier: record.id, fresh: true)
    else { return false }
    // Fields changed here stay; the others take the latest saved values.
    var merged = latest
    if record.title != saved.title { merged.title = record.title }
    if record.color != saved.color { merged.color = record.color }
    if record.sourceId != saved.sourceId { merged.sourceId = record.sourceId }
    record = merged
    self.saved = latest
    return true
  }

  open override func isEqual(_ object: Any?) -> Bool {
    guard let other = object as? EKCalendar else { return false }
    return other.record.id == record.id
  }

  open override var hash: Int { record.id.hashValue }

  open override var description: String {
    "EKCalendar(title: \(record.title), type: \(record.type), id: \(record.id))"
  }
}
