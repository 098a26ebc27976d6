import Foundation
import OpenEventKit
import OpenEventKitApp
import OpenEventKitUI
import REPLKit

/// The couple's "Wedding" calendar: made in the local source on first use (or chosen with
/// `calendar`), remembered by its identifier. When another app deletes it the planner says
/// so, and `restore` makes it again with the plan's appointments, from the copy the app keeps
/// of it.
struct WeddingCalendar {
  static let title = "Wedding"

  let session: AppSession
  let database: WeddingDatabase
  /// The app's store, access checked for what the command needs (CalendarAccess.swift).
  let store: @Sendable (EventAccess.Need) throws -> EKEventStore
  /// The kit's choice, with this app's way of finding or making the calendar.
  let choice: CalendarChoice

  init(
    session: AppSession, database: WeddingDatabase,
    store: @escaping @Sendable (EventAccess.Need) throws -> EKEventStore
  ) {
    self.session = session
    self.database = database
    self.store = store
    choice = CalendarChoice(
      session: session, for: .event, purpose: "the wedding", newItems: "Wedding appointments",
      store: { try store(.full) },
      fallback: { [session] store in try Self.findOrMake(in: store, session: session) })
  }

  /// The writable "Wedding" calendar, else one made in the local source; refused when the one
  /// the app used was deleted, since `restore` should bring its appointments back with it.
  private static func findOrMake(in store: EKEventStore, session: AppSession) throws
    -> EKCalendar
  {
    if let chosen = try session.database.setting("calendar"),
      store.calendar(withIdentifier: chosen) == nil
    {
      throw WeddingError(deleted)
    }
    if let found = store.calendars(for: .event).first(where: {
      $0.title == title && $0.allowsContentModifications
    }) {
      return found
    }
    guard let local = store.sources.first(where: { $0.sourceType == .local }) else {
      throw WeddingError("There is no local source to make the \"\(title)\" calendar in.")
    }
    let calendar = EKCalendar(for: .event, eventStore: store)
    calendar.title = title
    calendar.source = local
    try store.saveCalendar(calendar, commit: true)
    session.console.print("Made the calendar \"\(title)\" in \(local.title) for the plan.")
    return calendar
  }

  static let deleted =
    "The \"\(title)\" calendar was deleted in another app; 'restore' makes it again, with the "
    + "plan's appointments."

  /// The calendar in use, without asking or making anything; nil when there is none (yet, or
  /// any more).
  func current(in store: EKEventStore) -> EKCalendar? {
    choice.chosenCalendar(in: store)
  }

  /// Where a new event goes, with the store, for a command that adds (`.add`) or moves one
  /// of the plan's (`.read`). With full access, the Wedding calendar (made on first use). With
  /// write-only access the app sees no calendar but the default one, so the event goes there,
  /// and the couple is told.
  func forNewEvents(_ need: EventAccess.Need = .add) throws -> (EKEventStore, EKCalendar) {
    let store = try store(need)
    if EKEventStore.authorizationStatus(for: .event) == .writeOnly {
      guard let calendar = store.defaultCalendarForNewEvents else {
        throw WeddingError("There is no default calendar to add events to.")
      }
      session.console.print(
        "With write-only access, this goes in your default calendar, \"\(calendar.title)\"; "
          + "full access gives the plan a \"\(Self.title)\" calendar of its own.")
      return (store, calendar)
    }
    return (store, try choice.calendar())
  }

  // MARK: Restoring

  /// Makes the calendar again from the copy the app kept, and records the new identifiers of
  /// the plan's events (found by their URL). Without a copy, or with an empty one, the
  /// calendar is made again empty, so that the plan can go on. Then, deleted or not, puts
  /// back each planned item whose event another app removed (``putBack(in:store:now:)``).
  func restore(now: Date) throws {
    let store = try store(.full)
    if let calendar = current(in: store) {
      if try putBack(in: calendar, store: store, now: now) == 0 {
        session.console.print("The \"\(calendar.title)\" calendar is there; nothing to restore.")
      }
      return
    }
    // The import makes a calendar of that title in the local source when there is none; an
    // item whose UID is in the copy comes back as it was (a detached occurrence with its
    // series), with a new identifier. OpenEventKit addition: importICalendar, because Apple's
    // EventKit cannot read or write .ics.
    let copy = try database.calendarCopy()
    let summary = try copy.map { try store.importICalendar($0, calendarTitle: Self.title) }
    let calendar: EKCalendar
    if let id = summary?.eventCalendarIdentifier, let imported = store.calendar(withIdentifier: id)
    {
      calendar = imported
    } else {
      try session.database.setSetting("calendar", to: nil)
      calendar = try choice.calendar()  // finds or makes "Wedding", and says so
    }
    try session.database.setSetting("calendar", to: calendar.calendarIdentifier)
    let events = PlanEvents(store: store, calendars: [calendar], database: database)
    try events.recordIdentifiers(now: now)
    let added = summary?.eventsAdded ?? 0
    let there = summary?.eventsUpdated ?? 0  // imported there already (from another database)
    session.console.print(
      "The \"\(calendar.title)\" calendar is back, with \(added) "
        + (added == 1 ? "event" : "events") + " from the app's copy"
        + (there == 0 ? "." : " (\(there) there already)."))
    try putBack(in: calendar, store: store, now: now)
  }

  /// Makes again, in `calendar`, the event of each planned item that has none any more (it
  /// was on the calendar, and another app removed it), as the plan records the item: its
  /// title, place and start, the app's length and alarms; the fittings weekly from their
  /// first until two weeks before the day. The copy cannot: it is taken again at each look,
  /// without the removed event. Each event links back to its item by URL, so a run stopped
  /// before the new identifier is recorded leaves nothing the plan cannot find. How many.
  @discardableResult
  func putBack(in calendar: EKCalendar, store: EKEventStore, now: Date) throws -> Int {
    let zone = session.console.timeZone
    let wedding = try database.wedding()
    let window = PlanEvents.window(around: now)
    let found = PlanEvents(store: store, calendars: nil, database: database)
      .occurrences(around: now)
    var names: [String] = []
    for var item in try database.items() where item.state == .planned && found[item.id] == nil {
      guard item.eventIdentifier != nil, let start = item.start,
        (window.start...window.end).contains(start)
      else { continue }
      let event: EKEvent
      switch item.kind {
      case PlanItem.day:
        guard let day = wedding?.civilDay else { continue }
        event = PlanEventMaker.weddingDay(item, on: day, zone: zone, in: calendar, store: store)
      case PlanItem.fittings:
        guard let until = wedding?.fittingsEnd(on: zone), start <= until else { continue }
        event = PlanEventMaker.fittings(
          item, start: start, until: until, zone: zone, in: calendar, store: store)
      default:
        let clock = item.kind == PlanItem.ceremony ? wedding?.zone ?? zone : zone
        event = PlanEventMaker.appointment(
          item, start: start, zone: clock, in: calendar, store: store)
      }
      try store.save(event, span: .futureEvents)
      item.eventIdentifier = event.eventIdentifier
      try database.save(item)
      names.append("\(item.title) (item \(item.id))")
    }
    if !names.isEmpty {
      session.console.print(
        "Put back on \"\(calendar.title)\" what another app had taken off the calendar: "
          + names.joined(separator: ", ") + ".")
    }
    return names.count
  }
}
