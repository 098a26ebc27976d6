import Foundation
import OpenEventKit

/// Writing a shopping list's items: in one commit (`shop`), or one commit per item
/// (`shop --no-batch`, there to compare with). What the batch buys is not speed: see
/// RecipeReminders.md's "One batch, one commit" and docs/PERFORMANCE.md's "Batching (issue
/// 43)".
struct ShoppingBatch {
  /// The store both write to.
  let store: EKEventStore

  // MARK: pattern batch

  /// `commit: false` checks each reminder and stages it in this store object; one `commit()`
  /// writes them all, and other apps are told with one `EKEventStoreChanged`. In OpenEventKit
  /// the commit is one transaction: another app sees none of the list or all of it, and a
  /// failed commit wrote nothing; Apple does not document that, so after a failure fetch
  /// again rather than assume either. `reset()` drops the staged reminders: without it, in
  /// OpenEventKit, the next `commit()` would try them again. On Apple's platforms it also
  /// invalidates every object from this store, so fetch again after it. (What it does to
  /// speed depends on the disk: RecipeReminders.md.)
  func saveAll(_ reminders: [EKReminder]) throws {
    do {
      for reminder in reminders {
        try store.save(reminder, commit: false)
      }
      try store.commit()
    } catch {
      store.reset()
      throw error
    }
  }

  // MARK: pattern one-by-one

  /// Each reminder committed on its own: another app may see a part of the list, and a
  /// failure leaves the items before it written (`saved` was told of each).
  func saveOneByOne(_ reminders: [EKReminder], saved: (EKReminder) -> Void) throws {
    for reminder in reminders {
      try store.save(reminder, commit: true)
      saved(reminder)
    }
  }

  // MARK: -
}
