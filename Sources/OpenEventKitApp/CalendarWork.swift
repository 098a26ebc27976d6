import Foundation
import GRDB
import OpenEventKit

/// A command's work that spans the app's own database and the calendar store, recorded in the
/// app's database before the store is changed, so that it is finished or undone even when
/// the process is killed half way.
///
/// An app's command often writes twice: to the calendar store (the events it makes) and to
/// its own database (what it owns, with the events' identifiers). They are two SQLite files,
/// so no transaction holds both, and a process killed between them (a crash, `kill -9`, a
/// machine switched off) would leave events the app has no record of, or records of a loan
/// whose events are half gone. So the app writes its intent first, in its own database:
///
/// - **Adding** (``AppDatabase/beginAdding(_:_:items:calendars:)``): the identifiers of the
///   new items and calendars, known before they are saved (`calendarItemIdentifier`,
///   `calendarIdentifier`), are recorded; the store commits them; the app records them in
///   its tables and ``finish(_:)``es the work in the same transaction. Found unfinished, the
///   work is undone: whatever of it reached the store is removed.
/// - **Removing** (``AppDatabase/beginRemoving(_:_:items:calendars:changing:)``): the app's
///   own records go in the same transaction that records the items to remove; then the
///   store removes them, and the work is finished. Found unfinished, it is finished: what is
///   still in the store is removed.
///
/// Either way the rule for work found unfinished is one: the items it names must not outlive
/// it. ``AppSession`` applies it when it opens the store (at the app's next start when the
/// app may use the calendar, else once it may), and says what it repaired.
///
/// ```swift
/// let event = EKEvent(eventStore: store)  // …its calendar, title, dates
/// let work = try database.beginAdding(
///   "making loan 3", .event, items: [event.calendarItemIdentifier])
/// try store.save(event, span: .futureEvents, commit: true)
/// try database.queue.write { db in
///   try db.execute(
///     sql: "INSERT INTO payment (loanId, number, eventIdentifier) VALUES (?, ?, ?)",
///     arguments: [3, 1, event.eventIdentifier])
///   try work.finish(db)  // in the transaction that records the event
/// }
/// ```
public struct CalendarWork: Sendable, Hashable {
  /// Whether the work adds items to the store (undone when found unfinished) or removes them
  /// (finished when found unfinished).
  ///
  /// Its raw value is what the app's database keeps.
  ///
  /// ```swift
  /// for work in try database.unfinishedWork() where work.direction == .removing {
  ///   print("\(work.purpose) will be finished")
  /// }
  /// ```
  public enum Direction: String, Sendable {
    /// `adding`: undone when found unfinished; `removing`: finished when found unfinished.
    case adding, removing
  }

  /// Its row in the app's database.
  public let id: Int64
  /// What the command was doing, as the person would say it: "making loan 3 to Claire".
  public let purpose: String
  /// Whether the work adds items or removes them, which decides how it is repaired.
  public let direction: Direction
  /// The kind of items it touches: the app needs access to these to repair it.
  public let entityType: EKEntityType
  /// The `calendarItemIdentifier`s of the items it adds or removes.
  public let items: [String]
  /// The `calendarIdentifier`s of the calendars (or reminder lists) it adds or removes.
  public let calendars: [String]
  /// What of the app's own records the work concerns ("item 7"), for an app that undoes its
  /// side too (``AppSession/undoRecords``); nil when there is nothing of the app's to undo.
  public let reference: String?
  /// The process doing the work (``ProcessMark``): work of a process still running is its
  /// own business, not a stopped run's leftover.
  let process: String

  /// Marks the work done, inside the transaction that records the app's side of it. Set
  /// `OPENEVENTKIT_KILL_BEFORE_FINISHING=1` to have the process killed (SIGKILL) here instead,
  /// after the store was changed and before the app's database is: the tests use it to prove
  /// the repair.
  ///
  /// ```swift
  /// let store = try session.store(for: .reminder)
  /// let reminder = EKReminder(eventStore: store)
  /// reminder.title = "Buy flour"
  /// reminder.calendar = store.defaultCalendarForNewReminders()
  /// let id = reminder.calendarItemIdentifier
  /// let work = try database.beginAdding("adding flour", .reminder, items: [id])
  /// try store.save(reminder, commit: true)
  /// try database.queue.write { db in
  ///   try db.execute(sql: "INSERT INTO item (reminderId) VALUES (?)", arguments: [id])
  ///   try work.finish(db)  // done together with the app's record, or not at all
  /// }
  /// ```
  ///
  /// - Parameter db: The open write transaction (GRDB's `Database`) in which the app records
  ///   its side of the work.
  /// - Throws: GRDB's `DatabaseError` when the row cannot be deleted.
  public func finish(_ db: Database) throws {
    if ProcessInfo.processInfo.environment["OPENEVENTKIT_KILL_BEFORE_FINISHING"] == "1" {
      kill(getpid(), SIGKILL)
    }
    try forget(db)
  }
}

extension AppDatabase {
  /// Records, before the store commits them, the new items and calendars of a command (see
  /// ``CalendarWork``). Call ``CalendarWork/finish(_:)`` in the transaction that records them.
  ///
  /// ```swift
  /// let store = try session.store(for: .event)
  /// let calendar = EKCalendar(for: .event, eventStore: store)
  /// calendar.title = "Wedding"
  /// calendar.source = store.defaultCalendarForNewEvents?.source
  /// let work = try database.beginAdding(
  ///   "making the Wedding calendar", .event, items: [], calendars: [calendar.calendarIdentifier])
  /// try store.saveCalendar(calendar, commit: true)
  /// try database.queue.write { db in
  ///   try db.execute(
  ///     sql: "INSERT OR REPLACE INTO setting (key, value) VALUES ('calendar', ?)",
  ///     arguments: [calendar.calendarIdentifier])
  ///   try work.finish(db)  // with the app's record of the calendar, or not at all
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - purpose: What the command is doing, as the person would say it: it is told in the
  ///     repair's sentence ("Repaired: making loan 3 to Claire was stopped …").
  ///   - entityType: The kind of the items: access to it is needed to repair the work.
  ///   - items: The `calendarItemIdentifier`s of the items about to be saved.
  ///   - calendars: The `calendarIdentifier`s of the calendars about to be saved; none by
  ///     default.
  /// - Returns: The work, recorded, to finish once the app has recorded its side.
  /// - Throws: GRDB's `DatabaseError` when the work cannot be recorded; the command should
  ///   then change nothing.
  public func beginAdding(
    _ purpose: String, _ entityType: EKEntityType, items: [String], calendars: [String] = []
  ) throws -> CalendarWork {
    try queue.write { db in
      try Self.insertWork(
        purpose, .adding, entityType, items: items, calendars: calendars, reference: nil,
        in: db)
    }
  }

  /// Records the new items of a command whose own records come first, made by `records` in
  /// the same transaction: it returns the items' identifiers and what names the records
  /// (`reference`), which ``AppSession/undoRecords`` undoes should the work be found
  /// unfinished. For an app whose items carry the number of a row of its own (a URL back to
  /// it): the row and the intent are kept together, never one without the other.
  ///
  /// ```swift
  /// let work = try database.beginAdding("adding the cake tasting", .event) { db in
  ///   try db.execute(sql: "INSERT INTO item (kind) VALUES (?)", arguments: ["tasting"])
  ///   let id = db.lastInsertedRowID
  ///   event.url = URL(string: "wedding-planner://item/\(id)")  // the event names its row
  ///   return (items: [event.calendarItemIdentifier], reference: "item \(id)")
  /// }
  /// try store.save(event, span: .thisEvent, commit: true)
  /// try database.finish(work)
  /// // Found unfinished, the event is removed and session.undoRecords undoes the row.
  /// ```
  ///
  /// - Parameters:
  ///   - purpose: What the command is doing, as the person would say it.
  ///   - entityType: The kind of the items.
  ///   - records: Makes the app's records in the transaction, and returns the
  ///     `calendarItemIdentifier`s of the items about to be saved and the `reference` that
  ///     names the records for ``AppSession/undoRecords``.
  /// - Returns: The work, recorded with the app's records.
  /// - Throws: GRDB's `DatabaseError` when the transaction fails, or what `records` throws;
  ///   either way nothing of it is kept.
  public func beginAdding(
    _ purpose: String, _ entityType: EKEntityType,
    making records: (Database) throws -> (items: [String], reference: String)
  ) throws -> CalendarWork {
    try queue.write { db in
      let made = try records(db)
      return try Self.insertWork(
        purpose, .adding, entityType, items: made.items, calendars: [],
        reference: made.reference, in: db)
    }
  }

  /// Records the items and calendars a command is about to remove from the store, in the
  /// transaction that makes `changes` to the app's own records (see ``CalendarWork``). Call
  /// ``finish(_:)`` once the store has removed them.
  ///
  /// ```swift
  /// let identifiers = try session.database.queue.read { db in  // loan 3's payments' events
  ///   try String.fetchAll(db, sql: "SELECT eventIdentifier FROM payment WHERE loanId = 3")
  /// }
  /// // Recorded as the repair looks them up, with calendarItem(withIdentifier:).
  /// let items = identifiers.compactMap { store.event(withIdentifier: $0)?.calendarItemIdentifier }
  /// let work = try session.database.beginRemoving(
  ///   "deleting loan 3 to Claire", .event, items: items
  /// ) { db in try db.execute(sql: "DELETE FROM loan WHERE id = 3") }  // its payments too
  /// for identifier in identifiers {
  ///   if let event = store.event(withIdentifier: identifier) {
  ///     try store.remove(event, span: .futureEvents, commit: true)
  ///   }
  /// }
  /// try session.database.finish(work)
  /// ```
  ///
  /// - Parameters:
  ///   - purpose: What the command is doing, as the person would say it.
  ///   - entityType: The kind of the items.
  ///   - items: The `calendarItemIdentifier`s of the items to remove.
  ///   - calendars: The `calendarIdentifier`s of the calendars to remove; none by default.
  ///   - changes: Changes the app's own records (deletes its rows) in the same transaction;
  ///     nothing by default.
  /// - Returns: The work, recorded, to finish once the store has removed the items.
  /// - Throws: GRDB's `DatabaseError` when the transaction fails, or what `changes` throws;
  ///   either way nothing of it is kept.
  public func beginRemoving(
    _ purpose: String, _ entityType: EKEntityType, items: [String], calendars: [String] = [],
    changing changes: (Database) throws -> Void = { _ in }
  ) throws -> CalendarWork {
    try queue.write { db in
      try changes(db)
      return try Self.insertWork(
        purpose, .removing, entityType, items: items, calendars: calendars, reference: nil,
        in: db)
    }
  }

  /// Marks `work` done, in a transaction of its own (a command that has nothing else to
  /// record with it, or that failed and undid what it did).
  ///
  /// ```swift
  /// let store = try session.store(for: .event)
  /// let event = EKEvent(eventStore: store)  // …its calendar, title, dates
  /// let work = try database.beginAdding(
  ///   "adding the rehearsal", .event, items: [event.calendarItemIdentifier])
  /// do {
  ///   try store.save(event, span: .thisEvent, commit: true)
  /// } catch {
  ///   try database.finish(work)  // nothing reached the store: nothing to repair
  ///   throw error
  /// }
  /// try database.finish(work)
  /// ```
  ///
  /// - Parameter work: The work that ``beginAdding(_:_:items:calendars:)``,
  ///   ``beginAdding(_:_:making:)`` or ``beginRemoving(_:_:items:calendars:changing:)``
  ///   returned.
  /// - Throws: GRDB's `DatabaseError` when the work's row cannot be deleted.
  public func finish(_ work: CalendarWork) throws {
    try queue.write { db in try work.finish(db) }
  }
}

/// A process, named so that a later one can tell whether it still runs: its pid and the time
/// it started after boot (field 22 of /proc/PID/stat), since pids are reused.
enum ProcessMark {
  static let current = mark(of: getpid()) ?? "\(getpid())"

  static func mark(of pid: pid_t) -> String? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return nil }
    // After the command name in parentheses: state is field 3, start time field 22.
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    // A zombie ("Z": ended, not yet waited for) runs no more.
    guard fields.count > 19, fields[0] != "Z" else { return nil }
    return "\(pid) \(fields[19])"
  }

  static func isRunning(_ mark: String) -> Bool {
    guard let pid = mark.split(separator: " ").first.flatMap({ pid_t($0) }) else { return false }
    if let now = Self.mark(of: pid) { return now == mark }
    // Without /proc (or for a zombie): a mark made without a start time, by the pid alone.
    return !mark.contains(" ") && kill(pid, 0) == 0
  }
}
