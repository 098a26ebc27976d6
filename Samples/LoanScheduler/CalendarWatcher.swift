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
/// compare equal. After each command, the loans it did not touch are compared too.
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

  /// Takes what the app sees after one of its commands as the new reference, and returns
  /// what changed meanwhile among the payments of loans the command did not touch: another
  /// app may have changed those while the command waited for the person (in the editor, say).
  /// The touched loans' differences are the command's own, and are not told.
  func settle(_ now: Snapshot, touchedLoans: Set<Int64>) -> [String] {
    defer { seen = now }
    return differences(to: now).filter { !touchedLoans.contains($0.key.loan) }.map(\.text)
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
    return differences(to: now).map(\.text)
  }

  /// The payments whose events are not where they were, in order, each with its sentence.
  private func differences(to now: Snapshot) -> [(key: Key, text: String)] {
    seen.keys.sorted().compactMap { key in
      guard let before = seen[key], let after = now[key], before.whereabouts != after.whereabouts
      else { return nil }
      switch after.whereabouts {
      case .gone: return (key, "\(before.label) was removed from the calendar.")
      case .moved(let day, _): return (key, "\(before.label) was moved to \(day) in the calendar.")
      case .onItsDay(let title):
        if case .gone = before.whereabouts {
          return (key, "\(before.label) is back in the calendar.")
        }
        return (key, "\(before.label) was changed in the calendar: now \"\(title)\".")
      }
    }
  }
}
