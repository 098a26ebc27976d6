import Foundation
import GRDB
import OpenEventKit
import OpenEventKitUI
import REPLKit

/// One run of a sample app: its console, its own database, and the calendar store once the
/// person has let the app use it.
///
/// The store is made at the first command that needs it, and access is asked then, for the
/// entity type that command needs (events and reminders are asked separately): a person asked
/// at launch does not know why. The person may change their mind while the app runs (`ekctl
/// privacy set`), so access is checked again for every command that needs the store
/// (``store(for:writeOnlyIsEnough:)`` throws the way to change it), and before every prompt
/// and command, where a change of access is said. While the app may not read an entity type,
/// its trackers of that type say nothing: an app without access sees no items, which does
/// not mean they were removed.
///
/// ``AppInfo/run(diagnostics:migrations:commands:)`` makes the session and hands it
/// to the app's `commands`, which keep it:
///
/// ```swift
/// struct ClubCommands {
///   let session: AppSession
///   var all: [REPLCommand] {
///     [
///       REPLCommand("meetings", help: "Lists the meetings.") {
///         let store = try session.store(for: .event)  // asks the first time; throws when refused
///         session.console.print("\(store.calendars(for: .event).count) calendars")
///       }
///     ]
///   }
/// }
/// ```
///
/// It is used from the REPL's thread only (its hooks and commands).
public final class AppSession: @unchecked Sendable {
  /// The app's identity.
  public let app: AppInfo
  /// The console that commands read from and write to, and that the session tells changes
  /// on.
  public let console: Console
  /// The app's own database, opened and migrated.
  public let database: AppDatabase
  /// The calendar store, once a command that needed it was given access; nil before.
  public private(set) var store: EKEventStore?
  /// The statuses last seen for the entity types the app has asked for.
  private var statuses: [EKEntityType: EKAuthorizationStatus] = [:]
  private var trackers: [TrackedItems] = []
  /// Undoes the app's own records of adding work found unfinished, in the transaction that
  /// marks it repaired: for apps that make records before their items (``CalendarWork``,
  /// `reference`). Nil when the app has none.
  public var undoRecords: ((CalendarWork, Database) throws -> Void)?
  /// Raised when the store posts a change (another app's write, a privacy decision): what the
  /// idle prompt looks at before doing anything costlier.
  private let news = NewsFlag()
  private var observer: (any NSObjectProtocol)?
  /// What the app runs before each prompt and command, and after each command
  /// (``beforeEachTurn(_:)``, ``afterEachCommand(_:)``), in the order given.
  private var turnBodies: [() -> Void] = []
  private var commandBodies: [() -> Void] = []
  /// The app's own way to its store, access checked, for ``repairAtStart()``: an app that
  /// makes its `EKEventStore` itself (as the samples do) sets it, so that the repair at the
  /// start goes through the app's access check and observer; nil (the default) for
  /// ``store(for:writeOnlyIsEnough:)``.
  ///
  /// ```swift
  /// let store = EKEventStore()
  /// session.storeForRepair = { entityType in
  ///   // The app's own access check would go here; the repair reads and removes items.
  ///   guard EKEventStore.authorizationStatus(for: entityType) == .fullAccess else {
  ///     throw REPLError("no access")
  ///   }
  ///   session.repairUnfinishedWork(of: entityType, in: store)
  ///   return store
  /// }
  /// ```
  public var storeForRepair: ((EKEntityType) throws -> EKEventStore)?

  /// A session with no store yet; ``AppInfo/run(diagnostics:migrations:commands:)``
  /// makes one, as a test may.
  ///
  /// ```swift
  /// let app = AppInfo(name: "club", prompt: "club> ", about: "Keeps the club's meetings.")
  /// let transcript = Transcript()
  /// let console = Console.scripted(["1"], transcript: transcript, timeZone: .gmt, now: Date())
  /// // A test's own folder, not the person's data.
  /// let home = FileManager.default.temporaryDirectory.appendingPathComponent("club-test").path
  /// let database = try AppDatabase(app: app, environment: ["OPENEVENTKIT_HOME": home])
  /// let session = AppSession(app: app, console: console, database: database)
  /// print(session.store == nil)  // true: made by the first command that needs it
  /// ```
  ///
  /// - Parameters:
  ///   - app: The app's identity.
  ///   - console: Where the session's commands and messages read and write.
  ///   - database: The app's database, where unfinished ``CalendarWork`` is looked for.
  public init(app: AppInfo, console: Console, database: AppDatabase) {
    self.app = app
    self.console = console
    self.database = database
  }

  deinit {
    if let observer { NotificationCenter.default.removeObserver(observer) }
  }

  // MARK: Access at need

  /// The calendar store, for a command that reads or writes items of `entityType`: made the
  /// first time, with the person asked for full access when they have not decided yet.
  /// Throws, saying how to change it, when the app may not use them.
  ///
  /// A command that only adds new events passes `writeOnlyIsEnough`: when the person gave
  /// the app write-only access to events, the store is returned as it is (it sees only the
  /// default calendar and can add new events to it, nothing else; OpenEventKit.docc/Privacy.md),
  /// rather than the person being asked again for full access.
  ///
  /// With full access to `entityType`, it also repairs the unfinished ``CalendarWork`` of that
  /// type that a stopped run left (saying what it did), and starts the trackers of that type
  /// (``track(_:snapshot:describe:order:summary:)``) not started yet.
  ///
  /// ```swift
  /// let store = try session.store(for: .event)  // asks the first time; throws when refused
  /// ```
  ///
  /// - Parameters:
  ///   - entityType: Whether the command works on events or on reminders.
  ///   - writeOnlyIsEnough: Whether write-only access to events will do (for a command that
  ///     only adds events); false by default. Ignored for reminders.
  /// - Returns: The session's one store, the same for every command and entity type.
  /// - Throws: REPLKit's `REPLError`, a sentence for the person ending with how to change the
  ///   decision, when the app may not use `entityType` (OpenEventKitUI's
  ///   `CalendarAccess.requireFullAccess(to:store:console:)` says which cases).
  public func store(for entityType: EKEntityType, writeOnlyIsEnough: Bool = false) throws
    -> EKEventStore
  {
    let store = self.store ?? EKEventStore()
    if writeOnlyIsEnough, entityType == .event,
      EKEventStore.authorizationStatus(for: .event) == .writeOnly
    {
      keep(store)
      statuses[entityType] = .writeOnly
      return store
    }
    do {
      try CalendarAccess.requireFullAccess(to: entityType, store: store, console: console)
    } catch {
      statuses[entityType] = EKEventStore.authorizationStatus(for: entityType)
      throw error
    }
    keep(store)
    statuses[entityType] = .fullAccess
    repairUnfinishedWork(of: entityType, in: store)
    for tracked in trackers where tracked.entityType == entityType { tracked.start(store) }
    return store
  }

  /// Keeps the store made for the first command that needed it, and hears its changes.
  private func keep(_ store: EKEventStore) {
    if self.store == nil {
      observer = NotificationCenter.default.addObserver(
        forName: .EKEventStoreChanged, object: store, queue: nil
      ) { [news] _ in news.raise() }
    }
    self.store = store
  }

  // MARK: Other apps' changes

  /// Tracks the items of `entityType` that `snapshot` reads (each a key and its state), and
  /// tells what other apps changed, a sentence per change from `describe` (nil: nothing to
  /// say), at the next prompt, followed by what `summary` prints when there was anything to
  /// say (the standings after a vote, say). The tracker starts when the app first gets access
  /// to `entityType`; a command claims the keys it works on (`ChangeTracker.claim(_:)`). Call it
  /// once per kind of item, when the commands are made: each call adds a tracker.
  ///
  /// ```swift
  /// import GRDB
  ///
  /// let dates = DateText(timeZone: session.console.timeZone)
  /// let changes = session.track(
  ///   .event,
  ///   snapshot: { store in  // the day of each recorded payment's event, by payment number
  ///     let rows = (try? session.database.queue.read { db in
  ///       try Row.fetchAll(
  ///         db, sql: "SELECT number, eventIdentifier FROM payment WHERE eventIdentifier NOT NULL")
  ///     }) ?? []
  ///     var days: [Int: String] = [:]
  ///     for row in rows {
  ///       let event = store.event(withIdentifier: row["eventIdentifier"])
  ///       days[row["number"]] = event.map { dates.day($0.startDate) } ?? "nowhere"
  ///     }
  ///     return days
  ///   },
  ///   describe: { change in  // nil: a payment the app added or forgot, which is no news
  ///     guard let before = change.before, let after = change.after, before != after
  ///     else { return nil }
  ///     return "payment \(change.key) was moved from \(before) to \(after)."
  ///   })
  /// // at the next prompt, after another app moved payment 1's event:
  /// // Calendar: payment 1 was moved from Mon 3 Mar 2025 to Wed 5 Mar 2025.
  /// ```
  ///
  /// loan-scheduler's `PaymentChanges` does the same for every loan's payments, with
  /// sentences that name the loan.
  ///
  /// - Parameters:
  ///   - entityType: The kind of items the snapshot reads; each sentence is told after
  ///     "Calendar: " or "Reminders: ".
  ///   - snapshot: Reads the tracked items' states from the store; it must not ask the person
  ///     anything.
  ///   - describe: A sentence for a change of one item (added, changed or removed), or nil to
  ///     say nothing of it.
  ///   - order: Whether one change is told before another: by the items' times, say. Nil
  ///     (the default) tells them in the order of their keys, which is no order a person
  ///     sees when the keys are identifiers.
  ///   - summary: Runs after the sentences when there was any; nil (the default) for none.
  /// - Returns: The tracker, for the commands to claim the keys they work on.
  public func track<Key: Hashable & Comparable, State: Equatable>(
    _ entityType: EKEntityType, snapshot: @escaping (EKEventStore) -> [Key: State],
    describe: @escaping (ChangeTracker<Key, State>.Change) -> String?,
    order: ((ChangeTracker<Key, State>.Change, ChangeTracker<Key, State>.Change) -> Bool)? = nil,
    summary: (() -> Void)? = nil
  ) -> ChangeTracker<Key, State> {
    let tracker = ChangeTracker(of: [entityType], snapshot: snapshot)
    let told: ([ChangeTracker<Key, State>.Change]?) -> [String] = { changes in
      let changes = changes ?? []
      return (order.map { changes.sorted(by: $0) } ?? changes).compactMap(describe)
    }
    trackers.append(
      TrackedItems(
        entityType: entityType, start: { tracker.start(with: $0) },
        isStarted: { tracker.isStarted },
        changes: { told(tracker.changes()) },
        settle: { told(tracker.settle()) }, summary: summary))
    return tracker
  }

  /// Says what changed since the last prompt: access given or taken away in the meantime,
  /// and other apps' changes to the items tracked. Run before each prompt and each command.
  ///
  /// ``install(on:)`` makes the REPL call it; an app calls it itself only when it runs its own
  /// loop.
  ///
  /// ```swift
  /// // In a loop of the app's own: say what changed before reading the next command.
  /// while true {
  ///   session.tellOfChanges()  // "Calendar: …" lines, or access given or taken away
  ///   let reader = session.console.reader
  ///   guard let line = reader.readCommand(prompt: session.app.prompt) else { break }
  ///   session.console.print("you typed \(line)")
  /// }
  /// ```
  public func tellOfChanges() {
    for (entityType, before) in statuses.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
      let now = EKEventStore.authorizationStatus(for: entityType)
      guard now != before, now == .fullAccess || before == .fullAccess else { continue }
      statuses[entityType] = now
      let noun = CalendarAccess.noun(entityType)
      console.print(
        now == .fullAccess
          ? "\(label(entityType)): this app may now use your \(noun)."
          : "\(label(entityType)): this app may no longer use your \(noun). "
            + CalendarAccess.howToChange(entityType))
    }
    tell { $0.changes() }
  }

  /// After a command: takes what it did as the app's own, and tells what other apps changed
  /// meanwhile in the items it did not claim.
  ///
  /// ``install(on:)`` makes the REPL call it after each command.
  ///
  /// ```swift
  /// // In a loop of the app's own, after each command the app ran itself:
  /// let meetings = session.track(
  ///   .event, snapshot: { $0.calendarItemStamps() }, describe: { "\($0.key) changed" })
  /// let store = try session.store(for: .event)
  /// let event = EKEvent(eventStore: store)
  /// event.title = "Club meeting"
  /// event.startDate = session.console.now
  /// event.endDate = session.console.now.addingTimeInterval(3600)
  /// event.calendar = store.defaultCalendarForNewEvents
  /// meetings.claim { $0 == event.calendarItemIdentifier }  // the command's own item
  /// try store.save(event, span: .thisEvent)
  /// session.settle()  // what is claimed is not told; other apps' changes are
  /// ```
  public func settle() {
    tell { $0.settle() }
  }

  private func tell(_ sentences: (TrackedItems) -> [String]) {
    // A tracker says nothing while the app may not read its items (ChangeTracker checks).
    for tracked in trackers where tracked.isStarted() {
      let told = sentences(tracked)
      for sentence in told {
        console.print("\(label(tracked.entityType)): \(sentence)")
      }
      if !told.isEmpty { tracked.summary?() }
    }
  }

  /// "Calendar" or "Reminders", before what is told of them.
  private func label(_ entityType: EKEntityType) -> String {
    CalendarAccess.noun(entityType).capitalized
  }

  // MARK: The app's own hooks

  /// Runs `body` before each prompt and before each command (once its words fit the
  /// command's synopsis), and on a terminal at once while the prompt waits after
  /// ``wakePrompt()``: for work of the app's own between turns. An app that observes the store
  /// needs no hook: the session runs the main queue at the same moments, so an observer added
  /// with `queue: .main`, as Apple's sample code adds it, runs there (the samples do that).
  ///
  /// Bodies run in the order they were given, after the session's own sentences.
  ///
  /// ```swift
  /// let store = EKEventStore()
  /// var shown = store.calendars(for: .event).count
  /// session.beforeEachTurn {  // refetch, and tell only a difference
  ///   let now = store.calendars(for: .event).count
  ///   if now != shown { session.console.print("Calendar: \(now) calendars now.") }
  ///   shown = now
  /// }
  /// ```
  ///
  /// - Parameter body: What to run; it runs on the REPL's thread.
  public func beforeEachTurn(_ body: @escaping () -> Void) {
    turnBodies.append(body)
  }

  /// Runs `body` after each command, whether it succeeded or threw, before the REPL prints
  /// the command's error: where an app takes the command's own changes as its own and tells
  /// what other apps changed meanwhile.
  ///
  /// ```swift
  /// session.afterEachCommand {
  ///   session.console.print("done")  // said after each command, before its `Error:` line
  /// }
  /// ```
  ///
  /// - Parameter body: What to run; it runs on the REPL's thread.
  public func afterEachCommand(_ body: @escaping () -> Void) {
    commandBodies.append(body)
  }

  /// Makes a prompt waiting on a terminal run the ``beforeEachTurn(_:)`` bodies at once,
  /// rather than at the next command. Safe from any thread (the notification's queue, say); a
  /// piped session has no idle prompt, so it changes nothing there. An app that observes
  /// `.EKEventStoreChanged` as Apple's sample code does, with `queue: .main`, needs neither:
  /// the session runs the main queue while the prompt waits (as the samples do).
  ///
  /// ```swift
  /// let store = EKEventStore()
  /// let observer = NotificationCenter.default.addObserver(
  ///   forName: .EKEventStoreChanged, object: store, queue: nil
  /// ) { _ in session.wakePrompt() }  // the prompt refetches and tells at once
  /// NotificationCenter.default.removeObserver(observer)
  /// ```
  public func wakePrompt() {
    news.raise()
  }

  /// Sets the REPL's hooks: changes told before each prompt and each command, and settled
  /// after each command; on a terminal, told at once while the prompt waits, when the store
  /// posted a change. The app's own ``beforeEachTurn(_:)`` and ``afterEachCommand(_:)``
  /// bodies run after the session's.
  ///
  /// It replaces the REPL's `beforePrompt`, `beforeCommand`, `afterCommand` and `whileIdle`;
  /// ``AppInfo/run(diagnostics:migrations:commands:)`` calls it.
  ///
  /// ```swift
  /// let repl = REPL(prompt: app.prompt, commands: commands, console: session.console)
  /// session.install(on: repl)
  /// exit(repl.run())
  /// ```
  ///
  /// - Parameter repl: The REPL whose hooks are set.
  public func install(on repl: REPL) {
    repl.beforePrompt = { [self] in beforeTurn() }
    repl.beforeCommand = { [self] _ in beforeTurn() }
    repl.afterCommand = { [self] _ in
      Self.runMainQueue()
      settle()
      for body in commandBodies { body() }
    }
    repl.whileIdle = { [self] in
      Self.runMainQueue()  // what it prints appears above the waiting prompt
      return news.lower() ? { self.beforeTurn() } : nil
    }
  }

  private func beforeTurn() {
    Self.runMainQueue()
    tellOfChanges()
    for body in turnBodies { body() }
  }

  /// Runs the blocks waiting on the main queue, as an app's run loop does between events: an
  /// app's `.EKEventStoreChanged` observer added with `queue: .main` among them. The REPL runs
  /// on the main thread, which waits in readline between commands, not in a run loop; so the
  /// session runs the main queue before each prompt, before and after each command, and on a
  /// terminal every fifth of a second while the prompt waits (not while a form's question
  /// waits: a person answering is not interrupted). A command runs on the main thread too: a
  /// block posted meanwhile waits for it to end, as it would in an app whose main thread is
  /// busy. Off the main thread, it does nothing.
  ///
  /// NotificationCenter's `post` hands a notice to its `queue: .main` observers one at a time:
  /// it waits until one's block has run before it queues the next (an app that observes its
  /// store twice, for its items and for its access, has two). So once a block ran, the
  /// session waits a moment for the next, as a run loop would be there for it: up to 50 ms
  /// after each, only while a notice is being handed over.
  static func runMainQueue() {
    guard Thread.isMainThread else { return }
    var handingOver = OperationQueue.main.operationCount > 0
    _ = RunLoop.main.run(mode: .default, before: Date())
    for _ in 0..<16 where handingOver {
      let start = Date()
      _ = RunLoop.main.run(mode: .default, before: start.addingTimeInterval(0.05))
      handingOver = Date().timeIntervalSince(start) < 0.05  // a block came, and ran
    }
  }

  /// Whether the store posted a change since it was last lowered; raised on the
  /// notification's thread, lowered on the REPL's.
  private final class NewsFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var raised = false
    func raise() { lock.withLock { raised = true } }
    func lower() -> Bool {
      lock.withLock {
        defer { raised = false }
        return raised
      }
    }
  }

  /// A tracker without its types: what the session needs of it.
  private struct TrackedItems {
    let entityType: EKEntityType
    let start: (EKEventStore) -> Void
    let isStarted: () -> Bool
    let changes: () -> [String]
    let settle: () -> [String]
    let summary: (() -> Void)?
  }
}
