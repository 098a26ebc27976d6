// This file imports OpenEventKit and nothing else, as a file of an app imports EventKit and
// nothing else: Date, DateComponents, Calendar, URL, NSPredicate, NotificationCenter,
// CGColor and CLLocation must all be in scope through that one import (Foundation is
// re-exported, as EventKit's headers bring it). If the re-export goes, this file stops
// compiling: "cannot find type 'Date' in scope".
import OpenEventKit

/// A week-long lunch, written as an app written for EventKit writes it.
func makeLunch(in store: EKEventStore, calendar: EKCalendar) -> EKEvent {
  let event = EKEvent(eventStore: store)
  event.calendar = calendar
  event.title = "Lunch"
  var components = DateComponents(year: 2026, month: 12, day: 1, hour: 12)
  components.timeZone = TimeZone(identifier: "Europe/Paris")
  let start = Calendar(identifier: .gregorian).date(from: components) ?? Date()
  event.startDate = start
  event.endDate = start.addingTimeInterval(3600)
  event.url = URL(string: "https://example.org/lunch")
  event.addRecurrenceRule(
    EKRecurrenceRule(
      recurrenceWith: .daily, interval: 1, end: EKRecurrenceEnd(occurrenceCount: 7)))
  let place = EKStructuredLocation(title: "Canteen")
  place.geoLocation = CLLocation(latitude: 48.8566, longitude: 2.3522)
  event.structuredLocation = place
  return event
}

/// A colour as EventKit takes it, a CGColor.
func paint(_ calendar: EKCalendar) {
  calendar.cgColor = CGColor(red: 0.2, green: 0.4, blue: 0.8, alpha: 1)
}

/// The week's events, through a predicate (an NSPredicate, as EventKit's is).
func thisWeek(in store: EKEventStore, from start: Date) -> (NSPredicate, [EKEvent]) {
  let predicate = store.predicateForEvents(
    withStart: start, end: start.addingTimeInterval(7 * 86_400), calendars: nil)
  return (predicate, store.events(matching: predicate))
}

/// The observer every EventKit app registers, through Foundation's NotificationCenter.
func observeChanges(of store: EKEventStore, _ changed: @escaping @Sendable () -> Void)
  -> any NSObjectProtocol
{
  NotificationCenter.default.addObserver(
    forName: .EKEventStoreChanged, object: store, queue: nil
  ) { _ in changed() }
}
