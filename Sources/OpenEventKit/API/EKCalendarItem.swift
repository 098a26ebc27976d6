import Foundation
import ICalendar

/// What events and reminders share: a calendar, a title, notes, alarms and recurrence rules.
///
/// An item edits plain values (the internal `ItemValues`) and compares them with the values last
/// saved to answer `hasChanges`. Alarms, rules and the structured location are objects a caller may
/// change in place, so the item keeps the objects it handed out and reads them back when it is
/// compared or saved.
///
/// See <doc:Learn>.
open class EKCalendarItem: EKObject, @unchecked Sendable {
  let eventStore: EKEventStore
  let kind: EKEntityType
  /// How the item is known: given at creation, written when the item is first saved.
  var identity: ItemIdentity {
    get { ownIdentity ?? storedRecord!.identity }
    set { ownIdentity = newValue }
  }
  /// The identity of a new or saved item; nil for a fetched one, whose identity is its row's
  /// (one shared value for all the occurrences of a series).
  private var ownIdentity: ItemIdentity?
  /// The values as edited (alarms, rules and location may be stale: see ``snapshot``).
  var values: ItemValues
  /// The values last saved or fetched; nil while the item is new.
  var saved: ItemValues?
  /// The row last saved or fetched: a repeating event's series row for its occurrences.
  var record: ItemRecord? {
    get { storedRecord?.record }
    set { storedRecord = newValue.map { StoredRecord($0) } }
  }
  /// The row, shared by every occurrence of a series fetched together.
  private(set) var storedRecord: StoredRecord?

  private var alarmObjects: [EKAlarm]?
  private var ruleObjects: [EKRecurrenceRule]?
  private var locationObject: EKStructuredLocation?
  private var cachedCalendar: EKCalendar?

  init(eventStore: EKEventStore, kind: EKEntityType, values: ItemValues) {
    self.eventStore = eventStore
    self.kind = kind
    self.values = values
    ownIdentity = .new(kind: kind)
  }

  init(eventStore: EKEventStore, record: StoredRecord, values: ItemValues) {
    self.eventStore = eventStore
    kind = record.kind
    self.values = values
    saved = values
    storedRecord = record
  }

  /// The item's values with the current state of the objects handed out.
  var snapshot: ItemValues {
    var snapshot = values
    if let alarmObjects { snapshot.alarms = alarmObjects.map(\.snapshot) }
    if let ruleObjects { snapshot.rules = ruleObjects.map(\.values) }
    if let locationObject { snapshot.structuredLocation = locationObject.values }
    return snapshot
  }

  /// Takes the values a save wrote, keeping the objects handed out (alarms, rules, location)
  /// whose values were written as they are, so that a caller holding one still edits the item.
  func adopt(_ newValues: ItemValues) {
    let keepAlarms = alarmObjects.map { $0.map(\.snapshot) == newValues.alarms } ?? false
    let keepRules = ruleObjects.map { $0.map(\.values) == newValues.rules } ?? false
    let keepLocation = locationObject.map { $0.values == newValues.structuredLocation } ?? false
    values = newValues
    if !keepAlarms { alarmObjects = nil }
    if !keepRules { ruleObjects = nil }
    if !keepLocation { locationObject = nil }
  }

  /// What a save changes in the object besides its values, kept so that `reset()` of the store
  /// can undo a save that was never committed.
  struct SaveState {
    /// The values as the caller had edited them when saving.
    var values: ItemValues
    var saved: ItemValues?
    var storedRecord: StoredRecord?
    var ownIdentity: ItemIdentity?
    var occurrenceStart: Date?
  }

  var saveState: SaveState {
    get {
      SaveState(
        values: snapshot, saved: saved, storedRecord: storedRecord, ownIdentity: ownIdentity,
        occurrenceStart: (self as? EKEvent)?.occurrenceStart)
    }
    set {
      load(newValue.values)
      saved = newValue.saved
      storedRecord = newValue.storedRecord
      ownIdentity = newValue.ownIdentity ?? newValue.storedRecord?.identity ?? ownIdentity
      (self as? EKEvent)?.occurrenceStart = newValue.occurrenceStart
    }
  }

  /// Replaces the values (after a save, fetch or rollback), dropping objects handed out.
  func load(_ newValues: ItemValues) {
    values = newValues
    alarmObjects = nil
    ruleObjects = nil
    locationObject = nil
  }

  // MARK: Properties

  /// The calendar or reminder list the item belongs to; nil until one is set on a new item. Setting
  /// it moves the item when it is saved. See <doc:SavingAndBatching#Saving-an-event>.
  open var calendar: EKCalendar! {
    get {
      guard let id = values.calendarId else { return nil }
      if let cachedCalendar, cachedCalendar.calendarIdentifier == id { return cachedCalendar }
      cachedCalendar = eventStore.calendar(withIdentifier: id)
      return cachedCalendar
    }
    set {
      values.calendarId = newValue?.calendarIdentifier
      cachedCalendar = newValue
    }
  }

  /// The item's title; nil on a new item until one is set. See <doc:Learn>.
  open var title: String! {
    get { values.title }
    set { values.title = newValue }
  }

  /// Where the item takes place, as free text (iCalendar LOCATION). See <doc:Learn>.
  open var location: String? {
    get { values.location }
    set { values.location = newValue }
  }

  /// Free text about the item (iCalendar DESCRIPTION). See <doc:Learn>.
  open var notes: String? {
    get { values.notes }
    set { values.notes = newValue }
  }

  /// A web address that goes with the item. See <doc:Learn>.
  open var url: URL? {
    get { values.url }
    set { values.url = newValue }
  }

  /// The zone the item's times are read in; nil for a floating item, whose times are read on
  /// whatever clock the reader has. See <doc:FetchingEvents#Floating-events>.
  open var timeZone: TimeZone? {
    get { values.timeZone.flatMap(TimeZone.init(identifier:)) }
    set { values.timeZone = newValue?.identifier }
  }

  /// When the item was first saved; nil while it is new. Kept to the second. See <doc:Learn>.
  open var creationDate: Date? { saved == nil ? nil : identity.createdAt }
  /// When the item was last saved; nil while it is new. Kept to the second. See <doc:Learn>.
  open var lastModifiedDate: Date? { saved == nil ? nil : identity.modifiedAt }

  /// The item's identifier in this store; stable across launches and processes. A new item
  /// has one from the start; the store finds the item by it once the item is saved.
  ///
  /// See <doc:Identifiers>.
  open var calendarItemIdentifier: String { identity.id }

  /// The iCalendar UID: the identifier other calendar programs know the item by.
  ///
  /// See <doc:Identifiers>.
  open var calendarItemExternalIdentifier: String! { identity.uid }

  /// The item's identifier, as ``calendarItemIdentifier`` returns it. Deprecated, as Apple's is.
  /// See <doc:Identifiers>.
  @available(*, deprecated, renamed: "calendarItemIdentifier")
  open var uuid: String { calendarItemIdentifier }

  /// The invitees, without the organizer; nil when there are none. Read-only: attendees come from
  /// imported invitations (<doc:ICalendarFiles#Import-into-the-store>).
  open var attendees: [EKParticipant]? {
    let attendees = values.participants.filter { !$0.isOrganizer }
    return attendees.isEmpty ? nil : attendees.map(EKParticipant.init(values:))
  }

  /// The item's alarms; nil when it has none. The alarms returned may be changed in place; the
  /// change is saved with the item. See <doc:Learn>.
  open var alarms: [EKAlarm]? {
    get {
      if alarmObjects == nil { alarmObjects = values.alarms.map(EKAlarm.init(values:)) }
      return alarmObjects!.isEmpty ? nil : alarmObjects
    }
    set { alarmObjects = newValue ?? [] }
  }

  /// How the item repeats; nil when it does not. See <doc:RecurringEvents>.
  open var recurrenceRules: [EKRecurrenceRule]? {
    get {
      if ruleObjects == nil { ruleObjects = values.rules.map(EKRecurrenceRule.init(values:)) }
      return ruleObjects!.isEmpty ? nil : ruleObjects
    }
    set { ruleObjects = newValue ?? [] }
  }

  /// The place as an object callers may change in place (the event's `structuredLocation`).
  var structuredLocationObject: EKStructuredLocation? {
    get {
      if locationObject == nil, let place = values.structuredLocation {
        locationObject = EKStructuredLocation(values: place)
      }
      return locationObject
    }
    set {
      locationObject = newValue?.copy() as? EKStructuredLocation
      values.structuredLocation = locationObject?.values
    }
  }

  /// Whether the item has at least one alarm. See <doc:Learn>.
  open var hasAlarms: Bool { !snapshot.alarms.isEmpty }
  /// Whether the item repeats. See <doc:RecurringEvents>.
  open var hasRecurrenceRules: Bool { !snapshot.rules.isEmpty }
  /// Whether the item has attendees. See <doc:ICalendarFiles>.
  open var hasAttendees: Bool { attendees != nil }
  /// Whether the item has non-empty notes. See <doc:Learn>.
  open var hasNotes: Bool { !(values.notes ?? "").isEmpty }

  /// Adds an alarm to the item; saved with the item. See <doc:Learn>.
  ///
  /// - Parameters:
  ///   - alarm: The alarm to add.
  ///
  /// ```swift
  /// event.addAlarm(EKAlarm(relativeOffset: -15 * 60))  // 15 minutes before
  /// try store.save(event, span: .thisEvent)
  /// ```
  open func addAlarm(_ alarm: EKAlarm) {
    alarms = (alarms ?? []) + [alarm]
  }

  /// Removes an alarm from the item: the very object, or else an equal one. Saved with the item.
  /// See <doc:Learn>.
  ///
  /// - Parameters:
  ///   - alarm: The alarm to remove.
  ///
  /// ```swift
  /// if let first = event.alarms?.first { event.removeAlarm(first) }
  /// ```
  open func removeAlarm(_ alarm: EKAlarm) {
    var list = alarms ?? []
    if let index = list.firstIndex(where: { $0 === alarm }) ?? list.firstIndex(of: alarm) {
      list.remove(at: index)
    }
    alarms = list
  }

  /// Adds a recurrence rule to the item; saved with the item. See <doc:RecurringEvents>.
  ///
  /// - Parameters:
  ///   - rule: The rule to add.
  ///
  /// ```swift
  /// let tenWeeks = EKRecurrenceEnd(occurrenceCount: 10)
  /// event.addRecurrenceRule(EKRecurrenceRule(recurrenceWith: .weekly, interval: 1, end: tenWeeks))
  /// try store.save(event, span: .futureEvents)
  /// ```
  open func addRecurrenceRule(_ rule: EKRecurrenceRule) {
    recurrenceRules = (recurrenceRules ?? []) + [rule]
  }

  /// Removes a recurrence rule from the item: the very object, or else an equal one. Saved with the
  /// item; for an occurrence, save with `.futureEvents`. See <doc:RecurringEvents>.
  ///
  /// - Parameters:
  ///   - rule: The rule to remove.
  ///
  /// ```swift
  /// if let rule = event.recurrenceRules?.first { event.removeRecurrenceRule(rule) }
  /// try store.save(event, span: .futureEvents)
  /// ```
  open func removeRecurrenceRule(_ rule: EKRecurrenceRule) {
    var list = recurrenceRules ?? []
    if let index = list.firstIndex(where: { $0 === rule }) ?? list.firstIndex(of: rule) {
      list.remove(at: index)
    }
    recurrenceRules = list
  }

  // MARK: EKObject

  /// True until the item is first saved. See <doc:SavingAndBatching>.
  open override var isNew: Bool { saved == nil }

  /// Whether the item's values differ from the ones last saved or fetched, alarms, rules and place
  /// included. See <doc:SavingAndBatching>.
  open override var hasChanges: Bool { saved != snapshot }

  /// Drops the changes not yet saved, going back to the values last saved or fetched. See
  /// <doc:SavingAndBatching>.
  open override func rollback() {
    if let saved { load(saved) }
  }

  /// Drops the changes not yet saved and reloads the item from the store. See
  /// <doc:SavingAndBatching>.
  open override func reset() {
    rollback()
    refresh()
  }

  /// Reloads the saved values from the store, keeping the fields changed here and not yet saved.
  /// See <doc:SavingAndBatching>.
  ///
  /// - Returns: False when the item no longer exists in the store; true otherwise (always for a new
  ///   item).
  @discardableResult
  open override func refresh() -> Bool {
    guard saved != nil else { return true }
    guard let latest = eventStore.latestValues(of: self), let saved else { return false }
    // latestValues(of:) took the row as stored now: an identity of this object's own (one it
    // saved) takes the row's modification date, as Apple's `lastModifiedDate` does on refresh.
    if ownIdentity != nil, let stored = storedRecord?.identity {
      ownIdentity?.modifiedAt = stored.modifiedAt
    }
    let current = snapshot
    if current == saved {
      load(latest)
    } else {
      load(ItemValues.merging(current, saved: saved, latest: latest))
    }
    self.saved = latest
    return true
  }

  /// Whether `object` is the same item: the same identifier and, for occurrences, the same
  /// occurrence. See <doc:Identifiers>.
  ///
  /// - Parameters:
  ///   - object: The object to compare with.
  /// - Returns: True for the same item or occurrence.
  open override func isEqual(_ object: Any?) -> Bool {
    guard let other = object as? EKCalendarItem else { return false }
    return other === self
      || (other.identity.id == identity.id && other.occurrenceKey == occurrenceKey)
  }

  /// A hash of the item's identifier, matching ``isEqual(_:)``.
  open override var hash: Int { identity.id.hashValue }

  /// Tells occurrences of one series apart; nil for anything but an occurrence.
  var occurrenceKey: Date? { nil }
}
