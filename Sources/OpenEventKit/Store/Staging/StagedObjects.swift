import Foundation

/// The objects saved with `commit: false` since the last commit, with what each was before
/// its first such save: `reset()` puts them back, so that an event staged and then dropped
/// looks new again instead of saved.
final class StagedObjects: @unchecked Sendable {
  private let lock = NSLock()
  private var seen: Set<ObjectIdentifier> = []
  private var restores: [() -> Void] = []

  /// Remembers an item's state before a staged save changes it (once per batch).
  func note(_ item: EKCalendarItem) {
    let state = item.saveState
    remember(item) { [weak item] in item?.saveState = state }
  }

  /// Remembers a calendar's state before a staged save changes it (once per batch).
  func note(_ calendar: EKCalendar) {
    let (record, saved) = (calendar.record, calendar.saved)
    remember(calendar) { [weak calendar] in
      calendar?.saved = saved
      if saved == nil { calendar?.record = record }
    }
  }

  private func remember(_ object: AnyObject, _ restore: @escaping () -> Void) {
    lock.withLock {
      guard seen.insert(ObjectIdentifier(object)).inserted else { return }
      restores.append(restore)
    }
  }

  /// After a commit: nothing to undo any more.
  func forget() {
    lock.withLock {
      seen = []
      restores = []
    }
  }

  /// After `reset()`: every object goes back to what it was before the batch.
  func restore() {
    let restores = lock.withLock {
      let pending = self.restores
      self.restores = []
      seen = []
      return pending
    }
    for restore in restores.reversed() { restore() }
  }
}
