import Foundation
import GRDB

/// What the user's alarm agents have done with each firing — delivered, missed, snoozed,
/// dismissed — and the rounds in which an agent decides what to deliver. An OpenEventKit
/// addition: on Apple's systems the system fires alarms; on Linux an agent does
/// (`ekctl alarms --watch`), and this is how any number of agents, and the next one after a
/// restart, fire each alarm once.
///
/// The ledger is `Alarms.sqlite` beside the store's `Calendar.sqlite` (mode 0600 in a 0700
/// folder). Each ``round(of:at:grace:)`` is one transaction: the firings it returns are
/// recorded as delivered before it returns, so two agents running at once never both get
/// the same one. See <doc:Alarms#The-agent>.
///
/// ```swift
/// let ledger = try AlarmLedger(for: store)
/// while true {
///   let round = try ledger.round(of: store, at: Date(), grace: 15 * 60)
///   for delivery in round.due { print("⏰", delivery.firing.title) }
///   for firing in round.missed { print("missed:", firing.title) }
///   // sleep until round.nextWake, or until the store or the ledger changes
/// }
/// ```
public final class AlarmLedger: Sendable {
  let database: AlarmLedgerDatabase

  /// What happened to a firing.
  ///
  /// ```swift
  /// let ledger = try AlarmLedger(for: store)
  /// if let firing = store.alarmFirings(from: Date(), to: Date().addingTimeInterval(3600)).first {
  ///   try ledger.dismiss(firing)
  ///   print(try ledger.entry(id: firing.id)?.state == .dismissed)  // true
  /// }
  /// ```
  public enum State: String, Sendable {
    /// Delivered by an agent (and not to be delivered again).
    case fired
    /// Older than the grace period when an agent first saw it: told as missed, not fired.
    case missed
    /// To be delivered again at ``Entry/snoozedUntil``.
    case snoozed
    /// Not to be delivered (again): the person dismissed it, before or after it fired.
    case dismissed
  }

  /// A firing the ledger has a record of.
  ///
  /// ```swift
  /// let ledger = try AlarmLedger(for: store)
  /// for firing in store.alarmFirings(from: Date().addingTimeInterval(-3600), to: Date()) {
  ///   guard let entry = try ledger.entry(id: firing.id) else { continue }  // no record yet
  ///   print(firing.title, entry.state, entry.recordedAt, entry.snoozedUntil as Any)
  /// }
  /// ```
  public struct Entry: Sendable {
    /// The firing, as it was when recorded.
    public var firing: AlarmFiring
    /// What happened to it last: fired, missed, snoozed or dismissed.
    public var state: State
    /// For a snoozed firing, when it is delivered again.
    public var snoozedUntil: Date?
    /// When the record was last written.
    public var recordedAt: Date
  }

  /// A firing an agent is to deliver now.
  ///
  /// ```swift
  /// let round = try AlarmLedger(for: store).round(of: store, at: Date(), grace: 15 * 60)
  /// for delivery in round.due {
  ///   let again = delivery.wasSnoozed ? " (again, after a snooze)" : ""
  ///   print("⏰ \(delivery.firing.title)\(again)")
  /// }
  /// ```
  public struct Delivery: Sendable {
    /// The firing to deliver: its item's title, times and calendar.
    public var firing: AlarmFiring
    /// Whether it comes back from a snooze (it was delivered before).
    public var wasSnoozed: Bool
  }

  /// What one round decided.
  ///
  /// ```swift
  /// let ledger = try AlarmLedger(for: store)
  /// let round = try ledger.round(of: store, at: Date(), grace: 15 * 60)
  /// // The round recorded its due firings as delivered: deliver them now.
  /// for delivery in round.due { print("⏰", delivery.firing.title) }
  /// for firing in round.missed { print("missed:", firing.title) }
  /// for summary in round.missedSummaries {
  ///   print("missed: \(summary.count) more of", summary.last.title)
  /// }
  /// Thread.sleep(until: round.nextWake)  // or until the store changes first
  /// ```
  public struct Round: Sendable {
    /// What to deliver now, in firing order; already recorded as delivered.
    public var due: [Delivery]
    /// Firings older than the grace period that no agent delivered (the machine was off or
    /// asleep), recorded as missed: to be told, not fired. At most
    /// ``AlarmLedger/missedListed`` of each alarm, the first; the rest are in
    /// ``missedSummaries``.
    public var missed: [AlarmFiring]
    /// For each alarm that missed more than ``AlarmLedger/missedListed`` firings, the others
    /// in one summary: how many, from when to when, how often. They are not recorded one by
    /// one (no later round looks back past this one), so an agent that was off for weeks
    /// beside an alarm that fires every second tells and records a few lines, not millions.
    public var missedSummaries: [AlarmFiringTally.Summary]
    /// When the next firing or snooze comes due, or, when none does in the next day, a day
    /// from now: when to run the next round if nothing changes before.
    public var nextWake: Date
  }

  /// The ledger of the store's folder (`Alarms.sqlite` beside its `Calendar.sqlite`),
  /// created on first use.
  ///
  /// ```swift
  /// do {
  ///   let ledger = try AlarmLedger(for: store)
  ///   print(ledger.path)  // …/Alarms.sqlite
  /// } catch let error as EKError {
  ///   print("no ledger:", error.localizedDescription)
  /// }
  /// ```
  ///
  /// - Parameter store: The store whose alarms the ledger records.
  /// - Throws: ``EKError`` with code ``EKError/Code/internalFailure`` when the file cannot be
  ///   made private or opened (its message says why).
  public convenience init(for store: EKEventStore) throws {
    try self.init(location: store.location)
  }

  init(location: StoreLocation) throws(EKError) {
    database = try AlarmLedgerDatabase(location: location)
  }

  /// The ledger's file.
  public var path: String { database.path }

  /// How far back a round looks for firings missed since the last round: a month.
  static let longestLookBack: TimeInterval = 31 * 86_400
  /// How far ahead a round looks for the next firing.
  static let horizon: TimeInterval = 86_400
  /// How many missed firings of one alarm a round tells and records one by one; the others
  /// are told in one summary (``Round/missedSummaries``).
  public static let missedListed = 3

  /// One round of an agent at `now`: what to deliver, what was missed, and when to look again.
  ///
  /// Firings since the last round of any agent (at most a month back; on the very first
  /// round, `grace` back) that no agent recorded are delivered when they are at most `grace`
  /// old and recorded as missed otherwise — the first ``missedListed`` of each alarm, the
  /// others counted in one summary per alarm; snoozes whose time has come are delivered
  /// again. Dismissed firings and those already delivered are left alone. Everything is
  /// recorded in one transaction with the round's time, and the ledger's old rows are let go
  /// (<doc:Alarms#The-agent>). The firings are read one at a time, so a round takes as little
  /// memory after a month away as after a minute.
  ///
  /// ```swift
  /// let ledger = try AlarmLedger(for: store)
  /// let round = try ledger.round(of: store, at: Date(), grace: 10 * 60)
  /// for delivery in round.due { print("⏰", delivery.firing.title) }
  /// // A second round at once finds nothing new: the first recorded its firings as fired.
  /// let again = try ledger.round(of: store, at: Date(), grace: 10 * 60)
  /// print(again.due.count)  // 0, unless a snooze ended in between
  /// ```
  ///
  /// - Parameters:
  ///   - store: The store whose alarms fire; only what it may read is seen.
  ///   - now: The round's time (the agent's clock).
  ///   - grace: How old, in seconds, a firing no agent delivered may be and still fire.
  /// - Returns: The round's decisions.
  /// - Throws: ``EKError`` with code ``EKError/Code/internalFailure`` when the ledger cannot
  ///   be read or written.
  public func round(of store: EKEventStore, at now: Date, grace: TimeInterval) throws -> Round {
    let seconds = now.timeIntervalSince1970
    let upTo = now.addingTimeInterval(1)  // a firing at `now` is due
    return try write { db in
      let last = try AlarmLedgerDatabase.meta(db, "checkedAt")
      let since = max(last ?? seconds - grace, seconds - Self.longestLookBack)
      var due: [Delivery] = []
      var missed: [AlarmFiring] = []
      var tally = AlarmFiringTally(listing: Self.missedListed)
      let firings = store.alarmFiringSequence(from: Date(timeIntervalSince1970: since), to: upTo)
      try Self.unrecorded(db, firings, batch: 500) { firing in
        if firing.fireDate.timeIntervalSince1970 >= seconds - grace {
          try AlarmLedgerDatabase.record(db, firing, state: State.fired.rawValue, at: seconds)
          due.append(Delivery(firing: firing, wasSnoozed: false))
        } else if tally.count(firing) {
          try AlarmLedgerDatabase.record(db, firing, state: State.missed.rawValue, at: seconds)
          missed.append(firing)
        }
        return true
      }
      for row in try AlarmLedgerDatabase.snoozesDue(db, at: seconds) {
        try AlarmLedgerDatabase.record(db, row.firing, state: State.fired.rawValue, at: seconds)
        due.append(Delivery(firing: row.firing, wasSnoozed: true))
      }
      try AlarmLedgerDatabase.setMeta(db, "checkedAt", seconds)
      try Self.prune(db, at: seconds)
      due.sort { $0.firing.fireDate < $1.firing.fireDate }
      return Round(
        due: due, missed: missed, missedSummaries: tally.summaries,
        nextWake: try nextWake(db, store: store, after: now))
    }
  }

  /// The first firing after `now` that no agent has recorded, or the next snooze's end,
  /// within the horizon.
  private func nextWake(_ db: Database, store: EKEventStore, after now: Date) throws -> Date {
    let limit = now.addingTimeInterval(Self.horizon)
    var wake = limit
    let ahead = store.alarmFiringSequence(from: now.addingTimeInterval(1), to: limit)
    try Self.unrecorded(db, ahead, batch: 50) { firing in
      wake = firing.fireDate
      return false
    }
    if let snooze = try AlarmLedgerDatabase.nextSnooze(db, after: now.timeIntervalSince1970) {
      wake = min(wake, Date(timeIntervalSince1970: snooze))
    }
    return wake
  }

  /// Hands `body` each of `firings` the ledger has no row of, in order, looking them up
  /// `batch` at a time, until `body` returns false.
  private static func unrecorded(
    _ db: Database, _ firings: AlarmFiringSequence, batch size: Int,
    _ body: (AlarmFiring) throws -> Bool
  ) throws {
    var iterator = firings.makeIterator()
    var batch: [AlarmFiring] = []
    batch.reserveCapacity(size)
    repeat {
      batch.removeAll(keepingCapacity: true)
      while batch.count < size, let firing = iterator.next() { batch.append(firing) }
      let recorded = try AlarmLedgerDatabase.recorded(db, ids: batch.map(\.id))
      for firing in batch where !recorded.contains(firing.id) {
        guard try body(firing) else { return }
      }
    } while batch.count == size
  }

  /// How long the rows of firings are kept after they fire (or after a snooze ends): as far
  /// back as a round ever looks, which is further than any round needs them (a round only
  /// looks at firings since the last one).
  static let kept: TimeInterval = longestLookBack
  /// How many rows of delivered and missed firings the ledger keeps at most, besides those
  /// of the last hour: an alarm that fires every second while an agent runs would otherwise
  /// add 86,400 rows a day for a month.
  static let mostRows = 100_000

  /// Lets go of rows no round will look at again, at most once an hour of the agent's clock:
  /// those older than ``kept``, then the oldest delivered and missed firings past
  /// ``mostRows``. The person's snoozes still to come and dismissals of firings still to
  /// come stay, and so does the last hour, where a round may look again (it looks from the
  /// last round's time).
  private static func prune(_ db: Database, at now: Double) throws {
    if let pruned = try AlarmLedgerDatabase.meta(db, "prunedAt"), pruned <= now,
      now - pruned < 3600
    {
      return
    }
    try AlarmLedgerDatabase.prune(
      db, before: now - kept, keeping: mostRows, since: now - 3600)
    try AlarmLedgerDatabase.setMeta(db, "prunedAt", now)
  }

  /// The record of the firing with this id, if there is one.
  ///
  /// ```swift
  /// let ledger = try AlarmLedger(for: store)
  /// let firings = store.alarmFirings(from: Date().addingTimeInterval(-86_400), to: Date())
  /// for firing in firings {
  ///   let state = try ledger.entry(id: firing.id)?.state.rawValue ?? "no record"
  ///   print(firing.title, state)
  /// }
  /// ```
  ///
  /// - Parameter id: The firing's ``AlarmFiring/id``.
  /// - Returns: The record, or nil when the ledger has none: no agent delivered or missed
  ///   the firing, and nobody snoozed or dismissed it.
  /// - Throws: ``EKError`` with code ``EKError/Code/internalFailure`` when the ledger cannot
  ///   be read.
  public func entry(id: String) throws -> Entry? {
    try read { db in
      try AlarmLedgerDatabase.row(db, id: id).map {
        Entry(
          firing: $0.firing, state: State(rawValue: $0.state) ?? .fired,
          snoozedUntil: $0.snoozedUntil.map(Date.init(timeIntervalSince1970:)),
          recordedAt: Date(timeIntervalSince1970: $0.recordedAt))
      }
    }
  }

  /// Delivers `firing` again at `until` instead of (or after) its own time; every agent sees
  /// it at its next round (`ekctl alarms snooze`).
  ///
  /// ```swift
  /// let ledger = try AlarmLedger(for: store)
  /// let round = try ledger.round(of: store, at: Date(), grace: 15 * 60)
  /// for delivery in round.due {
  ///   // "Remind me in ten minutes."
  ///   try ledger.snooze(delivery.firing, until: Date().addingTimeInterval(10 * 60))
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - firing: The firing, as ``EKEventStore/alarmFirings(from:to:calendars:)`` gave it.
  ///   - until: When to deliver it.
  ///   - now: The time of the record.
  /// - Throws: ``EKError`` with code ``EKError/Code/internalFailure`` when the ledger cannot
  ///   be written.
  public func snooze(_ firing: AlarmFiring, until: Date, at now: Date = Date()) throws {
    try write { db in
      try AlarmLedgerDatabase.record(
        db, firing, state: State.snoozed.rawValue, snoozedUntil: until.timeIntervalSince1970,
        at: now.timeIntervalSince1970)
      try Self.bumpRevision(db)
    }
  }

  /// Never delivers `firing` (again), whether it has fired or not (`ekctl alarms dismiss`).
  ///
  /// ```swift
  /// let ledger = try AlarmLedger(for: store)
  /// let now = Date()
  /// // Dismiss the alarms of the next hour before they fire.
  /// for firing in store.alarmFirings(from: now, to: now.addingTimeInterval(3600)) {
  ///   try ledger.dismiss(firing)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - firing: The firing, as ``EKEventStore/alarmFirings(from:to:calendars:)`` gave it.
  ///   - now: The time of the record.
  /// - Throws: ``EKError`` with code ``EKError/Code/internalFailure`` when the ledger cannot
  ///   be written.
  public func dismiss(_ firing: AlarmFiring, at now: Date = Date()) throws {
    try write { db in
      try AlarmLedgerDatabase.record(
        db, firing, state: State.dismissed.rawValue, at: now.timeIntervalSince1970)
      try Self.bumpRevision(db)
    }
  }

  /// Counts the person's own changes (snoozes, dismissals), which agents wake for; a round's
  /// records do not count, or each round would wake the agents for another.
  var revision: Double {
    (try? read { db in try AlarmLedgerDatabase.meta(db, "revision") }) ?? nil ?? 0
  }

  private static func bumpRevision(_ db: Database) throws {
    let current = try AlarmLedgerDatabase.meta(db, "revision") ?? 0
    try AlarmLedgerDatabase.setMeta(db, "revision", current + 1)
  }

  private func read<T>(_ body: (Database) throws -> T) throws -> T {
    do {
      return try database.queue.read(body)
    } catch {
      throw EKError(
        .internalFailure,
        "cannot read the alarm ledger \(path): \(DatabaseFailure.reason(error))")
    }
  }

  private func write<T>(_ body: (Database) throws -> T) throws -> T {
    do {
      return try database.queue.write(body)
    } catch {
      throw EKError(
        .internalFailure,
        "cannot write the alarm ledger \(path): \(DatabaseFailure.reason(error))")
    }
  }
}
