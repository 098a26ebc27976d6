import OpenEventKit

extension ClubCommands {
  // MARK: pattern identifiers
  // The app keeps the series' calendarItemExternalIdentifier, its iCalendar UID: titles change
  // and repeat, and a sync or an import may give it a new eventIdentifier but keeps the UID.
  func plan(_ book: String, from start: Date) throws -> String? {
    let event = EKEvent(eventStore: eventStore)
    event.title = "Book club: \(book)"
    (event.startDate, event.endDate) = (start, start.addingTimeInterval(2 * 60 * 60))
    event.calendar = eventStore.defaultCalendarForNewEvents
    let end = EKRecurrenceEnd(occurrenceCount: 12)  // RRULE:FREQ=MONTHLY;COUNT=12
    event.addRecurrenceRule(EKRecurrenceRule(recurrenceWith: .monthly, interval: 1, end: end))
    try eventStore.save(event, span: .futureEvents, commit: true)
    return event.calendarItemExternalIdentifier
  }
  var series: EKEvent? {  // not an occurrence another app moved; nil: removed, not an error
    recorded.flatMap { eventStore.calendarItems(withExternalIdentifier: $0) }?
      .first { ($0 as? EKEvent)?.isDetached == false } as? EKEvent
  }
  // MARK: pattern fetch
  // A predicate needs a window: a series is expanded into occurrences inside it. They share its
  // calendarItemExternalIdentifier, one another app moved too (its eventIdentifier may differ).
  func meetings(from start: Date? = nil) -> [EKEvent] {  // nil: from the first meeting
    guard let series else { return [] }
    let first: Date = start ?? series.startDate
    let predicate = eventStore.predicateForEvents(
      withStart: first, end: first.addingTimeInterval(366 * 86_400), calendars: [series.calendar])
    return eventStore.events(matching: predicate)
      .filter { $0.calendarItemExternalIdentifier == series.calendarItemExternalIdentifier }
      .sorted { $0.compareStartDate(with: $1) == .orderedAscending }
  }
  // MARK: pattern remove-span
  // Removing the first occurrence with .futureEvents removes the whole series; .thisEvent
  // would cancel that one meeting and keep the others.
  func cancelMeetings() throws {
    guard let first = series else { return }  // none, or already gone
    try eventStore.remove(first, span: .futureEvents, commit: true)
  }
}
