import Foundation
import OpenEventKit
import OpenEventKitApp
import OpenEventKitUI
import REPLKit

/// The app's commands, over the kit's session. The scheduling commands are in
/// ScheduleCommands.swift, the fittings' in FittingCommands.swift, `conflicts` in
/// Conflicts.swift; here are the table and the commands over the plan's items.
struct WeddingCommands {
  let session: AppSession
  let database: WeddingDatabase
  let calendar: WeddingCalendar
  /// The plan's events as the couple last saw them; other apps' changes are told.
  let changes: ChangeTracker<String, WeddingChanges.PlanState>

  init(session: AppSession) {
    self.session = session
    let database = WeddingDatabase(session.database)
    self.database = database
    // An item whose event a stopped run never put on the calendar goes with its work.
    session.undoRecords = WeddingDatabase.undo
    let calendar = WeddingCalendar(session: session, database: database)
    self.calendar = calendar
    let console = session.console
    changes = session.track(
      .event,
      snapshot: { store in
        WeddingChanges.snapshot(store, calendar: calendar, database: database, now: console.now)
      },
      describe: { WeddingChanges.sentence($0, when: EventWhen(zone: console.timeZone)) })
  }

  var console: Console { session.console }
  var when: EventWhen { EventWhen(zone: console.timeZone) }

  var all: [REPLCommand] {
    let numbers: @Sendable ([String]) -> [String] = { [database] words in
      words.isEmpty ? ((try? database.items()) ?? []).map { "\($0.id)" } : []
    }
    let week = CalendarViews.agenda(session: session, items: "events", name: "week") { _ in
      { _ in true }
    }
    let month = CalendarViews.month(session: session, items: "events") { _ in { _ in true } }
    return [
      REPLCommand(
        "wedding", synopsis: "DATE PLACE... [--zone TZ]",
        help: "Sets the day and the venue, with the venue's time zone when it is not yours: "
          + "wedding 2027-06-12 \"Villa Lario\" --zone Europe/Rome."
      ) { words in try setWedding(words) },
      REPLCommand(
        "ceremony", synopsis: "TIME", help: "Puts the ceremony on the day, at TIME at the venue."
      ) { words in try ceremony(words[0]) },
      REPLCommand(
        "add", synopsis: "KIND WHEN... [--vendor NAME] [--at PLACE]",
        help: "Adds an appointment (venue-visit, tasting, florist, rehearsal, …) and opens it "
          + "in the editor: add tasting fri 15:00 --vendor \"Sweet Things\"."
      ) { words in try add(words) },
      REPLCommand(
        "fittings", synopsis: "START...",
        help: "Plans the dress fittings, weekly from START until two weeks before the day."
      ) { words in try planFittings(words) },
      REPLCommand(
        "move-fitting", synopsis: "N WHEN...", help: "Moves fitting N alone (this event)."
      ) { words in try moveFitting(words, span: .thisEvent) },
      REPLCommand(
        "fittings-from", synopsis: "N WHEN...",
        help: "Moves fitting N and the later ones (future events)."
      ) { words in try moveFitting(words, span: .futureEvents) },
      REPLCommand("cancel-fitting", synopsis: "N", help: "Cancels fitting N alone.") { words in
        try cancelFitting(words[0], span: .thisEvent)
      },
      REPLCommand(
        "cancel-fittings-from", synopsis: "N", help: "Cancels fitting N and the later ones."
      ) { words in try cancelFitting(words[0], span: .futureEvents) },
      REPLCommand(
        "conflicts", help: "Lists the appointments that overlap events in your other calendars."
      ) { _ in try conflicts() },
      REPLCommand("plan", help: "Lists every item of the plan, with its state.") { _ in
        try plan()
      },
      REPLCommand(week.name, synopsis: "[DATE]", help: week.help) { words in
        _ = try calendar.storeToRead(for: "'week'")
        try week.run(words)
      },
      REPLCommand(month.name, synopsis: "[YYYY-MM]", help: month.help) { words in
        _ = try calendar.storeToRead(for: "'month'")
        try month.run(words)
      },
      REPLCommand("countdown", help: "Says how long until the day, and what comes next.") { _ in
        try countdown()
      },
      REPLCommand("show", synopsis: "N", help: "Shows item N's event.", complete: numbers) {
        words in try show(words[0])
      },
      REPLCommand(
        "edit", synopsis: "N", help: "Edits item N's event in the editor.", complete: numbers
      ) { words in try edit(words[0]) },
      REPLCommand("done", synopsis: "N", help: "Marks item N done.", complete: numbers) {
        words in try done(words[0])
      },
      REPLCommand(
        "cancel", synopsis: "N", help: "Cancels item N and takes its event off the calendar.",
        complete: numbers
      ) { words in try cancel(words[0]) },
      REPLCommand(
        "restore",
        help: "Makes the Wedding calendar again, with the plan's events, after it "
          + "was deleted in another app."
      ) { _ in
        changes.claim { _ in true }
        try calendar.restore(now: console.now)
      },
      calendar.choice.command,
    ]
  }

  // MARK: The plan's items

  /// Every item, its time and its state; with full access, whether its event is on the
  /// calendar.
  func plan() throws {
    let items = try database.items()
    guard !items.isEmpty else {
      return console.print("The plan is empty; start with 'wedding DATE PLACE'.")
    }
    var found: [Int64: [EKEvent]]?
    if EKEventStore.authorizationStatus(for: .event) == .writeOnly {
      console.print(
        "Whether each is on the calendar needs full access to your calendar; this app may "
          + "only add events. " + CalendarAccess.howToChange(.event))
    } else {
      let store = try session.store(for: .event)
      found = PlanEvents(store: store, calendars: nil, database: database)
        .occurrences(around: console.now)
    }
    console.table(
      items.map { item in
        let events = found?[item.id] ?? []
        let start =
          events.first.map(when.text) ?? item.start.map { start in
            item.kind == PlanItem.day
              ? DateText(timeZone: console.timeZone).day(start) : when.start(start)
          } ?? ""
        return ["\(item.id)", item.title, start, item.state.rawValue, calendarState(events, found)]
      }, header: ["#", "item", "when", "state", "calendar"])
  }

  private func calendarState(_ events: [EKEvent], _ found: [Int64: [EKEvent]]?) -> String {
    guard found != nil else { return "?" }
    guard let first = events.first else { return "not on the calendar" }
    let place = "on \"\(first.calendar?.title ?? "")\""
    return events.count > 1 ? "\(events.count) times, \(place)" : place
  }

  func countdown() throws {
    guard let wedding = try database.wedding(), let day = wedding.civilDay else {
      throw WeddingError("No day yet; set it with 'wedding DATE PLACE'.")
    }
    let dates = DateText(timeZone: console.timeZone)
    let today = DateReading.local(console.now, in: console.timeZone).date
    let days = day.dayNumber - today.dayNumber
    let midnight = DateReading.instant(local: .init(date: day), in: console.timeZone)
    let what =
      days > 1
      ? "\(days) days to go" : days == 1 ? "Tomorrow" : days == 0 ? "Today" : "\(-days) days ago"
    console.print("\(what): \(dates.day(midnight)) at \(wedding.venue).")
    let next = try database.items()
      .filter { $0.state == .planned && ($0.start ?? .distantPast) > console.now }
      .min { $0.start! < $1.start! }
    if let next, let start = next.start {
      console.print("Next: \(next.title), \(when.start(start)).")
    }
  }

  func show(_ number: String) throws {
    let item = try database.item(number)
    let store = try calendar.storeToRead(for: "'show'")
    guard
      let event = PlanEvents(store: store, calendars: nil, database: database)
        .event(of: item, now: console.now)
    else { throw WeddingError("\(item.title) is not on the calendar.") }
    EKEventViewController(event: event).show(on: console)
  }

  /// The editor over the item's event; on a repeating one it asks whether a change is for
  /// this occurrence or the future ones. What it did is recorded after.
  func edit(_ number: String) throws {
    let item = try database.item(number)
    let store = try calendar.storeToRead(for: "'edit'")
    changes.claim { _ in true }
    let events = PlanEvents(store: store, calendars: nil, database: database)
    guard let event = events.event(of: item, now: console.now) else {
      throw WeddingError("\(item.title) is not on the calendar.")
    }
    let editor = EKEventEditViewController(eventStore: store, event: event)
    switch editor.run(on: console) {
    case .canceled: console.print("Nothing changed.")
    case .saved, .deleted: try record(item, events: events)
    }
  }

  func done(_ number: String) throws {
    var item = try database.item(number)
    item.state = .done
    try database.save(item)
    console.print("\(item.title) is done.")
  }

  /// Takes every occurrence of the item off the calendar (each series it became, with
  /// `.futureEvents` from its first occurrence), and marks it cancelled.
  func cancel(_ number: String) throws {
    var item = try database.item(number)
    let store = try calendar.storeToRead(for: "'cancel'")
    changes.claim { _ in true }
    let events = PlanEvents(store: store, calendars: nil, database: database)
    // A split series is two series; a detached occurrence is an event of its own.
    for _ in 0..<100 {
      guard let first = events.occurrences(around: console.now)[item.id]?.first else { break }
      try store.remove(first, span: .futureEvents)
    }
    item.state = .cancelled
    item.eventIdentifier = nil
    try database.save(item)
    console.print("Cancelled \(item.title); it is off the calendar.")
  }

  /// After an edit: the item's event as it is now (an occurrence edited alone is detached,
  /// with an identifier of its own; a deleted one is gone).
  func record(_ item: PlanItem, events: PlanEvents) throws {
    var item = item
    let found = events.occurrences(around: console.now)[item.id] ?? []
    item.eventIdentifier = PlanEvents.representative(of: found)?.eventIdentifier
    item.start = found.first?.startDate
    if found.isEmpty { item.state = .cancelled }
    try database.save(item)
  }
}
