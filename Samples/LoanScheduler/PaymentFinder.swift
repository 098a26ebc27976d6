import Foundation
import OpenEventKit

/// Finds a payment's event again from what the app recorded, and recovers it when the
/// identifier no longer finds it.
///
/// An identifier stops finding an event when the event is removed, and, on Apple's
/// platforms, when a sync re-creates it or it moves to another account. So an app keeps,
/// beside the identifier, what it needs to recognise the event: here the title it gave and
/// the due day.
struct PaymentFinder {
  let store: EKEventStore

  /// Where a payment's recorded event is now.
  enum Whereabouts: Hashable {
    /// On its due day, with this title.
    case onItsDay(title: String)
    /// Found by its identifier on another day (moved in the calendar).
    case moved(day: String, title: String)
    /// Not found by its identifier.
    case gone
  }

  // MARK: Finding an event by its recorded identifier

  /// The event showing `payment`, found by its recorded identifier, on its due day.
  ///
  /// A single event or a detached occurrence is found by its identifier alone. The
  /// occurrences of a repeating event share one identifier, and `event(withIdentifier:)`
  /// gives the first; the one on the payment's day is searched for among that day's events.
  func event(for payment: Payment) -> EKEvent? {
    guard let identifier = payment.eventIdentifier,
      let event = store.event(withIdentifier: identifier)
    else { return nil }
    if DueDay.day(event.startDate) == payment.due { return event }
    return eventsOnDay(of: payment).first { $0.eventIdentifier == identifier }
  }

  /// Where the recorded event is: what the app compares, after `EKEventStoreChanged`, with
  /// what it last saw.
  func whereabouts(of payment: Payment) -> Whereabouts {
    if let event = event(for: payment) { return .onItsDay(title: event.title ?? "") }
    guard let identifier = payment.eventIdentifier,
      let event = store.event(withIdentifier: identifier),
      !event.hasRecurrenceRules || event.isDetached
    else { return .gone }
    return .moved(day: DueDay.day(event.startDate), title: event.title ?? "")
  }

  // MARK: Recovering a lost identifier

  /// An event with the payment's `title` on its due day, in any calendar: the payment's event
  /// re-created or moved elsewhere, whose identifier the caller records. Nil when there is
  /// none: then the payment is missing from the calendar.
  func recover(_ payment: Payment, title: String) -> EKEvent? {
    eventsOnDay(of: payment).first { $0.title == title }
  }

  private func eventsOnDay(of payment: Payment) -> [EKEvent] {
    guard let day = DueDay.date(payment.due) else { return [] }
    let predicate = store.predicateForEvents(
      withStart: day, end: DueDay.nextDay(day), calendars: nil)
    return store.events(matching: predicate)
  }
}
