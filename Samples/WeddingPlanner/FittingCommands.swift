import Foundation
import OpenEventKit
import OpenEventKitUI
import REPLKit

/// The dress fittings: one repeating event, weekly until two weeks before the day, numbered 1,
/// 2, … in date order. Each change says which occurrences it is for, as EventKit's spans do
/// (`remove-span` below); each command shows the table before and after.
extension WeddingCommands {
  func planFittings(_ words: [String]) throws {
    guard let wedding = try database.wedding(),
      let until = wedding.fittingsEnd(on: console.timeZone)
    else { throw WeddingError("Set the day first: wedding DATE PLACE.") }
    let start = try Self.start(words, console: console)
    guard start <= until else {
      throw WeddingError(
        "The fittings end two weeks before the day, on "
          + "\(DateText(timeZone: console.timeZone).day(until)); start them before that.")
    }
    if let planned = try database.item(kind: PlanItem.fittings) {
      throw WeddingError(
        "The fittings are planned already, as item \(planned.id); 'cancel \(planned.id)' first "
          + "to plan them again.")
    }
    let (store, target) = try calendar.forNewEvents()
    var (item, event, work) = try database.newItem(
      kind: PlanItem.fittings, vendor: nil, place: nil
    ) { item in
      PlanEventMaker.fittings(
        item, start: start, until: until, zone: console.timeZone, in: target, store: store)
    }
    defer { changes.noteOwnChange([.item(item.id)]) }  // once written: StoreChanges.swift
    try store.save(event, span: .futureEvents)
    item.eventIdentifier = event.eventIdentifier
    item.start = start
    try database.save(item, finishing: work)
    let dates = DateText(timeZone: console.timeZone)
    console.print(
      "Planned the dress fittings (item \(item.id)): one event, weekly from "
        + "\(when.start(start)) until \(dates.day(until)).")
    guard EKEventStore.authorizationStatus(for: .event) != .writeOnly else {
      return console.print(EventAccess.NeedsFullAccess(what: "Listing them").description)
    }
    show(try fittings(in: store).occurrences)
  }

  /// `move-fitting N WHEN` and `fittings-from N WHEN`, keeping the fitting's length;
  /// `cancel-fitting N` and `cancel-fittings-from N`: the fitting numbered N changed with the
  /// span its command gives (`move(_:to:span:in:)`, `cancel(_:span:in:)` below), the table
  /// shown before and after, and the change marked as the app's own.
  func moveFitting(_ number: String, to when: [String], span: EKSpan) throws {
    let store = try store(.read("Moving a fitting"))
    let start = try Self.start(when, console: console)
    try change(fitting: number, in: store) { try move($0, to: start, span: span, in: store) }
  }

  func cancelFitting(_ number: String, span: EKSpan) throws {
    let store = try store(.read("Cancelling a fitting"))
    try change(fitting: number, in: store) { try cancel($0, span: span, in: store) }
  }

  // MARK: pattern remove-span
  /// The span says which occurrences of a repeating event a save or a removal is for (Apple's
  /// `EKSpan`): `.thisEvent` this one only; `.futureEvents` this one and every later one.
  /// Moved with `.thisEvent` (`move-fitting`): the occurrence becomes detached (`isDetached`),
  /// still part of its series (same UID, a RECURRENCE-ID naming the time it replaces), so
  /// removing the series with `.futureEvents` from its first occurrence removes it too. With
  /// `.futureEvents` (`fittings-from`): the series ends before this occurrence, and a new
  /// series starts at the new time and repeats from there, keeping the rule's end: an UNTIL
  /// date stays, so moving later can leave one occurrence fewer. (In OpenEventKit the detached
  /// occurrence and the new series get identifiers of their own; Apple does not document it,
  /// so the app finds them again by URL, in `fittings(in:)`.)
  func move(_ fitting: EKEvent, to start: Date, span: EKSpan, in store: EKEventStore) throws {
    let length = fitting.endDate.timeIntervalSince(fitting.startDate)
    (fitting.startDate, fitting.endDate) = (start, start.addingTimeInterval(length))
    try store.save(fitting, span: span)
  }

  /// Cancelled with `.thisEvent` (`cancel-fitting`): this occurrence alone, which the series
  /// then skips (an exception date, RFC 5545's EXDATE); with `.futureEvents`
  /// (`cancel-fittings-from`): it and every later one, the moved ones among them, the series
  /// now ending before it (its UNTIL), or the whole series from its first occurrence.
  func cancel(_ fitting: EKEvent, span: EKSpan, in store: EKEventStore) throws {
    try store.remove(fitting, span: span)
  }

  // MARK: -

  /// The fitting numbered `number`, changed by `change`: marked as the app's own first, and
  /// the fittings shown before and after.
  private func change(
    fitting number: String, in store: EKEventStore, _ change: (EKEvent) throws -> Void
  ) throws {
    let (item, before) = try fittings(in: store)
    let fitting = before[try fittingIndex(number, among: before)]
    defer { changes.noteOwnChange([.item(item.id)]) }  // once written: StoreChanges.swift
    let shown = rows(before)
    try change(fitting)
    try report(item, before: shown, in: store)
  }

  /// The fittings item and its occurrences, in date order: every event whose URL is the
  /// item's, so that detached occurrences and split series are among them.
  func fittings(in store: EKEventStore) throws -> (item: PlanItem, occurrences: [EKEvent]) {
    guard let item = try database.item(kind: PlanItem.fittings) else {
      throw WeddingError("No fittings are planned; 'fittings START' plans them.")
    }
    let events = PlanEvents(store: store, calendars: nil, database: database)
    return (item, events.occurrences(around: console.now)[item.id] ?? [])
  }

  private func fittingIndex(_ number: String, among occurrences: [EKEvent]) throws -> Int {
    guard let n = Int(number), n >= 1, n <= occurrences.count else {
      throw WeddingError(
        occurrences.isEmpty
          ? "There are no fittings left."
          : "There is no fitting \(number); they are numbered 1 to \(occurrences.count).")
    }
    return n - 1
  }

  /// The fittings before and after a change, and what the change did to the item's record.
  private func report(_ item: PlanItem, before: [[String]], in store: EKEventStore) throws {
    let after = try fittings(in: store).occurrences
    console.print("Before:")
    show(rows: before)
    console.print("After:")
    show(rows: rows(after))
    try record(item, events: PlanEvents(store: store, calendars: nil, database: database))
  }

  func show(_ occurrences: [EKEvent]) { show(rows: rows(occurrences)) }

  private func show(rows: [[String]]) {
    guard !rows.isEmpty else { return console.print("  (no fittings)") }
    console.table(rows)
  }

  /// The fittings, numbered; a moved one (detached from its series) says so.
  private func rows(_ occurrences: [EKEvent]) -> [[String]] {
    occurrences.enumerated().map { index, event in
      ["\(index + 1)", when.text(event), event.isDetached ? "moved" : ""]
    }
  }
}
