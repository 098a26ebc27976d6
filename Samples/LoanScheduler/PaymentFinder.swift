import Foundation
import OpenEventKit

/// Finds a payment's event again from what the app recorded, and recovers it when the
/// identifier no longer finds it.
struct PaymentFinder {
  let store: EKEventStore
  /// The payments' loan: made as one repeating event, or one event per payment.
  let loan: Loan

  /// Where a payment's recorded event is now.
  enum Whereabouts: Hashable {
    /// On its due day, with this title.
    case onItsDay(title: String)
    /// On another day (moved in the calendar).
    case moved(day: String, title: String)
    /// Not found from its identifier.
    case gone
  }

  // MARK: pattern identifiers
  // What to record: the event's identifier, and beside it what recognises the event (here the
  // title the app gave and the due day): an identifier stops finding an event when it is
  // removed and, on Apple's platforms, when a sync re-creates it or it moves account.

  /// The event showing `payment`, found from its recorded identifier, wherever it is now.
  ///
  /// - `event(withIdentifier:)` finds a single event, or a detached occurrence (one edited on
  ///   its own, in any app: in OpenEventKit it has an identifier of its own, which the caller
  ///   records; Apple does not document whether it does).
  /// - The occurrences of a repeating event share one identifier, for which
  ///   `event(withIdentifier:)` gives the first occurrence only: the payment's is fetched with
  ///   a predicate. They also share `calendarItemExternalIdentifier`, and are told apart by
  ///   date: `occurrenceDate` is the day an occurrence was due, even once detached and moved.
  /// - `DueDay` (DueDay.swift) turns a due day ("2025-03-02") into its midnight here, and back.
  func event(for payment: Payment) -> EKEvent? {
    guard let identifier = payment.eventIdentifier,
      let event = store.event(withIdentifier: identifier), let due = DueDay.date(payment.due)
    else { return nil }
    // A single event is the payment's (a series another app made single is its first
    // payment's only: ``events(for:)`` gives it to one). A series stands for its first
    // occurrence (even moved): find the payment's by date.
    guard event.hasRecurrenceRules, !event.isDetached else { return event }
    // A year either side of the due day, where another app may have moved the occurrence (a
    // predicate spans four years at most); in the series' calendar, where copies elsewhere
    // (an import into two calendars) share its external identifier but are not it.
    let predicate = store.predicateForEvents(
      withStart: due.addingTimeInterval(-366 * 86_400), end: due.addingTimeInterval(367 * 86_400),
      calendars: [event.calendar])
    let occurrences = store.events(matching: predicate).filter {
      $0.calendarItemExternalIdentifier == event.calendarItemExternalIdentifier
    }
    return occurrences.first { DueDay.day($0.occurrenceDate) == payment.due }
      ?? nearest(to: due, among: occurrences)  // a split that also moved the day (below)
  }

  // MARK: Many payments at once

  /// The events of a loan's payments, as ``event(for:)`` finds them one by one, each event
  /// one payment's only: their days' events are fetched window by window once, and only a
  /// payment not found on its day that way is looked for on its own.
  func events(for payments: [Payment]) -> [EKEvent?] {
    let days = payments.compactMap { DueDay.date($0.due) }
    var onTheirDays: [String: EKEvent] = [:]  // identifier and day → event
    var start = days.min() ?? .distantFuture
    let end = days.max().map(DueDay.nextDay) ?? .distantPast
    while start < end {
      let windowEnd = min(end, DueDay.calendar.date(byAdding: .day, value: 1460, to: start) ?? end)
      let predicate = store.predicateForEvents(withStart: start, end: windowEnd, calendars: nil)
      for event in store.events(matching: predicate) {
        onTheirDays[event.eventIdentifier + " " + DueDay.day(event.startDate)] = event
      }
      start = windowEnd
    }
    let found = payments.map { payment in
      payment.eventIdentifier.flatMap { onTheirDays[$0 + " " + payment.due] }
        ?? event(for: payment)
    }
    // One event, one payment: a single event (no rule, not detached) found by an identifier
    // several payments recorded was their series, made single by another app. It is the first
    // of them's, also when moved onto a later one's due day; the later ones are not there.
    return zip(payments, found).map { payment, event in
      guard let event, !loan.singleEvents, !event.hasRecurrenceRules, !event.isDetached,
        let first = payments.first(where: { $0.eventIdentifier == payment.eventIdentifier })
      else { return event }
      return first.number == payment.number ? event : nil
    }
  }

  /// Where a loan's payments' events are, found as ``find(_:title:found:recorded:)`` finds
  /// each (as `show` does): what the app compares, after `EKEventStoreChanged`, with what it
  /// last saw. `titles` are the payments' event titles. The calendar is the one the payment's
  /// identifier found it in: nil when it is gone, or found only by title and day (maybe a copy).
  func whereabouts(
    of payments: [Payment], titles: [String], recorded: () -> Set<String>
  ) -> [(whereabouts: Whereabouts, calendar: EKCalendar?)] {
    zip(payments.indices, events(for: payments)).map { index, event in
      let payment = payments[index]
      let found = find(payment, title: titles[index], found: event, recorded: recorded)
      guard let found else { return (.gone, nil) }
      let day = DueDay.day(found.event.startDate)
      let title = found.event.title ?? ""
      return (
        day == payment.due ? .onItsDay(title: title) : .moved(day: day, title: title),
        found.byIdentifier ? found.event.calendar : nil
      )
    }
  }

  // MARK: Recovering a lost identifier

  /// The event of a payment: from its recorded identifier (`found`, what ``events(for:)``
  /// found), else an event with its `title` on its due day (``recover(_:title:recorded:)``),
  /// whose identifier the caller records. Nil for a payment the app took off the calendar (no
  /// identifier), or one found neither way.
  ///
  /// Another app's "this and future" change (a split) gives the occurrences from it a new
  /// series' identifier: the recorded one no longer finds them, title and day do.
  func find(
    _ payment: Payment, title: String, found: EKEvent?,
    recorded: () throws -> Set<String>
  ) rethrows -> (event: EKEvent, byIdentifier: Bool)? {
    guard payment.eventIdentifier != nil else { return nil }
    if let event = found { return (event, true) }
    return try recover(payment, title: title, recorded: recorded()).map { ($0, false) }
  }

  /// An event with the payment's `title` due on its day, in the loan's calendar: the payment's
  /// event re-created, or cut off by a split, whose identifier the caller records. Nil when
  /// there is none: then the payment is missing from the calendar. Not in other calendars: a
  /// copy there (an export imported into another calendar) is not the app's, nor to remove.
  ///
  /// The day an event was due is its `occurrenceDate`: an occurrence another app moved on its
  /// own keeps it, also once a split gives it the new series' identifier, and another payment's
  /// occurrence moved onto this day is not this payment's. Such a moved one is looked for a year
  /// either side, and only while the recorded event is still there (cut short by the split).
  ///
  /// Events another payment has recorded are left out, so that two loans alike never share
  /// an event, and so are events the app could not change or remove.
  func recover(_ payment: Payment, title: String, recorded: Set<String>) -> EKEvent? {
    let isThePayments = { (event: EKEvent) in
      event.title == title && DueDay.day(event.occurrenceDate) == payment.due
        && !recorded.contains(event.eventIdentifier) && event.calendar.allowsContentModifications
    }
    if let event = events(around: payment, days: 0).first(where: isThePayments) { return event }
    guard let due = DueDay.date(payment.due) else { return nil }
    // Cut off by a split that also moved the day: an occurrence of a new series (moved on its
    // own since, or not) with the payment's title, near the due day (`nearest`); also once
    // the recorded series is gone.
    let near = events(around: payment, days: Int(halfPeriod.rounded(.up))).filter {
      $0.title == title && ($0.hasRecurrenceRules || $0.isDetached)
        && !recorded.contains($0.eventIdentifier) && $0.calendar.allowsContentModifications
    }
    if let split = nearest(to: due, among: near) { return split }
    guard let identifier = payment.eventIdentifier, store.event(withIdentifier: identifier) != nil
    else { return nil }
    return events(around: payment, days: 366).first(where: isThePayments)
  }

  /// Half the loan's period, in days (a month counted as 28): how far a split's new date may
  /// move the payments and still leave each nearest its own due day.
  private var halfPeriod: Double {
    let (unit, interval) = loan.paymentFrequency.recurrence
    return Double(interval) * (unit == .monthly ? 28 : unit == .weekly ? 7 : 1) / 2
  }

  /// The occurrence due nearest `due` (by `occurrenceDate`, the day its series put it on, kept
  /// when it is then moved on its own), less than half the loan's period from it: a split's
  /// new date moves every later occurrence by as much, so each payment's is the one nearest its
  /// due day. Half a period or more is another payment's (or, for a daily loan, any move of a
  /// day): nil then, the payment told as gone.
  private func nearest(to due: Date, among occurrences: [EKEvent]) -> EKEvent? {
    let distance = { (event: EKEvent) in abs(event.occurrenceDate.timeIntervalSince(due)) }
    return occurrences.filter { distance($0) < halfPeriod * 86_400 }
      .min { distance($0) < distance($1) }
  }

  /// The events starting on the payment's due day, or `days` either side of it.
  private func events(around payment: Payment, days: Int) -> [EKEvent] {
    guard let day = DueDay.date(payment.due) else { return [] }
    // The loan's calendar (none when it is gone); every one for a loan that did not record it
    // or recorded it in another database (an identifier belongs to one database).
    let ownDatabase = loan.eventStoreIdentifier == store.eventStoreIdentifier
    let calendars = loan.calendarIdentifier.flatMap { identifier in
      ownDatabase ? store.calendar(withIdentifier: identifier).map { [$0] } ?? [] : nil
    }
    let predicate = store.predicateForEvents(
      withStart: day.addingTimeInterval(Double(-days) * 86_400),
      end: DueDay.nextDay(day).addingTimeInterval(Double(days) * 86_400), calendars: calendars)
    return store.events(matching: predicate)
  }
}
