import Foundation

/// A calendar of events or a list of reminders.
///
/// Two `EKCalendar` objects are equal when they name the same calendar (identifiers are UUIDs,
/// unique across databases), so calendars fetched at different times or by different stores
/// can be compared and kept in sets.
///
/// See <doc:Learn> and <doc:SavingAndBatching#Calendars>.
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
  ///
  /// See <doc:SavingAndBatching#Calendars>.
  ///
  /// - Parameters:
  ///   - entityType: `.event` for a calendar, `.reminder` for a reminder list.
  ///   - eventStore: The store that will save it.
  ///
  /// ```swift
  /// let list = EKCalendar(for: .reminder, eventStore: store)
  /// list.title = "Groceries"
  /// list.source = store.defaultCalendarForNewReminders()?.source
  /// try store.saveCalendar(list, commit: true)
  /// ```
  public convenience init(for entityType: EKEntityType, eventStore: EKEventStore) {
    let mask: EKEntityMask = entityType == .event ? .event : .reminder
    let record = CalendarRecord(
      id: Identifier.make(), sourceId: "", title: "", type: .local,
      color: EKCalendar.defaultColor(for: entityType), entityMask: mask,
      availabilityMask: entityType == .event ? [.busy, .free, .tentative, .unavailable] : [],
      position: Int.max)
    self.init(eventStore: eventStore, record: record, saved: nil)
  }

  /// A new event calendar, as ``init(for:eventStore:)`` makes with `.event`. Deprecated, as Apple's
  /// is. See <doc:SavingAndBatching#Calendars>.
  ///
  /// - Parameters:
  ///   - eventStore: The store that will save it.
  @available(*, deprecated, renamed: "init(for:eventStore:)")
  public convenience init(eventStore: EKEventStore) {
    self.init(for: .event, eventStore: eventStore)
  }

  static func defaultColor(for entityType: EKEntityType) -> String {
    entityType == .event ? "#63DA38" : "#CC73E1"
  }

  /// See <doc:Identifiers>.
  open var calendarIdentifier: String { record.id }

  /// The calendar's name as the person sees it; a calendar cannot be saved without one. See
  /// <doc:SavingAndBatching#Calendars>.
  open var title: String {
    get { record.title }
    set { record.title = newValue }
  }

  /// Can be set while the calendar is new; changing it later is refused on save
  /// (`calendarSourceCannotBeModified`).
  ///
  /// See <doc:SavingAndBatching#Calendars>.
  open var source: EKSource! {
    get { eventStore.source(withIdentifier: record.sourceId) }
    set { record.sourceId = newValue?.sourceIdentifier ?? "" }
  }

  /// The kind of calendar, from its source: `.local`, `.calDAV` or `.subscription`. See <doc:Sync>.
  open var type: EKCalendarType { record.type }
  /// Whether events or reminders can be saved in it; false for read-only calendars such as the
  /// subscribed Holidays. See <doc:SavingAndBatching#When-a-save-is-refused>.
  open var allowsContentModifications: Bool { record.allowsContentModifications }
  /// Whether the calendar is a read-only subscription. See <doc:Learn>.
  open var isSubscribed: Bool { record.isSubscribed }
  /// Whether the calendar itself cannot be changed or removed (its items may still be). See
  /// <doc:SavingAndBatching#Calendars>.
  open var isImmutable: Bool { record.isImmutable }
  /// The availabilities its events may have; empty for a reminder list. See <doc:Learn>.
  open var supportedEventAvailabilities: EKCalendarEventAvailabilityMask {
    record.availabilityMask
  }
  /// Whether the calendar holds events or reminders. See <doc:Learn>.
  open var allowedEntityTypes: EKEntityMask { record.entityMask }

  /// The calendar's colour; the store keeps red, green and blue.
  ///
  /// Differs from Apple's: `CGColor` is OpenEventKit's stand-in, and the alpha set is not kept. See
  /// <doc:SavingAndBatching>.
  open var cgColor: CGColor! {
    get { CGColor(hexString: record.color) ?? .black }
    set { record.color = (newValue ?? .black).hexString }
  }

  // MARK: EKObject

  /// True until the calendar is first saved. See <doc:SavingAndBatching>.
  open override var isNew: Bool { saved == nil }
  /// Whether the calendar differs from what was last saved or fetched. See <doc:SavingAndBatching>.
  open override var hasChanges: Bool { saved != record }

  /// Drops the changes not yet saved. See <doc:SavingAndBatching>.
  open override func rollback() {
    if let saved { record = saved }
  }

  /// Drops the changes not yet saved and reloads the calendar from the store. See
  /// <doc:SavingAndBatching>.
  open override func reset() {
    rollback()
    refresh()
  }

  /// Reloads the calendar from the store, keeping a title, colour or source changed here and not
  /// yet saved. See <doc:SavingAndBatching>.
  ///
  /// - Returns: False when the calendar no longer exists in the store.
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

  /// Whether `object` is a calendar with the same identifier.
  ///
  /// See <doc:EventKitCompatibility>.
  ///
  /// - Parameters:
  ///   - object: The object to compare with.
  /// - Returns: True for the same calendar.
  open override func isEqual(_ object: Any?) -> Bool {
    guard let other = object as? EKCalendar else { return false }
    return other.record.id == record.id
  }

  /// A hash of the identifier, matching ``isEqual(_:)``.
  open override var hash: Int { record.id.hashValue }

  /// A short summary for debugging: title, type and identifier.
  open override var description: String {
    "EKCalendar(title: \(record.title), type: \(record.type), id: \(record.id))"
  }
}
