import Foundation

/// Firings counted per alarm, the first few of each to be told one by one and the rest in
/// one line: how an alarm that fires every second is kept from filling a screen, a journal or
/// the ledger. An OpenEventKit addition; `ekctl alarms` lists a window this way, and an
/// agent's round tells its missed firings so (``AlarmLedger/Round/missedSummaries``).
///
/// One alarm is one alarm of one item: a series' relative alarm is one alarm over all its
/// occurrences, and a detached occurrence's is another.
///
/// ```swift
/// let now = Date()
/// var tally = AlarmFiringTally(listing: 10)
/// for firing in store.alarmFiringSequence(from: now, to: now.addingTimeInterval(7 * 86_400))
/// where tally.count(firing) {
///   print(firing.fireDate, firing.title)
/// }
/// for summary in tally.summaries {
///   print("… and \(summary.count) more of \(summary.last.title)")
/// }
/// ```
public struct AlarmFiringTally: Sendable {
  /// One alarm's firings past the first ``AlarmFiringTally/limit``.
  ///
  /// ```swift
  /// var tally = AlarmFiringTally(listing: 3)
  /// let now = Date()
  /// for firing in store.alarmFiringSequence(from: now, to: now.addingTimeInterval(86_400)) {
  ///   _ = tally.count(firing)
  /// }
  /// for summary in tally.summaries {
  ///   let spacing = summary.interval.map { AlarmWords.every($0) } ?? "at various times"
  ///   print(summary.count, "more of", summary.last.title, spacing, "until", summary.last.fireDate)
  /// }
  /// ```
  public struct Summary: Sendable {
    /// The last of them: the item, its calendar and the alarm, and when it fires last.
    public var last: AlarmFiring
    /// How many there are.
    public var count: Int
    /// When the first of them fires.
    public var first: Date
    /// The time between each firing of the alarm and the next, when it is always the same (an
    /// event repeating every second, or every day in UTC); nil when it varies.
    public var interval: TimeInterval?
  }

  /// How many firings of each alarm are told one by one.
  public let limit: Int
  private var alarms: [Alarm: Counts] = [:]
  /// The alarms past the limit, in the order they went past it.
  private var beyond: [Alarm] = []

  /// A tally that tells `limit` firings of each alarm one by one.
  ///
  /// ```swift
  /// var tally = AlarmFiringTally(listing: 100)
  /// print(tally.limit)  // 100
  /// ```
  public init(listing limit: Int) {
    self.limit = max(0, limit)
  }

  /// Counts `firing` with the others of its alarm, which should come in firing order.
  ///
  /// ```swift
  /// var tally = AlarmFiringTally(listing: 5)
  /// let now = Date()
  /// for firing in store.alarmFiringSequence(from: now, to: now.addingTimeInterval(86_400))
  /// where tally.count(firing) {
  ///   print(firing.title)  // at most five lines per alarm
  /// }
  /// ```
  ///
  /// - Returns: Whether to tell it one by one: it is among the first ``limit`` of its alarm.
  public mutating func count(_ firing: AlarmFiring) -> Bool {
    let alarm = Alarm(item: firing.calendarItemIdentifier, trigger: firing.trigger)
    var counts = alarms[alarm] ?? Counts()
    defer { alarms[alarm] = counts }
    if let previous = counts.previous {
      let gap = firing.fireDate.timeIntervalSince(previous)
      if counts.gap == nil, counts.isEven {
        counts.gap = gap
      } else if counts.gap != gap {
        counts.isEven = false
      }
    }
    counts.previous = firing.fireDate
    guard counts.told == limit else {
      counts.told += 1
      return true
    }
    if counts.beyond == nil {
      beyond.append(alarm)
      counts.beyond = Summary(last: firing, count: 0, first: firing.fireDate, interval: nil)
    }
    counts.beyond?.last = firing
    counts.beyond?.count += 1
    return false
  }

  /// The alarms that had firings past the limit, in the order they went past it.
  public var summaries: [Summary] {
    beyond.compactMap { alarm in
      guard let counts = alarms[alarm], var summary = counts.beyond else { return nil }
      summary.interval = counts.isEven ? counts.gap : nil
      return summary
    }
  }

  private struct Alarm: Hashable, Sendable {
    var item: String
    var trigger: AlarmFiring.Trigger
  }

  private struct Counts: Sendable {
    var told = 0
    var previous: Date?
    var gap: TimeInterval?
    var isEven = true
    var beyond: Summary?
  }
}
