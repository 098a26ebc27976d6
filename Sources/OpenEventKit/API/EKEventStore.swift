import Foundation
import GRDB
import Logging
import Synchronization

/// The calendar database of the user, shared by every app: its sources, calendars, events and
/// reminders, and the way to change them.
///
/// Every store of every process opens the same SQLite file (see the internal `StoreLocation`),
/// so a commit made by one is seen by the others, which are told through
/// `EKEventStoreChanged`.
/// Changes saved with `commit: false` stay in this store until `commit()`.
///
/// A store may be used from any thread. Like Apple's, the objects it returns are not meant to
/// be shared between threads while they are being changed.
///
/// Differs from Apple's: the notification is posted on a background queue, not the main one
/// (<doc:ObservingChanges#Which-thread>), and a store whose database cannot be opened still
/// initializes: every save then throws the reason, and every fetch finds nothing.
///
/// See <doc:Learn>, <doc:FetchingEvents> and <doc:SavingAndBatching>.
open class EKEventStore: NSObject, @unchecked Sendable {
  let database: CalendarDatabase?
  /// The folder of the calendar database (and of the privacy decisions beside it).
  let location: StoreLocation
  /// Why the database could not be opened; every save reports it, every fetch finds nothing.
  let openError: EKError?
  /// The sources this store is limited to (`init(sources:)`); nil for all of them.
  let sourceFilter: Set<String>?
  let state = Mutex(State())
  /// Held while staging or committing, so that a commit writes a consistent set of changes.
  let writeLock = NSRecursiveLock()
  private var watcher: DatabaseChangeWatcher?
  let changeStreams = ChangeStreams()
  let stagedObjects = StagedObjects()
  let seriesCache = SeriesCache()
  /// The person's decisions beside the calendar database; nil when they cannot be read (the
  /// app then has no access).
  let privacy: PrivacyDatabase?
  let accessState = Mutex(AccessState())
  /// Whether the store acts for the person rather than an app (``init(ownerOf:create:)``).
  let actsForOwner: Bool
  /// Where `fetchReminders` runs its fetches and calls their completions: a background queue,
  /// as with Apple's store. Serial, so that fetches finish in the order they were asked for.
  let fetchQueue = DispatchQueue(label: "OpenEventKit.fetchReminders", qos: .userInitiated)

  struct State: Sendable {
    var staged = StagedChanges()
    /// Sources, calendars and settings, read once and dropped whenever the database changes.
    var catalog: Catalog?
    var fetches: [ObjectIdentifier: FetchRequest] = [:]
    /// When `refreshSourcesIfNecessary()` last asked the sync agent for a sync.
    var lastAgentRequest: Date?
  }

  /// Opens the user's calendar database, creating it on first use.
  ///
  /// The file is the one ``defaultDatabaseFile`` names: in `$OPENEVENTKIT_HOME` when that is set,
  /// else in the XDG data folder (`$XDG_DATA_HOME/OpenEventKit`). What the app may read and change is what the
  /// person decided for it (<doc:Privacy>). See <doc:Learn>.
  public override init() {
    location = .current()
    (database, openError) = EKEventStore.open(location)
    privacy = try? PrivacyDatabase(location: location)
    sourceFilter = nil
    actsForOwner = false
    super.init()
    startWatching()
  }

  /// A store limited to some sources of the user's database: its calendars and items are the
  /// ones of those sources.
  ///
  /// The store opens the database of the first source's store (the user's when `sources` is empty),
  /// and shows no source, calendar or item outside `sources`. See <doc:Learn>.
  ///
  /// - Parameters:
  ///   - sources: The sources to show, from any store on the database.
  public init(sources: [EKSource]) {
    let location = sources.first?.eventStore.database.map {
      StoreLocation(folder: URL(fileURLWithPath: $0.path).deletingLastPathComponent())
    }
    self.location = location ?? .current()
    (database, openError) = EKEventStore.open(self.location)
    privacy = try? PrivacyDatabase(location: self.location)
    sourceFilter = Set(sources.map(\.sourceIdentifier))
    actsForOwner = false
    super.init()
    startWatching()
  }

  /// The old macOS initializer; access is asked for separately now.
  ///
  /// Differs from Apple's: it opens the store as ``init()`` does and asks for nothing; request
  /// access with ``requestFullAccessToEvents(completion:)`` and its siblings
  /// (<doc:Privacy#Code-from-before-iOS-17>).
  ///
  /// - Parameters:
  ///   - entityTypes: Ignored.
  @available(*, deprecated, message: "Use init() and request access")
  public convenience init(accessToEntityTypes entityTypes: EKEntityMask) {
    self.init()
  }

  /// Opens (creating when missing) the calendar database in `folder`, as `OPENEVENTKIT_HOME`
  /// would name it: for tools and tests that keep a store apart from the user's.
  ///
  /// An OpenEventKit addition. The app's access is what the `Privacy.sqlite` in `folder` records
  /// for it, as for the user's store. When the database cannot be opened the reason is logged,
  /// every save throws it and every fetch finds nothing.
  ///
  /// - Parameters:
  ///   - folder: The folder that holds (or will hold) `Calendar.sqlite` and `Privacy.sqlite`.
  ///
  /// ```swift
  /// let folder = FileManager.default.temporaryDirectory.appendingPathComponent("calendars")
  /// let store = EKEventStore(folder: folder)
  /// print(store.databaseFile.path)  // …/calendars/Calendar.sqlite
  /// ```
  public init(folder: URL) {
    location = StoreLocation(folder: folder)
    (database, openError) = EKEventStore.open(location)
    privacy = try? PrivacyDatabase(location: location)
    sourceFilter = nil
    actsForOwner = false
    super.init()
    startWatching()
  }

  /// Opens the calendar database file at `databaseFile` for the person's own tools, such as
  /// `ekctl`: the store acts for the person, not for an app, so no privacy decision applies
  /// to it (as none applies to Calendar.app on Apple's systems). The privacy decisions of
  /// apps are the `Privacy.sqlite` beside the file.
  ///
  /// A missing file is an error naming its path unless `create` is true. An OpenEventKit
  /// addition.
  ///
  /// - Parameters:
  ///   - databaseFile: The calendar database file, such as ``defaultDatabaseFile``.
  ///   - create: Whether to create the database when the file does not exist yet.
  /// - Throws: ``EKError`` with code ``EKError/Code/internalFailure`` when the file is missing and
  ///   `create` is false, or when the database cannot be opened (the message says why).
  ///
  /// ```swift
  /// let store = try EKEventStore(ownerOf: EKEventStore.defaultDatabaseFile, create: true)
  /// let events = store.events(
  ///   matching: store.predicateForEvents(
  ///     withStart: Date(), end: Date().addingTimeInterval(86_400), calendars: nil))
  /// ```
  public init(ownerOf databaseFile: URL, create: Bool = false) throws {
    location = StoreLocation(databaseFile: databaseFile)
    guard create || FileManager.default.fileExists(atPath: databaseFile.path) else {
      throw EKError(.internalFailure, "no calendar database at \(databaseFile.path)")
    }
    (database, openError) = EKEventStore.open(location, quietly: true)
    if let openError { throw openError }
    // No decision applies to the person's own store, so it needs no privacy database (and
    // `ekctl` does not pay for opening one on every command).
    privacy = nil
    sourceFilter = nil
    actsForOwner = true
    super.init()
    startWatching()
  }

  /// The user's calendar database file, as ``init()`` opens it.
  ///
  /// An OpenEventKit addition: the file is chosen from the environment each time it is read
  /// (`$OPENEVENTKIT_HOME`, else `OpenEventKit` in the XDG data folder).
  ///
  /// ```swift
  /// let store = try EKEventStore(ownerOf: EKEventStore.defaultDatabaseFile)
  /// ```
  public static var defaultDatabaseFile: URL { StoreLocation.current().calendarDatabase }

  /// The database at `location`, or why it cannot be opened.
  private static func open(_ location: StoreLocation, quietly: Bool = false)
    -> (CalendarDatabase?, EKError?)
  {
    do {
      return (try CalendarDatabase(location: location), nil)
    } catch {
      if !quietly { report(error) }
      return (nil, error)
    }
  }

  deinit { watcher?.cancel() }

  private func startWatching() {
    guard let database else { return }
    do {
      watcher = try DatabaseChangeWatcher(
        path: database.path, others: privacy.map { [$0.path] } ?? []
      ) { [weak self] in
        self?.databaseDidChange()
      }
    } catch {
      // The store works without it, but posts no EKEventStoreChanged: say so.
      EKEventStore.report(error)
    }
  }

  /// Called (once per burst) after any connection committed to the database.
  private func databaseDidChange() {
    Log.changes.debug("the store changed: posting EKEventStoreChanged")
    dropCatalog()
    forgetAccess()
    NotificationCenter.default.post(name: .EKEventStoreChanged, object: self)
    postChangedMessage()
    changeStreams.yield()
  }

  /// Logs a failure an API without `throws` must swallow (`org.openeventkit.store`, error).
  static func report(_ error: any Error) {
    let text = (error as? EKError)?.localizedDescription ?? DatabaseFailure.reason(error)
    Log.store.error("\(text)")
  }

  /// Runs a read on the database; nil (reported) when it fails.
  func read<T>(_ body: (Database) throws -> T) -> T? {
    guard let database else { return nil }
    do {
      return try database.pool.read(body)
    } catch {
      EKEventStore.report(error)
      return nil
    }
  }

  // MARK: Identity

  /// Identifies the database: the same for every store of every app on it.
  ///
  /// Read from the database, so a store made with ``init(folder:)`` on another database has another
  /// identifier. See <doc:Identifiers>.
  open var eventStoreIdentifier: String {
    catalog().settings[DefaultContent.Key.storeIdentifier] ?? ""
  }

  // MARK: Sources

  /// The accounts the store's calendars belong to: the Local source, the Subscribed Calendars
  /// source and one CalDAV source for each account added (<doc:Sync>). A store made with
  /// ``init(sources:)`` lists only its own. See <doc:Learn>.
  open var sources: [EKSource] {
    catalog().sources.filter(isVisible).map { EKSource(eventStore: self, record: $0) }
  }

  /// Delegated accounts do not exist here.
  ///
  /// Differs from Apple's: always empty, since OpenEventKit has no delegated accounts. See
  /// <doc:Learn>.
  open var delegateSources: [EKSource] { [] }

  /// The source with the given ``EKSource/sourceIdentifier``, or nil when there is none that this
  /// store shows. See <doc:Identifiers>.
  ///
  /// - Parameters:
  ///   - identifier: A ``EKSource/sourceIdentifier``.
  /// - Returns: The source, or nil.
  open func source(withIdentifier identifier: String) -> EKSource? {
    catalog().sources.first { $0.id == identifier && isVisible($0) }.map {
      EKSource(eventStore: self, record: $0)
    }
  }

  private func isVisible(_ source: SourceRecord) -> Bool {
    sourceFilter?.contains(source.id) ?? true
  }

  // MARK: Calendars

  /// The calendars that hold events, or the lists that hold reminders.
  ///
  /// Only the calendars the app's access lets it see: none without access, and with write-only
  /// access to events only the default calendar for new events
  /// (<doc:Privacy#What-the-store-enforces>). See <doc:Learn>.
  ///
  /// - Parameters:
  ///   - entityType: `.event` for calendars, `.reminder` for reminder lists.
  /// - Returns: The calendars, in the order the person arranged them.
  open func calendars(for entityType: EKEntityType) -> [EKCalendar] {
    let mask: EKEntityMask = entityType == .event ? .event : .reminder
    return calendarRecords().filter { $0.entityMask.contains(mask) }.map(makeCalendar)
  }

  /// The event calendars, as ``calendars(for:)`` returns them for `.event`. Deprecated, as Apple's
  /// is. See <doc:Learn>.
  @available(*, deprecated, renamed: "calendars(for:)")
  open var calendars: [EKCalendar] { calendars(for: .event) }

  /// The calendar or reminder list with the given ``EKCalendar/calendarIdentifier``, or nil when
  /// there is none, or the app's access does not let it see it. A calendar staged with `commit:
  /// false` is found too. See <doc:Identifiers>.
  ///
  /// - Parameters:
  ///   - identifier: A ``EKCalendar/calendarIdentifier``.
  /// - Returns: The calendar, or nil.
  open func calendar(withIdentifier identifier: String) -> EKCalendar? {
    calendarRecord(withIdentifier: identifier).map(makeCalendar)
  }

  /// The calendar new events go to unless the app chooses another.
  ///
  /// The calendar the person's settings name when it is there and writable, else the first writable
  /// event calendar; nil when there is none the app may see. See
  /// <doc:SavingAndBatching#Saving-an-event>.
  open var defaultCalendarForNewEvents: EKCalendar? {
    defaultCalendar(key: DefaultContent.Key.defaultEventCalendar, mask: .event)
  }

  /// The list new reminders go to unless the app chooses another.
  ///
  /// The list the person's settings name when it is there and writable, else the first writable
  /// reminder list; nil when there is none the app may see. See <doc:FetchingEvents#Reminders>.
  ///
  /// - Returns: The list, or nil.
  open func defaultCalendarForNewReminders() -> EKCalendar? {
    defaultCalendar(key: DefaultContent.Key.defaultReminderCalendar, mask: .reminder)
  }

  /// The calendar the settings name, or else the first writable one of the right type.
  private func defaultCalendar(key: String, mask: EKEntityMask) -> EKCalendar? {
    let records = calendarRecords().filter {
      $0.entityMask.contains(mask) && $0.allowsContentModifications
    }
    let chosen = catalog().settings[key]
    return (records.first { $0.id == chosen } ?? records.first).map(makeCalendar)
  }

  /// Drops what the store remembers of sources and calendars, so the next call reads them
  /// again, and asks the sync agent to sync each CalDAV source not synced in the last
  /// minute and to refresh each subscribed calendar that is due, in its own process
  /// (<doc:Sync#The-sync-agent>); its changes come as `EKEventStoreChanged`.
  open func refreshSourcesIfNecessary() {
    dropCatalog()
    askSyncAgent()
  }

  /// Drops what the store remembers of sources, calendars and settings, so that the next
  /// call reads them again: what another process committed a moment ago, before its change
  /// was seen.
  func dropCatalog() {
    state.withLock { $0.catalog = nil }
  }

  // MARK: Events and reminders by identifier

  /// The event or reminder with this `calendarItemIdentifier`; nil when there is none (or it
  /// was deleted). For a repeating event, its first occurrence.
  ///
  /// See <doc:Identifiers>.
  ///
  /// - Parameters:
  ///   - identifier: A ``EKCalendarItem/calendarItemIdentifier``.
  /// - Returns: The item, or nil.
  open func calendarItem(withIdentifier identifier: String) -> EKCalendarItem? {
    findCalendarItem(identifier: identifier)
  }

  /// Every event and reminder with this iCalendar UID (`calendarItemExternalIdentifier`).
  ///
  /// Several items can share a UID, as when one invitation was imported into two calendars. See
  /// <doc:Identifiers>.
  ///
  /// - Parameters:
  ///   - externalIdentifier: A ``EKCalendarItem/calendarItemExternalIdentifier``.
  /// - Returns: The items the app may read; empty when there are none.
  open func calendarItems(withExternalIdentifier externalIdentifier: String) -> [EKCalendarItem] {
    findCalendarItems(externalIdentifier: externalIdentifier)
  }

  /// The event with this `eventIdentifier`; for a repeating event, its first occurrence. Nil
  /// when there is none, or it was deleted.
  ///
  /// See <doc:FetchingEvents#One-event-by-identifier>.
  ///
  /// - Parameters:
  ///   - identifier: An ``EKEvent/eventIdentifier``.
  /// - Returns: The event, or nil.
  open func event(withIdentifier identifier: String) -> EKEvent? {
    findEvent(identifier: identifier)
  }

  // MARK: Events by date

  /// A predicate for the occurrences that overlap `[startDate, endDate)` in `calendars` (all
  /// calendars when nil). Any range works, however long.
  ///
  /// Differs from Apple's: Apple's store cuts a range longer than four years to its first four
  /// years; this one searches the whole range (<doc:FetchingEvents#Long-ranges>). See
  /// <doc:FetchingEvents#Events-in-a-range>.
  ///
  /// - Parameters:
  ///   - startDate: The start of the range.
  ///   - endDate: The end of the range, not included.
  ///   - calendars: The calendars to search; nil for every calendar the app may see.
  /// - Returns: A predicate for ``events(matching:)`` or ``enumerateEvents(matching:using:)``.
  open func predicateForEvents(
    withStart startDate: Date, end endDate: Date, calendars: [EKCalendar]?
  ) -> NSPredicate {
    EventPredicate(
      start: startDate, end: endDate, calendarIds: calendars?.map(\.calendarIdentifier))
  }

  /// Every occurrence the predicate matches, sorted by start: one `EKEvent` per occurrence of
  /// a repeating event. (Apple promises no order; sort with `compareStartDate(with:)` where
  /// order matters.)
  ///
  /// A predicate not made by ``predicateForEvents(withStart:end:calendars:)``, or an app without
  /// read access, finds nothing. See <doc:FetchingEvents>.
  ///
  /// - Parameters:
  ///   - predicate: A predicate from ``predicateForEvents(withStart:end:calendars:)``.
  /// - Returns: The matching events; empty when none match.
  ///
  /// ```swift
  /// let now = Date()
  /// let week = store.predicateForEvents(
  ///   withStart: now, end: now.addingTimeInterval(7 * 86_400), calendars: nil)
  /// for event in store.events(matching: week) { print(event.title ?? "") }
  /// ```
  open func events(matching predicate: NSPredicate) -> [EKEvent] {
    fetchEvents(matching: predicate)
  }

  /// Calls `block` with each occurrence the predicate matches, in start order, without holding
  /// them all in memory; setting `stop.pointee = true` ends the enumeration.
  ///
  /// Differs from Apple's, which promises no order. See <doc:FetchingEvents>.
  ///
  /// - Parameters:
  ///   - predicate: A predicate from ``predicateForEvents(withStart:end:calendars:)``.
  ///   - block: Called with each event and a flag to set to stop.
  ///
  /// ```swift
  /// let cutoff = Date().addingTimeInterval(7 * 86_400)
  /// let predicate = store.predicateForEvents(
  ///   withStart: Date(), end: cutoff.addingTimeInterval(86_400), calendars: nil)
  /// store.enumerateEvents(matching: predicate) { event, stop in
  ///   print(event.title ?? "")
  ///   if event.startDate > cutoff { stop.pointee = true }
  /// }
  /// ```
  open func enumerateEvents(
    matching predicate: NSPredicate, using block: @escaping EKEventSearchCallback
  ) {
    streamEvents(matching: predicate, using: block)
  }

  // MARK: Reminders

  /// A predicate for every reminder in `calendars` (all lists when nil).
  ///
  /// See <doc:FetchingEvents#Reminders>.
  ///
  /// - Parameters:
  ///   - calendars: The reminder lists to search; nil for every list the app may see.
  /// - Returns: A predicate for ``fetchReminders(matching:completion:)``.
  open func predicateForReminders(in calendars: [EKCalendar]?) -> NSPredicate {
    ReminderPredicate(kind: .all, calendarIds: calendars?.map(\.calendarIdentifier))
  }

  /// A predicate for the incomplete reminders due in `[startDate, endDate)`; with both nil,
  /// every incomplete reminder, with or without a due date.
  ///
  /// See <doc:FetchingEvents#Reminders>.
  ///
  /// - Parameters:
  ///   - startDate: The earliest due date; nil for no lower bound.
  ///   - endDate: The due date to stay before; nil for no upper bound.
  ///   - calendars: The reminder lists to search; nil for every list the app may see.
  /// - Returns: A predicate for ``fetchReminders(matching:completion:)``.
  open func predicateForIncompleteReminders(
    withDueDateStarting startDate: Date?, ending endDate: Date?, calendars: [EKCalendar]?
  ) -> NSPredicate {
    ReminderPredicate(
      kind: .incomplete(dueFrom: startDate, dueBefore: endDate),
      calendarIds: calendars?.map(\.calendarIdentifier))
  }

  /// A predicate for the reminders completed in `[startDate, endDate)`; with both nil, every
  /// completed reminder.
  ///
  /// See <doc:FetchingEvents#Reminders>.
  ///
  /// - Parameters:
  ///   - startDate: The earliest completion date; nil for no lower bound.
  ///   - endDate: The completion date to stay before; nil for no upper bound.
  ///   - calendars: The reminder lists to search; nil for every list the app may see.
  /// - Returns: A predicate for ``fetchReminders(matching:completion:)``.
  open func predicateForCompletedReminders(
    withCompletionDateStarting startDate: Date?, ending endDate: Date?, calendars: [EKCalendar]?
  ) -> NSPredicate {
    ReminderPredicate(
      kind: .completed(from: startDate, before: endDate),
      calendarIds: calendars?.map(\.calendarIdentifier))
  }

  /// Fetches the reminders the predicate matches on a background queue and calls `completion`
  /// there with them (nil when the predicate is not a reminder predicate). Returns a handle
  /// for `cancelFetchRequest(_:)`; a cancelled fetch never calls `completion`.
  ///
  /// An app without read access to reminders receives an empty array. See
  /// <doc:FetchingEvents#Reminders>.
  ///
  /// - Parameters:
  ///   - predicate: A predicate from ``predicateForReminders(in:)``,
  ///     ``predicateForIncompleteReminders(withDueDateStarting:ending:calendars:)`` or
  ///     ``predicateForCompletedReminders(withCompletionDateStarting:ending:calendars:)``.
  ///   - completion: Called once, on a background queue, with the reminders.
  /// - Returns: An opaque handle for ``cancelFetchRequest(_:)``.
  ///
  /// ```swift
  /// let open = store.predicateForIncompleteReminders(
  ///   withDueDateStarting: nil, ending: nil, calendars: nil)
  /// store.fetchReminders(matching: open) { reminders in
  ///   for reminder in reminders ?? [] { print(reminder.title ?? "") }
  /// }
  /// ```
  @discardableResult
  open func fetchReminders(
    matching predicate: NSPredicate, completion: @escaping ([EKReminder]?) -> Void
  ) -> Any {
    startReminderFetch(matching: predicate, completion: completion)
  }

  /// Cancels a fetch that ``fetchReminders(matching:completion:)`` started, so that its completion
  /// is never called. A fetch that has already finished, or a value that is not such a handle, is
  /// ignored. See <doc:FetchingEvents#Reminders>.
  ///
  /// - Parameters:
  ///   - fetchIdentifier: The handle ``fetchReminders(matching:completion:)`` returned.
  open func cancelFetchRequest(_ fetchIdentifier: Any) {
    cancelReminderFetch(fetchIdentifier)
  }

  // MARK: Saving

  /// Saves an event and commits at once (`commit: true`).
  ///
  /// See <doc:SavingAndBatching#Saving-an-event>.
  ///
  /// - Parameters:
  ///   - event: The event to save, new or fetched from this store.
  ///   - span: For an occurrence of a repeating event, `.thisEvent` for it alone or `.futureEvents`
  ///     for it and those after it (<doc:RecurringEvents>).
  /// - Throws: ``EKError``: ``EKError/Code/eventStoreNotAuthorized`` without the access the change
  ///   needs; ``EKError/Code/objectBelongsToDifferentStore`` for an event of another store;
  ///   ``EKError/Code/noCalendar``, ``EKError/Code/calendarDoesNotAllowEvents`` or
  ///   ``EKError/Code/calendarReadOnly`` for a missing or unsuitable calendar;
  ///   ``EKError/Code/noStartDate``, ``EKError/Code/noEndDate``, ``EKError/Code/datesInverted`` or
  ///   ``EKError/Code/startDateTooFarInFuture`` for its dates;
  ///   ``EKError/Code/durationGreaterThanRecurrence``, ``EKError/Code/alarmGreaterThanRecurrence``,
  ///   ``EKError/Code/invalidSpan`` or ``EKError/Code/startDateCollidesWithOtherOccurrence`` for a
  ///   repeating event; ``EKError/Code/procedureAlarmsNotMutable`` or
  ///   ``EKError/Code/alarmProximityNotSupported`` for its alarms; ``EKError/Code/internalFailure``
  ///   for anything else the store cannot keep (the message names it). When the save commits, also
  ///   what ``commit()`` throws. A refused save changes nothing.
  ///
  /// ```swift
  /// let event = EKEvent(eventStore: store)
  /// event.title = "Dentist"
  /// event.calendar = store.defaultCalendarForNewEvents
  /// event.startDate = Date()
  /// event.endDate = event.startDate.addingTimeInterval(3600)
  /// try store.save(event, span: .thisEvent)
  /// ```
  open func save(_ event: EKEvent, span: EKSpan) throws {
    try save(event, span: span, commit: true)
  }

  /// Saves an event: with `commit: false` the change waits in this store for `commit()`.
  ///
  /// See <doc:SavingAndBatching> and <doc:RecurringEvents>.
  ///
  /// - Parameters:
  ///   - event: The event to save, new or fetched from this store.
  ///   - span: For an occurrence of a repeating event, `.thisEvent` for it alone or `.futureEvents`
  ///     for it and those after it.
  ///   - commit: Whether to commit at once; false stages the change for ``commit()``.
  /// - Throws: ``EKError``: ``EKError/Code/eventStoreNotAuthorized`` without the access the change
  ///   needs; ``EKError/Code/objectBelongsToDifferentStore`` for an event of another store;
  ///   ``EKError/Code/noCalendar``, ``EKError/Code/calendarDoesNotAllowEvents`` or
  ///   ``EKError/Code/calendarReadOnly`` for a missing or unsuitable calendar;
  ///   ``EKError/Code/noStartDate``, ``EKError/Code/noEndDate``, ``EKError/Code/datesInverted`` or
  ///   ``EKError/Code/startDateTooFarInFuture`` for its dates;
  ///   ``EKError/Code/durationGreaterThanRecurrence``, ``EKError/Code/alarmGreaterThanRecurrence``,
  ///   ``EKError/Code/invalidSpan`` or ``EKError/Code/startDateCollidesWithOtherOccurrence`` for a
  ///   repeating event; ``EKError/Code/procedureAlarmsNotMutable`` or
  ///   ``EKError/Code/alarmProximityNotSupported`` for its alarms; ``EKError/Code/internalFailure``
  ///   for anything else the store cannot keep (the message names it). When the save commits, also
  ///   what ``commit()`` throws. A refused save changes nothing.
  ///
  /// ```swift
  /// let work = store.calendars(for: .event).first { $0.title == "Work" }
  /// for event in events {
  ///   event.calendar = work
  ///   try store.save(event, span: .thisEvent, commit: false)
  /// }
  /// try store.commit()
  /// ```
  open func save(_ event: EKEvent, span: EKSpan, commit: Bool) throws {
    try saveEvent(event, span: span, commit: commit)
  }

  /// Removes an event and commits at once (`commit: true`).
  ///
  /// See <doc:SavingAndBatching#Removing> and <doc:RecurringEvents>.
  ///
  /// - Parameters:
  ///   - event: A saved event of this store.
  ///   - span: For an occurrence, `.thisEvent` for it alone or `.futureEvents` for it and those
  ///     after it.
  /// - Throws: ``EKError``: ``EKError/Code/eventStoreNotAuthorized`` without full access;
  ///   ``EKError/Code/objectBelongsToDifferentStore`` for an event of another store;
  ///   ``EKError/Code/calendarReadOnly`` when its calendar is read-only;
  ///   ``EKError/Code/internalFailure`` for an event never saved. An occurrence removed or cut
  ///   off since it was fetched is no error: nothing is left to remove. When the removal
  ///   commits, also what ``commit()`` throws.
  ///
  /// ```swift
  /// if let event = store.event(withIdentifier: id) {
  ///   try store.remove(event, span: .futureEvents)
  /// }
  /// ```
  open func remove(_ event: EKEvent, span: EKSpan) throws {
    try remove(event, span: span, commit: true)
  }

  /// Removes an event, or some occurrences of a repeating one; with `commit: false` the removal
  /// waits in this store for ``commit()``. See <doc:SavingAndBatching#Removing> and
  /// <doc:RecurringEvents>.
  ///
  /// - Parameters:
  ///   - event: A saved event of this store.
  ///   - span: For an occurrence, `.thisEvent` for it alone or `.futureEvents` for it and those
  ///     after it.
  ///   - commit: Whether to commit at once; false stages the removal for ``commit()``.
  /// - Throws: ``EKError``: ``EKError/Code/eventStoreNotAuthorized`` without full access;
  ///   ``EKError/Code/objectBelongsToDifferentStore`` for an event of another store;
  ///   ``EKError/Code/calendarReadOnly`` when its calendar is read-only;
  ///   ``EKError/Code/internalFailure`` for an event never saved. An occurrence removed or cut
  ///   off since it was fetched is no error: nothing is left to remove. When the removal
  ///   commits, also what ``commit()`` throws.
  ///
  /// ```swift
  /// let cancelled = events.filter { $0.title?.hasPrefix("Cancelled") == true }
  /// for event in cancelled { try store.remove(event, span: .thisEvent, commit: false) }
  /// try store.commit()
  /// ```
  open func remove(_ event: EKEvent, span: EKSpan, commit: Bool) throws {
    try removeEvent(event, span: span, commit: commit)
  }

  /// Saves a reminder; with `commit: false` the change waits in this store for ``commit()``. See
  /// <doc:SavingAndBatching>.
  ///
  /// - Parameters:
  ///   - reminder: The reminder to save, new or fetched from this store.
  ///   - commit: Whether to commit at once; false stages the change for ``commit()``.
  /// - Throws: ``EKError``: ``EKError/Code/eventStoreNotAuthorized`` without full access to
  ///   reminders; ``EKError/Code/objectBelongsToDifferentStore`` for a reminder of another store;
  ///   ``EKError/Code/noCalendar``, ``EKError/Code/calendarDoesNotAllowReminders`` or
  ///   ``EKError/Code/calendarReadOnly`` for a missing or unsuitable list;
  ///   ``EKError/Code/priorityIsInvalid`` for a priority outside 0–9;
  ///   ``EKError/Code/recurringReminderRequiresDueDate`` for a repeating reminder without a full
  ///   due date; ``EKError/Code/reminderAlarmContainsEmailOrUrl``,
  ///   ``EKError/Code/procedureAlarmsNotMutable`` or ``EKError/Code/alarmProximityNotSupported``
  ///   for its alarms; ``EKError/Code/internalFailure`` for anything else the store cannot keep
  ///   (the message names it). When the save commits, also what ``commit()`` throws.
  ///
  /// ```swift
  /// let reminder = EKReminder(eventStore: store)
  /// reminder.title = "Buy milk"
  /// reminder.calendar = store.defaultCalendarForNewReminders()
  /// try store.save(reminder, commit: true)
  /// ```
  open func save(_ reminder: EKReminder, commit: Bool) throws {
    try saveReminder(reminder, commit: commit)
  }

  /// Removes a reminder; with `commit: false` the removal waits in this store for ``commit()``. See
  /// <doc:SavingAndBatching#Removing>.
  ///
  /// - Parameters:
  ///   - reminder: A saved reminder of this store.
  ///   - commit: Whether to commit at once; false stages the removal for ``commit()``.
  /// - Throws: ``EKError``: ``EKError/Code/eventStoreNotAuthorized`` without full access to
  ///   reminders; ``EKError/Code/objectBelongsToDifferentStore`` for a reminder of another store;
  ///   ``EKError/Code/calendarReadOnly`` when its list is read-only;
  ///   ``EKError/Code/internalFailure`` for a reminder never saved. When the removal commits, also
  ///   what ``commit()`` throws.
  ///
  /// ```swift
  /// try store.remove(reminder, commit: true)
  /// ```
  open func remove(_ reminder: EKReminder, commit: Bool) throws {
    try removeReminder(reminder, commit: commit)
  }

  /// Saves a new or changed calendar or reminder list; with `commit: false` the change waits in
  /// this store for ``commit()``. See <doc:SavingAndBatching#Calendars>.
  ///
  /// - Parameters:
  ///   - calendar: The calendar to save, new or fetched from this store.
  ///   - commit: Whether to commit at once; false stages the change for ``commit()``.
  /// - Throws: ``EKError``: ``EKError/Code/eventStoreNotAuthorized`` without full access;
  ///   ``EKError/Code/objectBelongsToDifferentStore`` for a calendar of another store;
  ///   ``EKError/Code/calendarHasNoSource`` without a source;
  ///   ``EKError/Code/calendarSourceCannotBeModified`` when its source was changed;
  ///   ``EKError/Code/calendarIsImmutable`` for a change to an immutable calendar;
  ///   ``EKError/Code/sourceDoesNotAllowCalendarAddDelete`` when the source takes no new calendars;
  ///   ``EKError/Code/internalFailure`` for an empty title. When the save commits, also what
  ///   ``commit()`` throws.
  ///
  /// ```swift
  /// let calendar = EKCalendar(for: .event, eventStore: store)
  /// calendar.title = "Climbing"
  /// calendar.source = store.sources.first { $0.sourceType == .local }
  /// try store.saveCalendar(calendar, commit: true)
  /// ```
  open func saveCalendar(_ calendar: EKCalendar, commit: Bool) throws {
    try storeCalendar(calendar, commit: commit)
  }

  /// Removes a calendar with every item in it.
  ///
  /// With `commit: false` the removal waits in this store for ``commit()``. See
  /// <doc:SavingAndBatching#Calendars>.
  ///
  /// - Parameters:
  ///   - calendar: A saved calendar of this store.
  ///   - commit: Whether to commit at once; false stages the removal for ``commit()``.
  /// - Throws: ``EKError``: ``EKError/Code/eventStoreNotAuthorized`` without full access;
  ///   ``EKError/Code/objectBelongsToDifferentStore`` for a calendar of another store;
  ///   ``EKError/Code/noCalendar`` when it is not in the store;
  ///   ``EKError/Code/calendarIsImmutable`` for an immutable calendar;
  ///   ``EKError/Code/sourceDoesNotAllowCalendarAddDelete`` when its source keeps its calendars.
  ///   When the removal commits, also what ``commit()`` throws.
  ///
  /// ```swift
  /// try store.removeCalendar(calendar, commit: true)
  /// ```
  open func removeCalendar(_ calendar: EKCalendar, commit: Bool) throws {
    try deleteCalendar(calendar, commit: commit)
  }

  /// Writes every staged change in one transaction: all of them, or (on error) none.
  ///
  /// Does nothing when nothing is staged. See <doc:SavingAndBatching>.
  ///
  /// - Throws: ``EKError``: ``EKError/Code/eventStoreNotAuthorized`` when the app lost the access a
  ///   staged change needs; ``EKError/Code/noCalendar`` when a calendar or series a change needs is
  ///   gone; ``EKError/Code/internalFailure`` when the database cannot be opened or refuses the
  ///   write. ``SaveConflictError`` when an item staged with ``saveIfUnchanged(_:span:commit:)`` or
  ///   ``saveIfUnchanged(_:commit:)`` was changed meanwhile. After an error the changes stay
  ///   staged.
  ///
  /// ```swift
  /// let (first, second) = (events[0], events[1])
  /// try store.save(first, span: .thisEvent, commit: false)
  /// try store.save(second, span: .thisEvent, commit: false)
  /// try store.commit()  // both, or neither
  /// ```
  open func commit() throws {
    try commitStaged()
  }

  /// Drops every staged change. Objects fetched before keep their values; fetch again to see
  /// the store as it is.
  ///
  /// See <doc:SavingAndBatching>.
  open func reset() {
    dropStaged()
  }

  // MARK: Access: the person decides once per app and entity type (<doc:Privacy>)

  /// The app's access as the person decided it, read from the `Privacy.sqlite` beside the user's
  /// calendar database (the one ``init()`` opens); the app is known by its bundle identifier
  /// (from its `Info.plist`, else its executable's name). See <doc:Privacy#Handling-every-status>.
  ///
  /// - Parameters:
  ///   - entityType: `.event` or `.reminder`.
  /// - Returns: The status; ``EKAuthorizationStatus/notDetermined`` when nothing was decided or the
  ///   decisions cannot be read.
  open class func authorizationStatus(for entityType: EKEntityType) -> EKAuthorizationStatus {
    currentAuthorizationStatus(for: entityType)
  }

  /// Asks the person, once, to let the app read and change events: the answer comes from the
  /// decision already made, or from the prompt (``accessPromptPresenter``), and is kept. Differs
  /// from Apple's: the prompt is shown on the terminal, or by the presenter the app installs. See
  /// <doc:Privacy#Requesting-access>.
  ///
  /// - Parameters:
  ///   - completion: Called once, on a background queue, with whether access is granted and an
  ///     error when the request itself failed.
  ///
  /// The completion receives ``EKError`` ``EKError/Code/eventStoreNotAuthorized`` when the app's
  /// `Info.plist` lacks the usage description the request needs, and
  /// ``EKError/Code/internalFailure`` when the calendar database cannot be opened.
  ///
  /// ```swift
  /// store.requestFullAccessToEvents { granted, error in
  ///   if granted { print("Read events.") } else { print(error?.localizedDescription ?? "denied") }
  /// }
  /// ```
  open func requestFullAccessToEvents(
    completion: @escaping EKEventStoreRequestAccessCompletionHandler
  ) {
    answerAccessRequest(.fullAccessToEvents, completion)
  }

  /// The `async` form of ``requestFullAccessToEvents(completion:)``. See
  /// <doc:Privacy#Requesting-access>.
  ///
  /// - Returns: Whether access is granted.
  /// - Throws: ``EKError`` ``EKError/Code/eventStoreNotAuthorized`` when the app's `Info.plist`
  ///   lacks the usage description the request needs; ``EKError/Code/internalFailure`` when the
  ///   calendar database cannot be opened.
  ///
  /// ```swift
  /// guard try await store.requestFullAccessToEvents() else { return }
  /// ```
  open func requestFullAccessToEvents() async throws -> Bool {
    try await requestAccess(.fullAccessToEvents)
  }

  /// Asks the person, once, to let the app add events without reading any: with write-only access
  /// it sees only the default calendar and may save new events only
  /// (<doc:Privacy#Write-only-access-to-events>). Differs from Apple's: the prompt is shown on the
  /// terminal, or by the app's presenter. See <doc:Privacy#Requesting-access>.
  ///
  /// - Parameters:
  ///   - completion: Called once, on a background queue, with whether access is granted and an
  ///     error when the request itself failed.
  ///
  /// The completion receives ``EKError`` ``EKError/Code/eventStoreNotAuthorized`` when the app's
  /// `Info.plist` lacks the usage description the request needs, and
  /// ``EKError/Code/internalFailure`` when the calendar database cannot be opened.
  ///
  /// ```swift
  /// store.requestWriteOnlyAccessToEvents { granted, _ in
  ///   if granted { print("Add the booking.") }
  /// }
  /// ```
  open func requestWriteOnlyAccessToEvents(
    completion: @escaping EKEventStoreRequestAccessCompletionHandler
  ) {
    answerAccessRequest(.writeOnlyAccessToEvents, completion)
  }

  /// The `async` form of ``requestWriteOnlyAccessToEvents(completion:)``. See
  /// <doc:Privacy#Requesting-access>.
  ///
  /// - Returns: Whether access is granted.
  /// - Throws: ``EKError`` ``EKError/Code/eventStoreNotAuthorized`` when the app's `Info.plist`
  ///   lacks the usage description the request needs; ``EKError/Code/internalFailure`` when the
  ///   calendar database cannot be opened.
  ///
  /// ```swift
  /// if try await store.requestWriteOnlyAccessToEvents() {
  ///   try store.save(event, span: .thisEvent)
  /// }
  /// ```
  open func requestWriteOnlyAccessToEvents() async throws -> Bool {
    try await requestAccess(.writeOnlyAccessToEvents)
  }

  /// Asks the person, once, to let the app read and change reminders. Differs from Apple's: the
  /// prompt is shown on the terminal, or by the app's presenter. See
  /// <doc:Privacy#Requesting-access>.
  ///
  /// - Parameters:
  ///   - completion: Called once, on a background queue, with whether access is granted and an
  ///     error when the request itself failed.
  ///
  /// The completion receives ``EKError`` ``EKError/Code/eventStoreNotAuthorized`` when the app's
  /// `Info.plist` lacks the usage description the request needs, and
  /// ``EKError/Code/internalFailure`` when the calendar database cannot be opened.
  ///
  /// ```swift
  /// store.requestFullAccessToReminders { granted, _ in
  ///   if granted { print("Read reminders.") }
  /// }
  /// ```
  open func requestFullAccessToReminders(
    completion: @escaping EKEventStoreRequestAccessCompletionHandler
  ) {
    answerAccessRequest(.fullAccessToReminders, completion)
  }

  /// The `async` form of ``requestFullAccessToReminders(completion:)``. See
  /// <doc:Privacy#Requesting-access>.
  ///
  /// - Returns: Whether access is granted.
  /// - Throws: ``EKError`` ``EKError/Code/eventStoreNotAuthorized`` when the app's `Info.plist`
  ///   lacks the usage description the request needs; ``EKError/Code/internalFailure`` when the
  ///   calendar database cannot be opened.
  ///
  /// ```swift
  /// guard try await store.requestFullAccessToReminders() else { return }
  /// ```
  open func requestFullAccessToReminders() async throws -> Bool {
    try await requestAccess(.fullAccessToReminders)
  }

  /// Deprecated, and refused as Apple's store refuses it to apps built for iOS 17 and macOS 14
  /// or later: the completion receives `false` and an `EKError` that names the requests to use
  /// instead. Nothing is asked and nothing is decided (<doc:Privacy>, "Code from before
  /// iOS 17").
  ///
  /// - Parameters:
  ///   - entityType: Ignored.
  ///   - completion: Called once, on a background queue, with `false` and an ``EKError`` with code
  ///     ``EKError/Code/eventStoreNotAuthorized``.
  @available(
    *, deprecated,
    message:
      "Use requestFullAccessToEvents, requestWriteOnlyAccessToEvents or requestFullAccessToReminders"
  )
  open func requestAccess(
    to entityType: EKEntityType, completion: @escaping EKEventStoreRequestAccessCompletionHandler
  ) {
    DispatchQueue.global().async { completion(false, EKError.deprecatedAccessRequest()) }
  }

  /// Deprecated and refused: throws the error the completion form receives.
  ///
  /// See <doc:Privacy#Code-from-before-iOS-17>.
  ///
  /// - Parameters:
  ///   - entityType: Ignored.
  /// - Returns: Never returns normally.
  /// - Throws: Always ``EKError`` with code ``EKError/Code/eventStoreNotAuthorized``, naming the
  ///   requests to use instead.
  @available(
    *, deprecated,
    message:
      "Use requestFullAccessToEvents, requestWriteOnlyAccessToEvents or requestFullAccessToReminders"
  )
  open func requestAccess(to entityType: EKEntityType) async throws -> Bool {
    throw EKError.deprecatedAccessRequest()
  }

  func makeCalendar(_ record: CalendarRecord) -> EKCalendar {
    EKCalendar(eventStore: self, record: record, saved: record)
  }

  /// The calendars as this store sees them: the database's, with staged changes laid over,
  /// limited to what the app's access lets it see.
  func calendarRecords() -> [CalendarRecord] {
    let staged = state.withLock { $0.staged.calendars }
    var records = catalog().calendars.filter { staged[$0.id] == nil }
    records += staged.values.compactMap { $0 }
    let visible = Set(catalog().sources.filter(isVisible).map(\.id))
    return records.filter { visible.contains($0.sourceId) && isAllowed($0) }.sorted {
      ($0.position, $0.title) < ($1.position, $1.title)
    }
  }

  /// Whether the app's access lets it see a calendar.
  private func isAllowed(_ calendar: CalendarRecord) -> Bool {
    let type: EKEntityType = calendar.entityMask.contains(.event) ? .event : .reminder
    switch calendarVisibility(type) {
    case .all: return true
    case .none: return false
    case .defaultOnly:
      return calendar.id == defaultEventCalendarId()
    }
  }

  /// The calendar new events go to: the one the settings name when it is there and writable,
  /// else the first writable event calendar (what `defaultCalendarForNewEvents` shows).
  private func defaultEventCalendarId() -> String? {
    let catalog = catalog()
    let writable = catalog.calendars.filter {
      $0.entityMask.contains(.event) && $0.allowsContentModifications
    }
    let chosen = catalog.settings[DefaultContent.Key.defaultEventCalendar]
    return (writable.first { $0.id == chosen } ?? writable.first)?.id
  }

  /// A calendar as this store sees it. The calendars are kept in memory between changes; a
  /// calendar not found there (made by another process a moment ago, before the change was
  /// posted) or asked for `fresh` is read from the database again.
  func calendarRecord(withIdentifier identifier: String, fresh: Bool = false) -> CalendarRecord? {
    let staged = state.withLock { $0.staged.calendars[identifier] }
    if fresh { dropCatalog() }
    var catalog = catalog()
    var found = catalog.calendars.first(where: { $0.id == identifier })
    if found == nil && staged == nil && !fresh {
      dropCatalog()
      catalog = self.catalog()
      found = catalog.calendars.first(where: { $0.id == identifier })
    }
    guard let record = staged ?? found, isAllowed(record) else {
      return nil
    }
    guard let sourceFilter else { return record }
    return sourceFilter.contains(record.sourceId) ? record : nil
  }

  /// Sources, calendars and settings, as last read from the database.
  func catalog() -> Catalog {
    if let catalog = state.withLock({ $0.catalog }) { return catalog }
    let catalog = read(Catalog.init) ?? Catalog()
    state.withLock { $0.catalog = catalog }
    return catalog
  }
}
