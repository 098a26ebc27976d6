import Foundation
import OpenEventKit
import OpenEventKitApp

/// Finding the suggestions: the events titled "Poker" in the shared calendar, from one day ago
/// to two months ahead. Events of that title elsewhere, or of another title in the calendar,
/// are not suggestions.
enum PokerTimes {
  /// The title of every suggestion.
  static let title = "Poker"
  /// A suggestion lasts an hour.
  static let length: TimeInterval = 3600

  private static let queue = DispatchQueue(label: "org.openeventkit.poker-vote.fetch")

  // MARK: pattern fetch

  /// The suggestions in `calendar` around `now`, fetched on a serial queue of the app's own.
  static func standings(
    in calendar: EKCalendar, store: EKEventStore, now: Date, zone: TimeZone
  ) -> Standings {
    // `events(matching:)` is synchronous, and Apple's guide runs it off the main thread, so
    // that drawing never waits on the database. The REPL, with nothing else to show
    // meanwhile, waits for the answer.
    // OpenEventKit sample kit only: waitForAnswer, as a REPL command waits for the answer.
    // An app awaits it: `await withCheckedContinuation { continuation in queue.async { …
    // continuation.resume(returning: Standings(…)) } }`.
    waitForAnswer { answer in
      queue.async {
        let window = window(around: now, in: zone)
        // The occurrences overlapping the window, in the shared calendar only (nil would be
        // every calendar the app may see). Apple's store cuts a range at four years.
        let predicate = store.predicateForEvents(
          withStart: window.start, end: window.end, calendars: [calendar])
        // A predicate has no title: other events in the calendar are not suggestions.
        let events = store.events(matching: predicate).filter { $0.title == title }
        // A series' occurrences share its identifier (should another app make a time repeat):
        // one suggestion, at its first occurrence in the window.
        var seen = Set<String>()
        let times = events.sorted { $0.startDate < $1.startDate }
          .filter { seen.insert($0.eventIdentifier).inserted }
        answer(Standings(times.map(Suggestion.init)))
      }
    }
  }

  // MARK: The window

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
}
