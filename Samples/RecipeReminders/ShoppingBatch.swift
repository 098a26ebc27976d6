import Foundation
import OpenEventKit

/// Writing a shopping list's items: in one commit (`shop`), or one commit per item
/// (`shop --no-batch`, there to compare with). What the batch buys is not speed: see the
/// article's "One batch, one commit" and docs/PERFORMANCE.md's "Batching (issue 43)".
struct ShoppingBatch {
  // MARK: pattern batch

  /// Saves every reminder with `commit: false`, which checks it and stages it in this store
  /// object, then writes them all with one `commit()`, one transaction. So another app sees
  /// none of the items or all of them, never a part; it is told once (one
  /// `EKEventStoreChanged`); and a failure has one place. When the commit fails (another app
  /// deleted the list meanwhile), nothing of the batch was written, and `reset()` drops the
  /// staged reminders: otherwise they stay pending, and the next `commit()` tries them again.
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

  /// Saves and commits each reminder on its own: another app may see a part of the list, is
  /// told of each commit that is not close to the one before, and a failure leaves the
  /// items before it written, which `saved` has been told of.
  func saveOneByOne(_ reminders: [EKReminder], saved: (EKReminder) -> Void) throws {
    for reminder in reminders {
      try store.save(reminder, commit: true)
      saved(reminder)
    }
  }

  // MARK: The store both write to

  let store: EKEventStore
}
