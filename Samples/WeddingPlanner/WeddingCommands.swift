import Foundation
import OpenEventKit
import OpenEventKitApp
import OpenEventKitUI
import REPLKit

/// The app's commands, over the kit's session. The scheduling commands are in
/// ScheduleCommands.swift, the fittings' in FittingCommands.swift, `conflicts` in
/// Conflicts.swift; here are the table, the store, and the commands over the plan's items.
struct WeddingCommands {
  let session: AppSession
  let database: WeddingDatabase
  /// The couple's decision about the calendar, asked at need (CalendarAccess.swift).
  let access: EventAccess
  /// The plan's events as the couple last saw them; other apps' changes are told.
  let changes: StoreChanges

  init(session: AppSession) {
    self.session = session
    let database = WeddingDatabase(session.database)
    self.database = database
    access = EventAccess(console: session.console)
    let console = session.console
    changes = StoreChanges(
      session: session,
      snapshot: { store in
        WeddingChanges.snapshot(
          store, settings: session.database, database: database, now: console.now)
      },
      describe: {
        WeddingChanges.sentence($0, when: EventWhen(zone: console.timeZone)) { id in
          try? database.item("\(id)").title
        }
      })
    changes.sayFirst = { [access] in access.tellIfAccessChanged() }
    keepCrashSafe()
  }

  /// The store, for what the command needs of it.
  func store(_ need: EventAccess.Need) throws -> EKEventStore {
    let store = try access.store(need)  // CalendarAccess.swift: the switch, asking at need
    // CrashSafety.swift; before the first look, so that what it removes is no news.
    repairUnfinishedWork(in: store)
    changes.start(watching: store)  // StoreChanges.swift: once
    changes.tellWhatChanged()  // a change whose notice has not come yet: told before any write
    return store
  }

  /// The Wedding calendar, over this app's store.
  var calendar: WeddingCalendar {
    WeddingCalendar(session: session, database: database) { need in try store(need) }
  }

  var console: Console { session.console }
  var when: EventWhen { EventWhen(zone: console.timeZone) }

  var all: [REPLCommand] {
    let numbers: @Sendable ([String]) -> [String] = { [database] words in
      words.isEmpty ? ((try? database.items()) ?? []).map { "\($0.id)" } : []
    }
    let every: @Sendable (EKEventStore) -> (EKEvent) -> Bool = { _ in { _ in true } }
    let week = CalendarViews.agenda(
      session: session, items: "events", name: "week", store: { try store(.read("'week'")) },
      include: every)
    let month = CalendarViews.month(
      session: session, items: "events", store: { try store(.read("'month'")) }, include: every)
    return [
      REPLCommand(
        "wedding", SetWedding.self,
        help: "Sets the day and the venue, with the venue's time zone when it is not yours: "
          + "wedding 2027-06-12 \"Villa Lario\" --zone Europe/Rome."
      ) { try setWedding(day: $0.date, venue: $0.place, zone: $0.zone) },
      REPLCommand(
        "ceremony", CeremonyTime.self, help: "Puts the ceremony on the day, at TIME at the venue."
      ) { try ceremony($0.time) },
      REPLCommand(
        "add", AddAppointment.self,
        help: "Adds an appointment (venue-visit, tasting, florist, rehearsal, …) and opens it "
          + "in the editor: add tasting fri 15:00 --vendor \"Sweet Things\"."
      ) { try add($0.kind, at: $0.when, vendor: $0.vendor, place: $0.place) },
      REPLCommand(
        "fittings", FittingsStart.self,
        help: "Plans the dress fittings, weekly from START until two weeks before the day."
      ) { try planFittings($0.start) },
      REPLCommand(
        "move-fitting", MoveFitting.self, help: "Moves fitting N alone (this event)."
      ) { try moveFitting($0.n, to: $0.when, span: .thisEvent) },
      REPLCommand(
        "fittings-from", MoveFitting.self,
        help: "Moves fitting N and the later ones (future events)."
      ) { try moveFitting($0.n, to: $0.when, span: .futureEvents) },
      REPLCommand("cancel-fitting", FittingNumber.self, help: "Cancels fitting N alone.") {
        try cancelFitting($0.n, span: .thisEvent)
      },
      REPLCommand(
        "cancel-fittings-from", FittingNumber.self,
        help: "Cancels fitting N and those listed after it (and any due after it, moved before)."
      ) { try cancelFitting($0.n, span: .futureEvents) },
      REPLCommand(
        "conflicts", help: "Lists the appointments that overlap events in your other calendars."
      ) { try conflicts() },
      REPLCommand("plan", help: "Lists every item of the plan, with its state.") { try plan() },
      week,
      month,
      REPLCommand("countdown", help: "Says how long until the day, and what comes next.") {
        try countdown()
      },
      REPLCommand("show", ItemNumber.self, help: "Shows item N's event.", complete: numbers) {
        try show($0.n)
      },
      REPLCommand(
        "edit", ItemNumber.self, help: "Edits item N's event in the editor.", complete: numbers
      ) { try edit($0.n) },
      REPLCommand("done", ItemNumber.self, help: "Marks item N done.", complete: numbers) {
        try done($0.n)
      },
      REPLCommand(
        "cancel", ItemNumber.self, help: "Cancels item N and takes its event off the calendar.",
        complete: numbers
      ) { try cancel($0.n) },
      REPLCommand(
        "restore",
        help: "Makes the Wedding calendar again, with the plan's events, after it "
          + "was deleted in another app."
      ) {
        // The calendar and every item come back: the command's own doing.
        let items = try database.items().map { WeddingChanges.Key.item($0.id) }
        defer { changes.noteOwnChange(items + [.calendar]) }  // once written: StoreChanges.swift
        try calendar.restore(now: console.now)
      },
      REPLCommand("calendar", help: calendar.choice.command.help) { [self] in
        // The plan is watched in the calendar chosen: what it shows there is the command's own
        // doing, not another app's (its items left in the old calendar are no longer told).
        let items = try database.items().map { WeddingChanges.Key.item($0.id) }
        defer { changes.noteOwnChange(items + [.calendar]) }  // once written: StoreChanges.swift
        try calendar.choice.choose()
      },
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
    do {
      let store = try store(.read("Whether each is on the calendar"))
      found = PlanEvents(store: store, calendars: nil, database: database)
        .occurrences(around: console.now)
      // The calendar the app recorded is not in this store (deleted by another app, or the
      // app's folder copied from another calendar database): `restore` brings it back.
      if calendar.current(in: store) == nil, (try? session.database.setting("calendar")) != nil {
        console.print(WeddingCalendar.deleted)
      }
    } catch let refusal as EventAccess.NeedsFullAccess {
      console.print(refusal.description)  // the plan as the app recorded it, then
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
    let planned = try database.items().filter { $0.state == .planned }
    // With full access (never asked for here), each item's next occurrence as the calendar has
    // it now (another app may have moved, split or removed it); without, the plan as recorded.
    var starts = planned.map { (item: $0, start: $0.start ?? .distantPast) }
    if EKEventStore.authorizationStatus(for: .event) == .fullAccess {
      let found = PlanEvents(
        store: try store(.read("'countdown'")), calendars: nil, database: database
      ).occurrences(around: console.now)
      starts = planned.compactMap { item in
        found[item.id]?.first { $0.startDate > console.now }.map { (item, $0.startDate) }
      }
    }
    if let next = starts.filter({ $0.start > console.now }).min(by: { $0.start < $1.start }) {
      console.print("Next: \(next.item.title), \(when.start(next.start)).")
    }
  }

  func show(_ number: String) throws {
    let item = try database.item(number)
    let store = try store(.read("'show'"))
    let events = ownEvents(in: store)
    guard var event = events.event(of: item, now: console.now) else {
      throw WeddingError("\(item.title) is not on the calendar.")
    }
    let occurrences = events.occurrences(around: console.now)[item.id] ?? []
    // A series none of whose occurrences is left as it made them (each removed, or moved on
    // its own) still has its row, at a time no occurrence has: show the first there is.
    let series = event.eventIdentifier
    let asMade = occurrences.filter { $0.eventIdentifier == series && !$0.isDetached }
    if event.hasRecurrenceRules, !event.isDetached, asMade.isEmpty, let first = occurrences.first {
      event = first
    }
    EKEventViewController(event: event).show(on: console)
    // The view shows the series as its own row has it; occurrences another app moved on their
    // own or split off into a series of their own are the item's too: say where they are.
    let apart = occurrences.filter {
      $0.eventIdentifier != event.eventIdentifier || ($0.isDetached && !event.isDetached)
    }
    if !apart.isEmpty {
      let dates = DateText(timeZone: console.timeZone)
      console.print(
        "Moved on their own or split off: "
          + apart.map { "\(dates.dayAndTime($0.startDate)) (\($0.title ?? ""))" }
          .joined(separator: ", ") + ".")
    }
  }

  /// The editor over the item's event; on a repeating one it asks whether a change is for
  /// this occurrence or the future ones. What it did is recorded after.
  func edit(_ number: String) throws {
    let item = try database.item(number)
    let store = try store(.read("'edit'"))
    // Any calendar: the editor shows which, and the couple may have moved it there.
    let events = PlanEvents(store: store, calendars: nil, database: database)
    guard let event = events.event(of: item, now: console.now) else {
      throw WeddingError("\(item.title) is not on the calendar.")
    }
    let editor = EKEventEditViewController(eventStore: store, event: event)
    switch editor.run(on: console) {
    case .canceled: console.print("Nothing changed.")  // nothing written: others' changes told
    case .saved, .deleted:
      defer { changes.noteOwnChange([.item(item.id)]) }  // once written: StoreChanges.swift
      try record(item, events: events)
    }
  }

  func done(_ number: String) throws {
    var item = try database.item(number)
    item.state = .done
    try database.save(item)
    console.print("\(item.title) is done.")
  }

  /// Takes every occurrence of the item off the calendar, and marks it cancelled.
  func cancel(_ number: String) throws {
    var item = try database.item(number)
    let store = try store(.read("'cancel'"))
    defer { changes.noteOwnChange([.item(item.id)]) }  // once written: StoreChanges.swift
    try removeEverySeries(withIdentifiers: eventIdentifiers(of: item, in: store), from: store)
    item.state = .cancelled
    item.eventIdentifier = nil
    try database.save(item)
    console.print("Cancelled \(item.title); it is off the calendar.")
  }

  /// The plan's events looked for by URL in the plan's calendar only: a copy of the plan in
  /// another calendar (an export imported there) carries the same URLs, and is not the app's
  /// to show or remove. (A recorded identifier finds its event in any calendar.)
  private func ownEvents(in store: EKEventStore) -> PlanEvents {
    PlanEvents(
      store: store, calendars: [calendar.current(in: store)].compactMap { $0 }, database: database)
  }

  /// The item's events' identifiers, each once: the recorded one (found wherever its series
  /// lies in time), then those of its occurrences around its start and around now, found by
  /// the item's URL (a split series, a moved occurrence).
  private func eventIdentifiers(of item: PlanItem, in store: EKEventStore) -> [String] {
    let events = ownEvents(in: store)
    let found = [item.start ?? console.now, console.now].flatMap {
      events.occurrences(around: $0)[item.id] ?? []
    }
    var seen: Set<String> = []
    return ([item.eventIdentifier].compactMap { $0 } + found.map(\.eventIdentifier))
      .filter { seen.insert($0).inserted }
  }

  // MARK: pattern remove-series
  /// Removes every series these identifiers name, each from its first occurrence with
  /// `.futureEvents`, which takes the series and its detached occurrences. The identifier
  /// of any occurrence will do: `event(withIdentifier:)` gives its series' first
  /// occurrence, wherever the series lies in time. After a split the item is two series,
  /// two identifiers. A detached occurrence (one moved on its own) has an identifier of its
  /// own in OpenEventKit: found before its series, it is removed alone (`.thisEvent`: what
  /// `.futureEvents` does from a detached occurrence, Apple does not document); after, it
  /// finds nothing. Each removal commits, so that the next lookup sees it.
  func removeEverySeries(withIdentifiers identifiers: [String], from store: EKEventStore) throws {
    for identifier in identifiers {
      guard let first = store.event(withIdentifier: identifier) else { continue }  // gone
      try store.remove(first, span: first.isDetached ? .thisEvent : .futureEvents, commit: true)
    }
  }

  // MARK: After an edit

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
