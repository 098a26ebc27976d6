import Foundation
import OpenEventKit
import OpenEventKitApp

/// What other apps did to the plan's events, told at the next prompt (at once while the
/// prompt waits on a terminal): StoreChanges compares the Wedding calendar and the plan's
/// events as they were with what they are now, and these are its sentences. Each time
/// the app sees its calendar, it keeps a copy of it, which `restore` puts back if the
/// calendar is deleted.
enum WeddingChanges {
  /// The calendar (nil: deleted), and each item's events as first start and count.
  struct PlanState: Equatable {
    var calendarTitle: String?
    var items: [Int64: ItemState]
  }

  struct ItemState: Equatable {
    var title: String
    var start: Date
    var count: Int
  }

  static let key = "plan"

  static func snapshot(
    _ store: EKEventStore, settings: AppDatabase, database: WeddingDatabase, now: Date
  ) -> [String: PlanState] {
    guard let chosen = try? settings.setting("calendar") else { return [:] }
    guard let current = store.calendar(withIdentifier: chosen) else {
      return [key: PlanState(calendarTitle: nil, items: [:])]
    }
    // OpenEventKit addition: exportICalendar, because Apple's EventKit cannot read or write
    // .ics; the copy is what `restore` imports.
    if let copy = try? store.exportICalendar(calendars: [current]) {
      try? database.setCalendarCopy(copy)
    }
    // The Wedding calendar only: the snapshot runs after every command, and the plan's
    // events are there (with write-only access, where they are not, nothing is tracked).
    let found = PlanEvents(store: store, calendars: [current], database: database)
      .occurrences(around: now)
    return [
      key: PlanState(
        calendarTitle: current.title,
        items: found.compactMapValues { events in
          events.first.map {
            ItemState(title: $0.title ?? "", start: $0.startDate, count: events.count)
          }
        })
    ]
  }

  static func sentence(_ change: StoreChanges.Change, when: EventWhen)
    -> String?
  {
    guard let before = change.before, let after = change.after else { return nil }
    guard let title = after.calendarTitle else {
      return before.calendarTitle == nil ? nil : WeddingCalendar.deleted
    }
    guard before.calendarTitle != nil else { return nil }
    var sentences: [String] = []
    // By time (as it is now), then title: the order the plan is read in, not the order the
    // couple added the items.
    let byTime = before.items.sorted {
      let (one, other) = (after.items[$0.key] ?? $0.value, after.items[$1.key] ?? $1.value)
      return (one.start, one.title, $0.key) < (other.start, other.title, $1.key)
    }
    for (id, old) in byTime {
      guard let new = after.items[id] else {
        sentences.append("\(old.title) was taken off the calendar.")
        continue
      }
      if new.start != old.start {
        sentences.append("\(new.title) now starts \(when.start(new.start)).")
      } else if new.count != old.count {
        sentences.append("\(new.title) now has \(new.count) occurrences.")
      }
    }
    if before.calendarTitle != title {
      sentences.append("The calendar \"\(before.calendarTitle ?? "")\" is now \"\(title)\".")
    }
    return sentences.isEmpty ? nil : sentences.joined(separator: " ")
  }
}
