import Foundation
import OpenEventKit

/// Notices what other apps do to the payments' events: it observes `EKEventStoreChanged`,
/// and when the store has changed, compares where each payment's event is with where it was
/// when the app last looked.
///
/// The notification says only that something changed (its `userInfo` is nil), and comes on a
/// background queue about a tenth of a second after a commit, the app's own included. So the
/// observer only raises a flag; the comparison runs on the app's own thread, before the next
/// prompt, against what the app saw after its own last command, which makes its own changes
/// compare equal.
final class CalendarWatcher: @unchecked Sendable {
  /// A payment, by loan number and payment number.
  struct Key: Hashable, Comparable {
    var loan: Int64
    var payment: Int

    static func < (lhs: Key, rhs: Key) -> Bool { (lhs.loan, lhs.payment) < (rhs.loan, rhs.payment) }
  }

  typealias Snapshot = [Key: (label: String, whereabouts: PaymentFinder.Whereabouts)]

  private let lock = NSLock()
  private var storeChanged = false
  private var observer: (any NSObjectProtocol)?
  private var seen: Snapshot = [:]

  init(store: EKEventStore) {
    observer = NotificationCenter.default.addObserver(
      forName: .EKEventStoreChanged, object: store, queue: nil
    ) { [weak self] _ in
      self?.lock.withLock { self?.storeChanged = true }
    }
  }

  deinit {
    if let observer { NotificationCenter.default.removeObserver(observer) }
  }

  /// Records what the app sees now, after its own changes.
  func remember(_ snapshot: Snapshot) {
    seen = snapshot
  }

  /// What changed since the app last looked, a sentence a payment; empty when the store has
  /// not changed. `current` is asked only when it has.
  func changes(current: () -> Snapshot) -> [String] {
    let changed = lock.withLock {
      defer { storeChanged = false }
      return storeChanged
    }
    guard changed else { return [] }
    let now = current()
    defer { seen = now }
    return seen.keys.sorted().compactMap { key in
      guard let before = seen[key], let after = now[key], before.whereabouts != after.whereabouts
      else { return nil }
      switch after.whereabouts {
      case .gone: return "\(before.label) was removed from the calendar."
      case .moved(let day, _): return "\(before.label) was moved to \(day) in the calendar."
      case .onItsDay(let title):
        if case .gone = before.whereabouts { return "\(before.label) is back in the calendar." }
        return "\(before.label) was changed in the calendar: now \"\(title)\"."
      }
    }
  }
}
