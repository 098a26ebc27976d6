// Optional, advanced: surviving a kill between the calendar and the app's own database.
// loan-scheduler's article teaches it (CrashSafeLoans.swift); wedding-planner keeps the plan
// crash-safe the same way, and Tests/ReliabilityTests/SampleCrashTests pins it, but all of
// it is here, apart from the patterns: a new item and the work of putting its event on the
// calendar are recorded in one transaction before the event is saved (the kit's
// `CalendarWork`), and finished in the one that records the event's identifier. A run
// killed in between leaves work unfinished, which the next start repairs: the event goes,
// and the item with it ("Repaired: adding the ceremony was stopped before it was recorded;
// …").
import Foundation
import GRDB
import OpenEventKit
import OpenEventKitApp

extension WeddingCommands {
  /// Makes the kit's repair at the start go through this app's store, and undo the plan's
  /// item of work that never reached the calendar.
  func keepCrashSafe() {
    session.undoRecords = WeddingDatabase.undo
    session.storeForRepair = { _ in try store(.full) }
  }

  /// Repairs the work a stopped run left, once the app may read (and so remove) events: with
  /// write-only access it would find nothing, and take work for done that is not.
  func repairUnfinishedWork(in store: EKEventStore) {
    guard EKEventStore.authorizationStatus(for: .event) == .fullAccess else { return }
    session.repairUnfinishedWork(of: .event, in: store)
  }
}

extension WeddingDatabase {
  /// A new item, planned, and its event, made by `event` from it (the item's number goes in
  /// the event's URL) and not saved yet. The item and the work of putting the event on the
  /// calendar are recorded in one transaction (`CalendarWork`): save the event,
  /// then ``save(_:finishing:)`` the item with the work. A run stopped before that has the
  /// event and the item removed at the next start (``undo(_:in:)``).
  func newItem(
    kind: String, vendor: String?, place: String?, event: (PlanItem) -> EKEvent
  ) throws -> (item: PlanItem, event: EKEvent, work: CalendarWork) {
    var made: (item: PlanItem, event: EKEvent)?
    let work = try app.beginAdding("adding the \(kind)", .event) { db in
      try db.execute(
        sql: "INSERT INTO item (kind, vendor, place, state) VALUES (?, ?, ?, ?)",
        arguments: [kind, vendor, place, PlanItem.State.planned.rawValue])
      let item = PlanItem(
        id: db.lastInsertedRowID, kind: kind, vendor: vendor, place: place, state: .planned,
        eventIdentifier: nil, start: nil)
      let new = event(item)
      made = (item, new)
      return (items: [new.calendarItemIdentifier], reference: "item \(item.id)")
    }
    return (made!.item, made!.event, work)
  }

  /// Undoes the item of unfinished work (``newItem(kind:vendor:place:event:)``), for the
  /// kit's repair: an item whose event never reached the calendar goes.
  static func undo(_ work: CalendarWork, in db: Database) throws {
    guard let reference = work.reference, reference.hasPrefix("item "),
      let id = Int64(reference.dropFirst(5))
    else { return }
    try db.execute(
      sql: "DELETE FROM item WHERE id = ? AND eventIdentifier IS NULL", arguments: [id])
  }

  /// Saves an item; with `work`, marks the work that put its new event on the calendar done
  /// in the same transaction.
  func save(_ item: PlanItem, finishing work: CalendarWork?) throws {
    try queue.write { db in
      try work?.finish(db)
      try Self.update(item, in: db)
    }
  }

  /// Forgets an item whose event was never saved (the editor was cancelled), and the work
  /// begun for it.
  func forget(_ item: PlanItem, finishing work: CalendarWork) throws {
    try queue.write { db in
      try db.execute(sql: "DELETE FROM item WHERE id = ?", arguments: [item.id])
      try work.finish(db)
    }
  }
}
