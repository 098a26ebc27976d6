import Foundation
import TestSupport

@testable import OpenEventKit

/// The `EKEventStoreChanged` notices a store posts, for tests that assert something did *not*
/// happen: rather than sleep and look, a test commits a sentinel after the thing it watches and
/// waits for the notice that brings the sentinel. Notices come in the order of the commits
/// they follow, so once the sentinel's has come, any notice the earlier writes were going to
/// cause has come too, and the count can be read.
///
/// The observer is registered when the object is made; observers of one notification run in
/// the order they were added, so an object made after another observer (a `ChangeTracker`)
/// sees each notice after it.
final class StoreNotices: @unchecked Sendable {
  private let lock = NSLock()
  private var notices = 0
  /// What each notice is checked for, and the number of the first notice it held at.
  private var probe: (@Sendable () -> Bool)?
  private var probeHeldAt: Int?
  private var token: (any NSObjectProtocol)?

  init(_ store: EKEventStore) {
    token = NotificationCenter.default.addObserver(
      forName: .EKEventStoreChanged, object: store, queue: nil
    ) { [weak self] _ in self?.noticed() }
  }

  deinit { token.map(NotificationCenter.default.removeObserver) }

  /// The notices posted so far.
  var count: Int { lock.withLock { notices } }

  private func noticed() {
    let (number, probe) = lock.withLock {
      notices += 1
      return (notices, probeHeldAt == nil ? self.probe : nil)
    }
    // Outside the lock: the probe reads a database.
    let held = probe?() ?? false
    guard held else { return }
    lock.withLock { probeHeldAt = probeHeldAt ?? number }
  }

  /// Commits an event titled with a fresh name from `writer` and waits (twenty seconds at
  /// most: a loaded machine) for the first notice after which `reader` finds it. Returns how
  /// many notices had come by then, that one included, and the sentinel's identifier; nil
  /// when no notice brought it.
  func commitSentinel(
    from writer: EKEventStore, readBy reader: EKEventStore
  ) async throws -> (notices: Int, identifier: String)? {
    let title = "Sentinel \(UUID().uuidString)"
    let start = Date(timeIntervalSince1970: 4_070_908_800)  // 2099
    let probe: @Sendable () -> Bool = {
      let window = reader.predicateForEvents(
        withStart: start, end: start.addingTimeInterval(3600), calendars: nil)
      return reader.events(matching: window).contains { $0.title == title }
    }
    lock.withLock { (self.probe, probeHeldAt) = (probe, nil) }
    let event = EKEvent(eventStore: writer)
    event.title = title
    (event.startDate, event.endDate) = (start, start.addingTimeInterval(60))
    event.calendar = writer.defaultCalendarForNewEvents
    try writer.save(event, span: .thisEvent)
    let started = Date()
    let deadline = started.addingTimeInterval(Latency.bound(tight: 2))
    // Looked at once more after the deadline: with every thread of the test pool busy, this
    // task may wake long after the notice came.
    while lock.withLock({ probeHeldAt }) == nil, Date() < deadline {
      try await Task.sleep(for: .milliseconds(20))
    }
    guard let held = lock.withLock({ probeHeldAt }) else { return nil }
    let seconds = String(format: "%.3f", Date().timeIntervalSince(started))
    print("latency: sentinel's notice seen after \(seconds) s")
    return (held, event.calendarItemIdentifier)
  }
}
