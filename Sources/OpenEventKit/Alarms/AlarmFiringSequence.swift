import Foundation

/// The alarms that fire in a window, found one at a time in the order they fire: what
/// ``EKEventStore/alarmFiringSequence(from:to:calendars:)`` returns. An OpenEventKit addition.
///
/// Each iteration reads the store again, a month of the window at a time; an iterator holds
/// the next firing of each alarm of its month, so that a listing, a count or a search for the
/// next firing takes as little memory over a year as over an hour, whatever the alarms.
///
/// ```swift
/// let now = Date()
/// for firing in store.alarmFiringSequence(from: now, to: now.addingTimeInterval(86_400)) {
///   print(firing.fireDate, firing.title)
/// }
/// ```
public struct AlarmFiringSequence: Sequence {
  private let store: EKEventStore
  /// Nil when the window is empty (its end not after its start).
  private let window: Range<Double>?
  private let calendarIds: [String]?

  init(store: EKEventStore, start: Date, end: Date, calendarIds: [String]?) {
    self.store = store
    let (lower, upper) = (start.timeIntervalSince1970, end.timeIntervalSince1970)
    window = lower < upper ? lower..<upper : nil
    self.calendarIds = calendarIds
  }

  public func makeIterator() -> Iterator {
    Iterator(store: store, window: window, calendarIds: calendarIds)
  }

  /// Reads the firings of the window a month at a time, each month's merged from its alarms.
  ///
  /// ```swift
  /// let now = Date()
  /// var firings = store.alarmFiringSequence(from: now, to: now.addingTimeInterval(3600))
  ///   .makeIterator()
  /// while let firing = firings.next() { print(firing.title) }
  /// ```
  public struct Iterator: IteratorProtocol {
    private let store: EKEventStore
    private let window: Range<Double>?
    private let calendarIds: [String]?
    /// Where the next month starts.
    private var monthStart: Double
    private var month: FiringMerge?

    init(store: EKEventStore, window: Range<Double>?, calendarIds: [String]?) {
      self.store = store
      self.window = window
      self.calendarIds = calendarIds
      monthStart = window?.lowerBound ?? 0
    }

    /// The next firing, or nil at the end of the window.
    public mutating func next() -> AlarmFiring? {
      guard let window else { return nil }
      while true {
        if let firing = month?.next() { return firing }
        guard monthStart < window.upperBound else { return nil }
        // Each firing belongs to the month its moment is in, so months never repeat one.
        let end = Swift.min(window.upperBound, monthStart + Double(EKEventStore.enumerationChunk))
        month = store.firingMerge(in: monthStart..<end, calendarIds: calendarIds)
        monthStart = end
      }
    }
  }
}
