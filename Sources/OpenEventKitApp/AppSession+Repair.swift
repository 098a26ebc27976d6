import Foundation
import OpenEventKit
import REPLKit

/// Finishing what a stopped process left half done (``CalendarWork``): the items that
/// unfinished work names must not outlive it, so whatever of them is in the store is removed,
/// then the work is marked done, and the person is told.
extension AppSession {
  /// At the app's start: repairs unfinished work at once for the entity types the app may
  /// already use (no question is asked); the rest waits for the first command given access.
  /// The store is the app's own (``storeForRepair``) when it set one, else
  /// ``store(for:writeOnlyIsEnough:)``'s.
  ///
  /// ``AppInfo/run(diagnostics:migrations:commands:)`` calls it before the first
  /// prompt. Each repair is said on the console ("Repaired: …"); a failure is said too, and
  /// the work is tried again at the next start.
  ///
  /// ```swift
  /// // A loop of the app's own, instead of AppInfo.run: repair first, then take commands.
  /// session.repairAtStart()  // says "Repaired: …" for each piece of work a stopped run left
  /// let repl = REPL(prompt: session.app.prompt, commands: [], console: session.console)
  /// session.install(on: repl)
  /// exit(repl.run())
  /// ```
  public func repairAtStart() {
    let types = Set(((try? database.unfinishedWork()) ?? []).map(\.entityType))
    for entityType in types.sorted(by: { $0.rawValue < $1.rawValue })
    where EKEventStore.authorizationStatus(for: entityType) == .fullAccess {
      if let storeForRepair {
        _ = try? storeForRepair(entityType)
      } else {
        _ = try? store(for: entityType)
      }
    }
  }

  /// Repairs the unfinished work of `entityType` in `store`, saying what it did ("Repaired:
  /// …"); a failure is said too, and the work kept for the next try. An app that makes its
  /// store itself calls it once access to `entityType` is full, before its first command
  /// uses the store; ``store(for:writeOnlyIsEnough:)`` calls it for the others.
  ///
  /// ```swift
  /// let store = EKEventStore()
  /// if EKEventStore.authorizationStatus(for: .event) == .fullAccess {
  ///   session.repairUnfinishedWork(of: .event, in: store)  // "Repaired: …", if anything was
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - entityType: The kind of work to repair: events or reminders.
  ///   - store: The store to remove the unfinished work's items from.
  public func repairUnfinishedWork(of entityType: EKEntityType, in store: EKEventStore) {
    let unfinished = ((try? database.unfinishedWork()) ?? []).filter {
      $0.entityType == entityType
    }
    for work in unfinished {
      do {
        let removed = try remove(work, from: store)
        try database.queue.write { db in
          // Work that added nothing was not kept: the app's records made with it go too.
          if work.direction == .adding, work.reference != nil { try undoRecords?(work, db) }
          try work.forget(db)
        }
        console.print(Self.repairSentence(work, removed: removed))
      } catch {
        console.print(
          "Could not repair \"\(work.purpose)\", which a stopped run of this app left half "
            + "done: \(ErrorText.of(error)). It is tried again at the next start.")
      }
    }
  }

  /// Removes what is left in `store` of the items and calendars `work` names, each looked up
  /// in turn (a series' removal takes its detached occurrences with it); how many of each
  /// were.
  private func remove(_ work: CalendarWork, from store: EKEventStore) throws -> (
    items: Int, calendars: Int
  ) {
    var items = 0
    for identifier in work.items {
      switch store.calendarItem(withIdentifier: identifier) {
      case let event as EKEvent:
        try store.remove(event, span: .futureEvents, commit: true)
        items += 1
      case let reminder as EKReminder:
        try store.remove(reminder, commit: true)
        items += 1
      default: continue
      }
    }
    var calendars = 0
    for identifier in work.calendars {
      guard let calendar = store.calendar(withIdentifier: identifier) else { continue }
      try store.removeCalendar(calendar, commit: true)
      calendars += 1
    }
    return (items, calendars)
  }

  /// "Repaired: making loan 3 to Claire was stopped before it was recorded; removed the 2
  /// events it had added to the calendar, so nothing of it was kept."
  static func repairSentence(_ work: CalendarWork, removed: (items: Int, calendars: Int))
    -> String
  {
    let isEvent = work.entityType == .event
    func counted(_ count: Int, _ noun: String) -> String? {
      count == 0 ? nil : count == 1 ? "the \(noun)" : "the \(count) \(noun)s"
    }
    let things = [
      counted(removed.calendars, isEvent ? "calendar" : "list"),
      counted(removed.items, isEvent ? "event" : "reminder"),
    ].compactMap { $0 }.joined(separator: " and ")
    let place = isEvent ? "the calendar" : "your reminders"
    switch (work.direction, things.isEmpty) {
    case (.adding, true):
      return "Repaired: \(work.purpose) was stopped before it changed anything; "
        + "nothing of it was kept."
    case (.adding, false):
      return "Repaired: \(work.purpose) was stopped before it was recorded; removed "
        + "\(things) it had added to \(place), so nothing of it was kept."
    case (.removing, true):
      return "Repaired: \(work.purpose) was stopped after its last change; it is done."
    case (.removing, false):
      return "Repaired: \(work.purpose) was stopped half way; removed \(things) it had left "
        + "in \(place), so it is done."
    }
  }
}
