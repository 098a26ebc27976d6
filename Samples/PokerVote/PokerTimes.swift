import Foundation
import OpenEventKit

/// Finding the suggestions: the events titled "Poker" in the shared calendar, from one day ago
/// to two months ahead. Events of that title elsewhere, or of another title in the calendar,
/// are not suggestions.
///
/// The fetch runs on a serial queue of its own, off the REPL's thread, as an app with a window
/// fetches off its main thread so that drawing never waits on the database. The REPL waits
/// for the answer, having nothing else to show; the point is that an `EKEventStore` may be
/// used from any thread, and a fetch belongs on a background queue.
enum PokerTimes {
  /// The title of every suggestion.
  static let title = "Poker"
  /// A suggestion lasts an hour.
  static let length: TimeInterval = 3600

  private static let queue = DispatchQueue(label: "org.openeventkit.poker-vote.fetch")

  /// The window of suggestions around `now`, on the player's calendar: one day back, two months
  /// ahead.
  static func window(around now: Date, in zone: TimeZone) -> (start: Date, end: Date) {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    return (
      calendar.date(byAdding: .day, value: -1, to: now) ?? now,
      calendar.date(byAdding: .month, value: 2, to: now) ?? now
    )
  }

  /// The suggestions in `calendar` around `now`, fetched on the background queue.
  static func standings(
    in calendar: EKCalendar, store: EKEventStore, now: Date, zone: TimeZone
  ) -> Standings {
    let answer = Answer()
    queue.async {
      let window = window(around: now, in: zone)
      let predicate = store.predicateForEvents(
        withStart: window.start, end: window.end, calendars: [calendar])
      let events = store.events(matching: predicate).filter { $0.title == title }
      answer.give(Standings(events.map(Suggestion.init)))
    }
    return answer.wait()
  }

  /// A value handed from the queue to the waiting thread.
  private final class Answer: @unchecked Sendable {
    private let ready = DispatchSemaphore(value: 0)
    private var value: Standings?

    func give(_ standings: Standings) {
      value = standings
      ready.signal()
    }

    func wait() -> Standings {
      ready.wait()
      return value ?? Standings([])
    }
  }
}
