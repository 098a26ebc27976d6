import OpenEventKit

extension ClubCommands {
  // MARK: pattern identifiers
  // The app keeps the series' calendarItemExternalIdentifier, its iCalendar UID: titles change
  // and repeat; a sync may give the event a new eventIdentifier, not a new UID. A UID is not
  // unique (a copy in another calendar, occurrences moved on their own share it): so the app
  // keeps the calendar's identifier too. Another app's "this and future" change cuts the later
  // meetings off as a series with a new UID: the title and first meeting, kept too, find them.
  // A series the person moves to another calendar is no longer the club's: `plan` leaves it.
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
    try session.database.setSetting("meetings-title", to: event.title)
    try session.database.setSetting("meetings-start", to: start.ISO8601Format())
  }
  var recorded: String? { try? session.database.setting("meetings") }  // the series' UID
  func recorded(_ what: String) -> String? { try? session.database.setting("meetings-\(what)") }
  var series: EKEvent? {  // nil: removed, or moved to another calendar; not an error
    guard let uid = recorded, let calendar = recorded("calendar") else { return nil }
    return eventStore.calendarItems(withExternalIdentifier: uid).compactMap { $0 as? EKEvent }
      .first { $0.calendar.calendarIdentifier == calendar && !$0.isDetached }
  }
  // MARK: pattern fetch
  // A predicate needs a window: a series is expanded into occurrences inside it. They share its
  // calendarItemExternalIdentifier, one another app moved too (its eventIdentifier may differ).
  // Meetings split off are a series of their own, with a new UID and, in the club's calendar,
  // its title: a repeating event of that title (or one moved on its own) is the club's, found
  // even once the club's own series is removed (the window is then around the first meeting
  // kept). Another app's single event of that title is not a meeting.
  func meetings(from start: Date? = nil) -> [EKEvent] {  // nil: from the first meeting
    let kept = recorded("start").flatMap { try? Date($0, strategy: .iso8601) }
    guard let uid = recorded, let first = series?.startDate ?? kept,
      let calendar = recorded("calendar").flatMap(eventStore.calendar(withIdentifier:))
    else { return [] }
    let predicate = eventStore.predicateForEvents(  // nil: from a year before, for a first
      withStart: start ?? first.addingTimeInterval(-366 * 86_400),  // meeting moved earlier
      end: first.addingTimeInterval(2 * 366 * 86_400), calendars: [calendar])  // or later
    let (events, title) = (eventStore.events(matching: predicate), recorded("title"))
    let splitOff = events.filter { ($0.hasRecurrenceRules || $0.isDetached) && $0.title == title }
    let uids = [uid] + splitOff.map(\.calendarItemExternalIdentifier)  // and the moved ones
    return events.filter { uids.contains($0.calendarItemExternalIdentifier) }
      .sorted { $0.compareStartDate(with: $1) == .orderedAscending }
  }
  // MARK: pattern remove-span
  // A series' own row (calendarItems(withExternalIdentifier:) gives it, not detached, beside
  // its detached meetings) stands for its first occurrence: removing it with .futureEvents
  // removes the whole series, detached meetings too; .thisEvent would cancel one meeting.
  // Meetings another app split off are a series of their own, with a UID of its own: each is
  // removed. By UID, as its meetings may all have been moved on their own (detached).
  func cancelMeetings() throws {
    let uids = [recorded] + meetings().map(\.calendarItemExternalIdentifier)
    for case let uid? in Set(uids) {  // the club's own series, and each split off
      for case let first as EKEvent in eventStore.calendarItems(withExternalIdentifier: uid)
      where first.calendar.calendarIdentifier == recorded("calendar") && !first.isDetached {
        try eventStore.remove(first, span: .futureEvents, commit: true)
      }
    }
  }
}
