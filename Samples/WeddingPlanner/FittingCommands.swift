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
    try change(fitting: number, in: store) { fitting, _ in
      try move(fitting, to: start, span: span, in: store)
    }
  }

  func cancelFitting(_ number: String, span: EKSpan) throws {
    let store = try store(.read("Cancelling a fitting"))
    try change(fitting: number, in: store) { fitting, later in
      try cancel(span == .futureEvents ? [fitting] + later : [fitting], span: span, in: store)
    }
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
  /// then skips (an exception date, RFC 5545's EXDATE). `cancel-fittings-from` gives it and
  /// the later ones, in date order, with `.futureEvents`: removed from the first of each
  /// series among them, the series ends before it (its UNTIL), or goes whole from its first
  /// occurrence, its later ones with it, moved ones too: by the time they were due, so one
  /// due later but moved before it goes too. After a split (`fittings-from`, or another app's)
  /// the fittings are two series: each is cut. One moved on its own (detached) that no cut
  /// took is removed alone, `.thisEvent` (what `.futureEvents` does from a detached
  /// occurrence, Apple does not document). Each removal commits: the next sees it. Fetch the
  /// fittings just before (the commands do): through an object fetched before another app's
  /// split, a removal reaches nothing past it, and says nothing; after another app moved the
  /// whole series, it is refused ("fetch it again"), unless by whole weeks: then it removes
  /// whichever fitting is now at that time.
  func cancel(_ fittings: [EKEvent], span: EKSpan, in store: EKEventStore) throws {
    var cut: Set<String> = []  // series cut already: their later fittings went with them
    for fitting in fittings where !cut.contains(fitting.eventIdentifier) {
      if !fitting.isDetached {
        cut.insert(fitting.eventIdentifier)
      } else if store.event(withIdentifier: fitting.eventIdentifier) == nil {
        continue  // went with its series
      }
      try store.remove(fitting, span: fitting.isDetached ? .thisEvent : span, commit: true)
    }
  }

  // MARK: -

  /// The fitting numbered `number`, changed by `change`: marked as the app's own first, and
  /// the fittings shown before and after.
  private func change(
    fitting number: String, in store: EKEventStore, _ change: (EKEvent, [EKEvent]) throws -> Void
  ) throws {
    let (item, before) = try fittings(in: store)
    let index = try fittingIndex(number, among: before)
    let fitting = before[index]
    defer { changes.noteOwnChange([.item(item.id)]) }  // once written: StoreChanges.swift
    let shown = rows(before)
    try change(fitting, Array(before[(index + 1)...]))  // and the later ones
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
