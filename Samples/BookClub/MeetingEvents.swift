import OpenEventKit

extension ClubCommands {
  // MARK: pattern identifiers
  // The app keeps the series' calendarItemExternalIdentifier, its iCalendar UID: titles change
  // and repeat; a sync may give the event a new eventIdentifier, not a new UID (a split does:
  // `meetings` finds that part by title, while the club's own part, this UID, is there). A UID
  // is not unique (a copy in another calendar, occurrences moved on their own share it): so
  // the app keeps the calendar's identifier too.
  // A series the person moves to another calendar is no longer the club's: `plan` leaves it
  // there, and `cancel` finds nothing to cancel.
  func plan(_ book: String, from start: Date) throws {
    let event = EKEvent(eventStore: eventStore)
    event.title = "Book club: \(book)"
    (event.startDate, event.endDate) = (start, start.addingTimeInterval(2 * 60 * 60))
    event.calendar = eventStore.defaultCalendarForNewEvents
    let end = EKRecurrenceEnd(occurrenceCount: 12)  // RRULE:FREQ=MONTHLY;COUNT=12
    event.addRecurrenceRule(EKRecurrenceRule(recurrenceWith: .monthly, interval: 1, end: end))
    try eventStore.save(event, span: .futureEvents, commit: true)
    try session.database.setSetting("meetings", to: event.calendarItemExternalIdentifier)
    try session.database.setSetting("meetings-calendar", to: event.calendar.calendarIdentifier)
  }
  var recorded: String? { try? session.database.setting("meetings") }  // the series' UID
  var recordedCalendar: String? { try? session.database.setting("meetings-calendar") }
  var series: EKEvent? {  // nil: removed, or moved to another calendar; not an error
    guard let uid = recorded else { return nil }
    return eventStore.calendarItems(withExternalIdentifier: uid).compactMap { $0 as? EKEvent }
      .first { $0.calendar.calendarIdentifier == recordedCalendar && !$0.isDetached }
  }
  // MARK: pattern fetch
  // A predicate needs a window: a series is expanded into occurrences inside it. They share its
  // calendarItemExternalIdentifier, one another app moved too (its eventIdentifier may differ).
  // Another app's "this and future" change makes the later meetings a series of their own, with
  // a new UID: in the club's calendar they keep its title, which finds them (a series: another
  // app's single event of that title is not a meeting, nor is it the club's to cancel).
  func meetings(from start: Date? = nil) -> [EKEvent] {  // nil: from the first meeting
    guard let series else { return [] }
    let first: Date = start ?? series.startDate  // nil: from a year before, for a first
    let predicate = eventStore.predicateForEvents(  // meeting another app moved earlier
      withStart: start ?? first.addingTimeInterval(-366 * 86_400),
      end: first.addingTimeInterval(366 * 86_400), calendars: [series.calendar])
    let (uid, title) = (series.calendarItemExternalIdentifier, series.title)
    return eventStore.events(matching: predicate).filter {
      $0.calendarItemExternalIdentifier == uid || $0.hasRecurrenceRules && $0.title == title
    }.sorted { $0.compareStartDate(with: $1) == .orderedAscending }
  }
  // MARK: pattern remove-span
  // A series' own row (as event(withIdentifier:) gives it for any of its meetings) stands for
  // its first occurrence: removing it with .futureEvents removes the whole series, detached
  // meetings too; .thisEvent would cancel one meeting. Meetings another app split off are a
  // series of their own: each series is removed, once (then its identifier finds nothing).
  // The club's series first: its meetings may all have been moved on their own (detached).
  func cancelMeetings() throws {
    for meeting in [series].compactMap({ $0 }) + meetings() where !meeting.isDetached {
      guard let first = eventStore.event(withIdentifier: meeting.eventIdentifier) else { continue }
      try eventStore.remove(first, span: .futureEvents, commit: true)
    }
  }
}
