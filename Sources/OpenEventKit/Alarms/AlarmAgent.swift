import Foundation
import Synchronization

/// The loop of an alarm agent: a ``AlarmLedger/round(of:at:grace:)`` at each wake, then
/// sleep until the next firing — woken early when the store changes (any app's commit), when
/// the person snoozes or dismisses a firing from another process, or when ``wake()`` is
/// called. An OpenEventKit addition; `ekctl alarms --watch` runs one and delivers what each
/// round gives. See <doc:Alarms#The-agent>.
///
/// It sleeps in the kernel between wakes: no polling. The sleep is measured on the wall
/// clock, so a machine that was suspended past a firing runs a round as soon as it resumes,
/// and that round delivers what is within the grace period and tells the rest as missed.
///
/// ```swift
/// let agent = try AlarmAgent(store: store, grace: 15 * 60)
/// try agent.run { round in
///   for delivery in round.due { print("⏰", delivery.firing.title) }
/// }
/// ```
public final class AlarmAgent: @unchecked Sendable {
  /// The store whose alarms fire.
  public let store: EKEventStore
  /// The ledger the rounds record in.
  public let ledger: AlarmLedger
  /// How old a firing no agent delivered may be and still fire, in seconds.
  public let grace: TimeInterval
  private let clock: @Sendable () -> Date
  private let signal = DispatchSemaphore(value: 0)
  private var observer: (any NSObjectProtocol)?
  private var ledgerWatcher: DatabaseChangeWatcher?

  /// An agent of `store`, on `clock`.
  ///
  /// ```swift
  /// // An agent that fires alarms up to five minutes late, on the machine's clock.
  /// let agent = try AlarmAgent(store: store, grace: 5 * 60)
  /// print(agent.ledger.path)  // …/Alarms.sqlite, beside the store's Calendar.sqlite
  /// ```
  ///
  /// - Parameters:
  ///   - store: The store whose alarms fire; only what it may read is seen.
  ///   - grace: How old, in seconds, a firing may be and still fire (15 minutes unless given).
  ///   - clock: The agent's time; `Date()` unless given. A test gives a clock it moves, then
  ///     calls ``wake()``.
  /// - Throws: ``EKError`` with code ``EKError/Code/internalFailure`` when the ledger cannot
  ///   be opened or watched.
  public init(
    store: EKEventStore, grace: TimeInterval = 15 * 60,
    clock: @escaping @Sendable () -> Date = { Date() }
  ) throws {
    self.store = store
    self.grace = grace
    self.clock = clock
    ledger = try AlarmLedger(for: store)
    observer = NotificationCenter.default.addObserver(
      forName: .EKEventStoreChanged, object: store, queue: nil
    ) { [signal] _ in signal.signal() }
    let ledger = self.ledger
    let seen = Mutex(ledger.revision)
    ledgerWatcher = try DatabaseChangeWatcher(path: ledger.path) { [signal] in
      // Only the person's snoozes and dismissals wake the agent, not rounds' records.
      let revision = ledger.revision
      if seen.withLock({
        let changed = $0 != revision
        $0 = revision
        return changed
      }) {
        signal.signal()
      }
    }
  }

  deinit {
    if let observer { NotificationCenter.default.removeObserver(observer) }
    ledgerWatcher?.cancel()
  }

  /// Runs a round now instead of at the next firing: the clock moved, or the machine woke.
  ///
  /// ```swift
  /// let agent = try AlarmAgent(store: store)
  /// let thread = Thread { try? agent.run { round in print(round.due.count, "due") } }
  /// thread.start()
  /// // The system clock was set forward: decide again now rather than at the next firing.
  /// agent.wake()
  /// ```
  public func wake() { signal.signal() }

  /// Runs rounds until `stop` says so, each handed to `handle` as soon as it is decided.
  ///
  /// ```swift
  /// let agent = try AlarmAgent(store: store)
  /// var rounds = 0
  /// try agent.run(until: { rounds == 3 }) { round in
  ///   rounds += 1
  ///   for delivery in round.due { print("⏰", delivery.firing.title) }
  ///   for firing in round.missed { print("missed while asleep:", firing.title) }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - stop: Asked after each round; the loop ends when it returns true (never, unless
  ///     given).
  ///   - handle: Delivers a round's firings and tells its missed ones. It runs on the
  ///     calling thread; the next round waits for it.
  /// - Throws: ``EKError`` with code ``EKError/Code/internalFailure`` when the ledger cannot
  ///   be read or written; the loop ends.
  public func run(
    until stop: () -> Bool = { false }, _ handle: (AlarmLedger.Round) throws -> Void
  ) throws {
    while true {
      let now = clock()
      let round = try ledger.round(of: store, at: now, grace: grace)
      try handle(round)
      // After `handle`: a line that says this agent has delivered all it decided up to `now`.
      Log.alarms.debug(
        "round at \(now.ISO8601Format()): \(round.due.count) delivered, \(round.missed.count) missed; next at \(round.nextWake.ISO8601Format())"
      )
      if stop() { return }
      let seconds = round.nextWake.timeIntervalSince(clock())
      if seconds > 0 {
        _ = signal.wait(wallTimeout: .now() + seconds)
      }
      // Wakes that came together make one round.
      while signal.wait(timeout: .now()) == .success {}
    }
  }
}
