import Foundation
import OpenEventKit
import OpenEventKitApp

/// What other apps did to the plan's events, told at the next prompt (at once while the
/// prompt waits on a terminal): StoreChanges compares the Wedding calendar and each plan
/// item's events as they were with what they are now, and these are its sentences. Each time
/// the app sees its calendar, it keeps a copy of it, which `restore` puts back if the
/// calendar is deleted.
enum WeddingChanges {
  /// What is compared on its own, and what a command marks as its own when it writes it: the
  /// Wedding calendar, and each plan item's events, by the item's identifier.
  enum Key: Hashable, Comparable {
    case calendar
    case item(Int64)
  }

  /// The calendar's title (nil: deleted), or an item's events as first start and count.
  enum State: Equatable {
    case calendar(title: String?)
    case item(ItemState)
  }

  struct ItemState: Equatable {
    var title: String
    var start: Date
    var count: Int
    /// Every occurrence's start and title, so that a change to later ones (another app's
    /// "this and future" edit from the third fitting, say) is seen too.
    var occurrences: [String]
  }

  static func snapshot(
    _ store: EKEventStore, settings: AppDatabase, database: WeddingDatabase, now: Date
  ) -> [Key: State] {
    guard let chosen = try? settings.setting("calendar") else { return [:] }
    guard let current = store.calendar(withIdentifier: chosen) else {
      return [.calendar: .calendar(title: nil)]
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
    var states: [Key: State] = [.calendar: .calendar(title: current.title)]
    for (id, events) in found {
      guard let first = events.first else { continue }
      states[.item(id)] = .item(
        ItemState(
          title: first.title ?? "", start: first.startDate, count: events.count,
          occurrences: events.map { "\($0.startDate.timeIntervalSince1970) \($0.title ?? "")" }))
    }
    return states
  }

  /// One line for the changes other apps made (the app's own are filtered out before), or
  /// nil: a deleted calendar alone when it was deleted; else each item taken off, moved or
  /// with another number of occurrences, by time, then the calendar's new title. Nothing is
  /// said of a calendar first chosen or restored, nor of an item new to the plan.
  /// `name` gives a plan item's own title, read only for a change to later occurrences: the
  /// item is named by it, whatever its events are called now (another app may rename one).
  static func sentence(
    _ changes: [StoreChanges.Change], when: EventWhen, name: (Int64) -> String?
  ) -> String? {
    let calendar = changes.first { $0.key == .calendar }
    var titles: (before: String, after: String)?
    if let calendar {
      guard case .calendar(let before)? = calendar.before,
        case .calendar(let after)? = calendar.after
      else { return nil }
      guard let after else { return before == nil ? nil : WeddingCalendar.deleted }
      guard let before else { return nil }
      titles = (before, after)
    }
    let items: [(id: Int64, old: ItemState, new: ItemState?)] = changes.compactMap { change in
      guard case .item(let id) = change.key, case .item(let old)? = change.before else {
        return nil
      }
      guard case .item(let new)? = change.after else { return (id, old, nil) }
      return (id, old, new)
    }
    var sentences: [String] = []
    // By time (as it is now), then title: the order the plan is read in, not the order the
    // couple added the items.
    let byTime = items.sorted {
      let (one, other) = ($0.new ?? $0.old, $1.new ?? $1.old)
      return (one.start, one.title, $0.id) < (other.start, other.title, $1.id)
    }
    for (id, old, new) in byTime {
      guard let new else {
        // Gone from the Wedding calendar: removed, or moved to another calendar by another app.
        sentences.append("\(old.title) was taken off the calendar, or moved to another.")
        continue
      }
      if new.start != old.start {
        sentences.append("\(new.title) now starts \(when.start(new.start)).")
      } else if new.count != old.count {
        let moves = moves(from: old, to: new, when: when)
        sentences.append(
          "\(new.title) now has \(new.count) occurrence\(new.count == 1 ? "" : "s")\(moves).")
      } else if new.title != old.title {
        let which = new.count == 1 ? old.title : "The first \(old.title)"
        sentences.append("\(which) is now \"\(new.title)\".")
      } else if new.occurrences != old.occurrences {
        let moves = moves(from: old, to: new, when: when)
        let what = moves.isEmpty ? "renamed" : "moved\(moves)"
        sentences.append("Some later occurrences of \(name(id) ?? new.title) were \(what).")
      }
    }
    if let titles, titles.before != titles.after {
      sentences.append("The calendar \"\(titles.before)\" is now \"\(titles.after)\".")
    }
    return sentences.isEmpty ? nil : sentences.joined(separator: " ")
  }

  /// Which occurrences went and came, by start: ", none on Sat 1 May 2027 10:00 any more, now
  /// also on …", or nothing when only titles changed.
  static func moves(from old: ItemState, to new: ItemState, when: EventWhen) -> String {
    let start = { (occurrence: String) in
      Double(occurrence.prefix { $0 != " " }).map(Date.init(timeIntervalSince1970:))
    }
    let (before, after) = (
      Set(old.occurrences.compactMap(start)), Set(new.occurrences.compactMap(start))
    )
    let say = { (starts: [Date]) in  // two at most: "…, …", or "… and 6 later"
      starts.count > 2
        ? "\(when.start(starts[0])) and \(starts.count - 1) later"
        : starts.map(when.start).joined(separator: ", ")
    }
    let (gone, came) = (before.subtracting(after).sorted(), after.subtracting(before).sorted())
    return (gone.isEmpty ? "" : ", none on \(say(gone)) any more")
      + (came.isEmpty ? "" : ", now also on \(say(came))")
  }
}
