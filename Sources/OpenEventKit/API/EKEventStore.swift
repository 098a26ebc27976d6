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
    /// Whether a sync started by `refreshSourcesIfNecessary()` is running.
    var isSyncingSources = false
  }

  /// Opens the user's calendar database, creating it on first use.
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
  @available(*, deprecated, message: "Use init() and request access")
  public convenience init(accessToEntityTypes entityTypes: EKEntityMask) {
    self.init()
  }

  /// Opens (creating when missing) the calendar database in `folder`, as `OPENEVENTKIT_HOME`
  /// would name it: for tools and tests that keep a store apart from the user's.
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
  public init(ownerOf databaseFile: URL, create: Bool = false) throws {
    location = StoreLocation(databaseFile: databaseFile)
    guard create || FileManager.default.fileExists(atPath: databaseFile.path) else {
      throw EKError(.internalFailure, "no calendar database at \(databaseFile.path)")
    }
    (database, openError) = EKEventStore.open(location, quietly: true)
    if let openError { throw openError }
    privacy = try? PrivacyDatabase(location: location)
    sourceFilter = nil
    actsForOwner = true
    super.init()
    startWatching()
  }

  /// The user's calendar database file, as ``init()`` opens it.
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
    state.withLock { $0.catalog = nil }
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
  open var eventStoreIdentifier: String {
    catalog().settings[DefaultContent.Key.storeIdentifier] ?? ""
  }

  // MARK: Sources

  open var sources: [EKSource] {
    catalog().sources.filter(isVisible).map { EKSource(eventStore: self, record: $0) }
  }

  /// Delegated accounts do not exist here.
  open var delegateSources: [EKSource] { [] }

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
  open func calendars(for entityType: EKEntityType) -> [EKCalendar] {
    let mask: EKEntityMask = entityType == .event ? .event : .reminder
    return calendarRecords().filter { $0.entityMask.contains(mask) }.map(makeCalendar)
  }

  @available(*, deprecated, renamed: "calendars(for:)")
  open var calendars: [EKCalendar] { calendars(for: .event) }

  open func calendar(withIdentifier identifier: String) -> EKCalendar? {
    calendarRecord(withIdentifier: identifier).map(makeCalendar)
  }

  /// The calendar new events go to unless the app chooses another.
  open var defaultCalendarForNewEvents: EKCalendar? {
    defaultCalendar(key: DefaultContent.Key.defaultEventCalendar, mask: .event)
  }

  /// The list new reminders go to unless the app chooses another.
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
  /// again, and starts a sync of each CalDAV source not synced in the last minute, in the
  /// background (<doc:Sync>); its changes come as `EKEventStoreChanged`.
  open func refreshSourcesIfNecessary() {
    state.withLock { $0.catalog = nil }
    startSourceSync()
  }

  // MARK: Events and reminders by identifier

  /// The event or reminder with this `calendarItemIdentifier`; nil when there is none (or it
  /// was deleted). For a repeating event, its first occurrence.
  open func calendarItem(withIdentifier identifier: String) -> EKCalendarItem? {
    findCalendarItem(identifier: identifier)
  }

  /// Every event and reminder with this iCalendar UID (`calendarItemExternalIdentifier`).
  open func calendarItems(withExternalIdentifier externalIdentifier: String) -> [EKCalendarItem] {
    findCalendarItems(externalIdentifier: externalIdentifier)
  }

  /// The event with this `eventIdentifier`; for a repeating event, its first occurrence. Nil
  /// when there is none, or it was deleted.
  open func event(withIdentifier identifier: String) -> EKEvent? {
    findEvent(identifier: identifier)
  }

  // MARK: Events by date

  /// A predicate for the occurrences that overlap `[startDate, endDate)` in `calendars` (all
  /// calendars when nil). Any range works, however long.
  open func predicateForEvents(
    withStart startDate: Date, end endDate: Date, calendars: [EKCalendar]?
  ) -> NSPredicate {
    EventPredicate(
      start: startDate, end: endDate, calendarIds: calendars?.map(\.calendarIdentifier))
  }

  /// Every occurrence the predicate matches, sorted by start: one `EKEvent` per occurrence of
  /// a repeating event. (Apple promises no order; sort with `compareStartDate(with:)` where
  /// order matters.)
  open func events(matching predicate: NSPredicate) -> [EKEvent] {
    fetchEvents(matching: predicate)
  }

  /// Calls `block` with each occurrence the predicate matches, in start order, without holding
  /// them all in memory; setting `stop.pointee = true` ends the enumeration.
  open func enumerateEvents(
    matching predicate: NSPredicate, using block: @escaping EKEventSearchCallback
  ) {
    streamEvents(matching: predicate, using: block)
  }

  // MARK: Reminders

  /// A predicate for every reminder in `calendars` (all lists when nil).
  open func predicateForReminders(in calendars: [EKCalendar]?) -> NSPredicate {
    ReminderPredicate(kind: .all, calendarIds: calendars?.map(\.calendarIdentifier))
  }

  /// A predicate for the incomplete reminders due in `[startDate, endDate)`; with both nil,
  /// every incomplete reminder, with or without a due date.
  open func predicateForIncompleteReminders(
    withDueDateStarting startDate: Date?, ending endDate: Date?, calendars: [EKCalendar]?
  ) -> NSPredicate {
    ReminderPredicate(
      kind: .incomplete(dueFrom: startDate, dueBefore: endDate),
      calendarIds: calendars?.map(\.calendarIdentifier))
  }

  /// A predicate for the reminders completed in `[startDate, endDate)`; with both nil, every
  /// completed reminder.
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
  @discardableResult
  open func fetchReminders(
    matching predicate: NSPredicate, completion: @escaping ([EKReminder]?) -> Void
  ) -> Any {
    startReminderFetch(matching: predicate, completion: completion)
  }

  open func cancelFetchRequest(_ fetchIdentifier: Any) {
    cancelReminderFetch(fetchIdentifier)
  }

  // MARK: Saving

  /// Saves an event and commits at once (`commit: true`).
  open func save(_ event: EKEvent, span: EKSpan) throws {
    try save(event, span: span, commit: true)
  }

  /// Saves an event: with `commit: false` the change waits in this store for `commit()`.
  open func save(_ event: EKEvent, span: EKSpan, commit: Bool) throws {
    try saveEvent(event, span: span, commit: commit)
  }

  /// Removes an event and commits at once (`commit: true`).
  open func remove(_ event: EKEvent, span: EKSpan) throws {
    try remove(event, span: span, commit: true)
  }

  open func remove(_ event: EKEvent, span: EKSpan, commit: Bool) throws {
    try removeEvent(event, span: span, commit: commit)
  }

  open func save(_ reminder: EKReminder, commit: Bool) throws {
    try saveReminder(reminder, commit: commit)
  }

  open func remove(_ reminder: EKReminder, commit: Bool) throws {
    try removeReminder(reminder, commit: commit)
  }

  open func saveCalendar(_ calendar: EKCalendar, commit: Bool) throws {
    try storeCalendar(calendar, commit: commit)
  }

  /// Removes a calendar with every item in it.
  open func removeCalendar(_ calendar: EKCalendar, commit: Bool) throws {
    try deleteCalendar(calendar, commit: commit)
  }

  /// Writes every staged change in one transaction: all of them, or (on error) none.
  open func commit() throws {
    try commitStaged()
  }

  /// Drops every staged change. Objects fetched before keep their values; fetch again to see
  /// the store as it is.
  open func reset() {
    dropStaged()
  }

  // MARK: Access: the person decides once per app and entity type (<doc:Privacy>)

  open class func authorizationStatus(for entityType: EKEntityType) -> EKAuthorizationStatus {
    currentAuthorizationStatus(for: entityType)
  }

  open func requestFullAccessToEvents(
    completion: @escaping EKEventStoreRequestAccessCompletionHandler
  ) {
    answerAccessRequest(.fullAccessToEvents, completion)
  }

  open func requestFullAccessToEvents() async throws -> Bool {
    try await requestAccess(.fullAccessToEvents)
  }

  open func requestWriteOnlyAccessToEvents(
    completion: @escaping EKEventStoreRequestAccessCompletionHandler
  ) {
    answerAccessRequest(.writeOnlyAccessToEvents, completion)
  }

  open func requestWriteOnlyAccessToEvents() async throws -> Bool {
    try await requestAccess(.writeOnlyAccessToEvents)
  }

  open func requestFullAccessToReminders(
    completion: @escaping EKEventStoreRequestAccessCompletionHandler
  ) {
    answerAccessRequest(.fullAccessToReminders, completion)
  }

  open func requestFullAccessToReminders() async throws -> Bool {
    try await requestAccess(.fullAccessToReminders)
  }

  /// Deprecated, and refused as Apple's store refuses it to apps built for iOS 17 and macOS 14
  /// or later: the completion receives `false` and an `EKError` that names the requests to use
  /// instead. Nothing is asked and nothing is decided (<doc:Privacy>, "Code from before
  /// iOS 17").
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
    if fresh { refreshSourcesIfNecessary() }
    var catalog = catalog()
    var found = catalog.calendars.first(where: { $0.id == identifier })
    if found == nil && staged == nil && !fresh {
      refreshSourcesIfNecessary()
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
