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
    changes.markOwn([.item(item.id)])
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

  // MARK: pattern remove-span
  /// `move-fitting N WHEN` (`.thisEvent`) and `fittings-from N WHEN` (`.futureEvents`), keeping
  /// the fitting's length. `.thisEvent` detaches the occurrence from the series: an event of its
  /// own, which the series skips. `.futureEvents` splits the series in two: it ends before this
  /// occurrence, and a new series starts at the new time and repeats from there. (In
  /// OpenEventKit the detached occurrence and the new series get identifiers of their own; Apple
  /// does not document it, so the app looks them up again, by URL, in `fittings(in:)`.)
  func moveFitting(_ number: String, to when: [String], span: EKSpan) throws {
    let store = try store(.read("Moving a fitting"))
    let (item, before) = try fittings(in: store)
    let fitting = before[try fittingIndex(number, among: before)]
    let start = try Self.start(when, console: console)
    changes.markOwn([.item(item.id)])
    let shown = rows(before)
    let length = fitting.endDate.timeIntervalSince(fitting.startDate)
    (fitting.startDate, fitting.endDate) = (start, start.addingTimeInterval(length))
    try store.save(fitting, span: span)
    try report(item, before: shown, in: store)
  }

  /// `cancel-fitting N` (`.thisEvent`) and `cancel-fittings-from N` (`.futureEvents`).
  /// `.thisEvent` removes this occurrence alone, and the series skips it; `.futureEvents`
  /// removes it and every later one, ending the series before it, or the whole series from its
  /// first occurrence. (Stored as RFC 5545's EXDATE and UNTIL.)
  func cancelFitting(_ number: String, span: EKSpan) throws {
    let store = try store(.read("Cancelling a fitting"))
    let (item, before) = try fittings(in: store)
    let fitting = before[try fittingIndex(number, among: before)]
    changes.markOwn([.item(item.id)])
    let shown = rows(before)
    try store.remove(fitting, span: span)
    try report(item, before: shown, in: store)
  }

  // MARK: -

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
