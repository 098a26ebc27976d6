import Foundation
import ICalendar
import OpenEventKit
import OpenEventKitApp
import OpenEventKitUI
import REPLKit

/// `wedding`, `ceremony` and `add`: what puts the plan's events on the calendar.
extension WeddingCommands {
  /// The day and the venue; the all-day "Wedding day" event made, or moved with them (and the
  /// ceremony with it, at the same time of day at the venue).
  func setWedding(day text: String, venue: [String], zone: TimeZone?) throws {
    guard !text.contains("T"), let day = DateReading.day(text, in: console.timeZone) else {
      throw WeddingError(
        "Give the day as 2027-06-12, then the place: wedding 2027-06-12 \"Villa Lario\".")
    }
    let zone = zone ?? console.timeZone
    let wedding = Wedding(
      day: ISO8601Text.string(day), venue: venue.joined(separator: " "), zone: zone)
    var item = try database.item(kind: PlanItem.day)
    var work: CalendarWork?  // a new item's event, kept crash-safe (CrashSafety.swift)
    defer { item.map { changes.noteOwnChange([.item($0.id)]) } }  // written: StoreChanges.swift
    let (store, target) = try calendar.forNewEvents(
      item?.eventIdentifier != nil ? .read("Moving the day") : .add)
    let events = PlanEvents(store: store, calendars: nil, database: database)
    if let existing = item, let event = events.event(of: existing, now: console.now) {
      PlanEventMaker.setDay(event, day, zone: console.timeZone)
      event.location = wedding.venue
      try store.save(event, span: .thisEvent)
      item?.place = wedding.venue
    } else {
      // New, or its event was deleted in another app: a new event for the same item.
      let makeEvent = { (item: PlanItem) in
        PlanEventMaker.weddingDay(item, on: day, zone: console.timeZone, in: target, store: store)
      }
      let event: EKEvent
      if let item {
        event = makeEvent(item)
      } else {
        (item, event, work) = try database.newItem(
          kind: PlanItem.day, vendor: nil, place: wedding.venue, event: makeEvent)
      }
      try store.save(event, span: .thisEvent)
      item?.eventIdentifier = event.eventIdentifier
    }
    item?.start = DateReading.instant(local: CivilDateTime(date: day), in: console.timeZone)
    try database.save(item!, finishing: work)
    try database.setWedding(wedding)
    console.print(
      "The wedding: \(DateText(timeZone: console.timeZone).day(item!.start!)) at \(wedding.venue)"
        + (zone == console.timeZone ? "." : " (\(zone.identifier))."))
    if let ceremony = try database.item(kind: PlanItem.ceremony),
      let event = events.event(of: ceremony, now: console.now)
    {
      let time = DateReading.local(event.startDate, in: event.timeZone ?? zone).secondOfDay
      try placeCeremony(at: time, wedding: wedding, store: store, calendar: target)
    }
  }

  /// `ceremony TIME`: an hour at the venue on the day, kept in the venue's zone, so that it
  /// stays at that time there whatever the couple's clock says.
  func ceremony(_ time: String) throws {
    guard let wedding = try database.wedding() else {
      throw WeddingError("Set the day first: wedding DATE PLACE.")
    }
    guard
      case .time(let reading) = WhenWords.read(
        [wedding.day, time], now: console.now, in: wedding.zone)
    else { throw WeddingError("'\(time)' is not a time of day; say 15:00 or 3pm.") }
    let moving = try database.item(kind: PlanItem.ceremony)?.eventIdentifier != nil
    let (store, target) = try calendar.forNewEvents(moving ? .read("Moving the ceremony") : .add)
    try placeCeremony(at: reading.secondOfDay, wedding: wedding, store: store, calendar: target)
  }

  private func placeCeremony(
    at time: Int, wedding: Wedding, store: EKEventStore, calendar target: EKCalendar
  ) throws {
    let start = try PlanEventMaker.ceremonyStart(wedding, time: time)
    var item = try database.item(kind: PlanItem.ceremony)
    var work: CalendarWork?  // a new item's event, kept crash-safe (CrashSafety.swift)
    defer { item.map { changes.noteOwnChange([.item($0.id)]) } }  // written: StoreChanges.swift
    let events = PlanEvents(store: store, calendars: nil, database: database)
    let event: EKEvent
    if let existing = item, let found = events.event(of: existing, now: console.now) {
      event = found
      event.timeZone = wedding.zone
      event.startDate = start
      event.endDate = start.addingTimeInterval(PlanEventMaker.length)
      event.location = wedding.venue
    } else {
      let makeEvent = { (item: PlanItem) in
        PlanEventMaker.appointment(
          item, start: start, zone: wedding.zone, in: target, store: store)
      }
      if let item {
        event = makeEvent(item)
      } else {
        (item, event, work) = try database.newItem(
          kind: PlanItem.ceremony, vendor: nil, place: wedding.venue, event: makeEvent)
      }
    }
    try store.save(event, span: .thisEvent)
    item?.eventIdentifier = event.eventIdentifier
    item?.start = start
    try database.save(item!, finishing: work)
    console.print("Ceremony: \(when.text(event)), at \(wedding.venue).")
  }

  /// `add KIND WHEN [--vendor NAME] [--at PLACE]`: an appointment built by the app (title,
  /// place, URL back to the plan, alarms a day and an hour before) and handed to the editor,
  /// as an app hands a partly built event to Apple's; what the couple saves is recorded.
  func add(_ kind: String, at time: [String], vendor: String?, place: String?) throws {
    let kind = kind.lowercased()
    guard ![PlanItem.day, PlanItem.ceremony, PlanItem.fittings].contains(kind) else {
      throw WeddingError("The \(kind) has a command of its own: see 'help'.")
    }
    guard kind.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else {
      throw WeddingError("A kind is one word, such as venue-visit, tasting or florist.")
    }
    let start = try Self.start(time, console: console)
    let (store, target) = try calendar.forNewEvents()
    var (item, event, work) = try database.newItem(
      kind: kind, vendor: vendor, place: place ?? vendor
    ) { item in
      PlanEventMaker.appointment(
        item, start: start, zone: console.timeZone, in: target, store: store)
    }
    defer { changes.noteOwnChange([.item(item.id)]) }  // the editor saves it: StoreChanges
    let editor = EKEventEditViewController(eventStore: store, event: event)
    guard editor.run(on: console) == .saved, let saved = editor.event else {
      try database.forget(item, finishing: work)
      return console.print("Nothing added.")
    }
    item.eventIdentifier = saved.eventIdentifier
    item.start = saved.startDate
    try database.save(item, finishing: work)
    console.print(
      "Added \(item.id): \(saved.title ?? item.title), \(when.text(saved)), "
        + "on \"\(saved.calendar?.title ?? "")\".")
  }

  // MARK: Shared

  /// A start as typed: a day and a time on the couple's clock.
  static func start(_ words: [String], console: Console) throws -> Date {
    guard case .time(let reading) = WhenWords.read(words, now: console.now, in: console.timeZone)
    else {
      throw WeddingError(
        "'\(words.joined(separator: " "))' is not a day and a time; say when as "
          + WhenWords.examples)
    }
    return DateReading.instant(local: reading, in: console.timeZone)
  }

  static func zone(_ name: String) throws -> TimeZone {
    guard let zone = TimeZone(identifier: name) else {
      throw WeddingError("'\(name)' is not a time zone; give one such as Europe/Rome.")
    }
    return zone
  }
}
