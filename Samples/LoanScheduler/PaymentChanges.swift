import Foundation
import OpenEventKit
import OpenEventKitApp

/// A payment, by loan number and payment number: the key the app tracks calendar changes by.
struct PaymentKey: Hashable, Comparable {
  var loan: Int64
  var payment: Int

  static func < (lhs: PaymentKey, rhs: PaymentKey) -> Bool {
    (lhs.loan, lhs.payment) < (rhs.loan, rhs.payment)
  }
}

/// What the app knows of a payment's event when it looks: where it is, and how to name the
/// payment in a sentence.
struct PaymentState: Equatable {
  var label: String
  var whereabouts: PaymentFinder.Whereabouts
}

/// The loan domain's side of change tracking (``StoreChanges``): what the calendar
/// shows of each payment, and the sentence for a payment whose event another app changed.
enum PaymentChanges {
  /// Where every payment's event is now. Payments this app took off the calendar (no
  /// recorded identifier) are not tracked.
  static func snapshot(_ database: LoanDatabase, in store: EKEventStore) -> [PaymentKey:
    PaymentState]
  {
    let finder = PaymentFinder(store: store)
    var snapshot: [PaymentKey: PaymentState] = [:]
    for loan in (try? database.loans()) ?? [] {
      let payments = ((try? database.payments(of: loan)) ?? []).filter { $0.eventIdentifier != nil }
      for (payment, whereabouts) in zip(payments, finder.whereabouts(of: payments)) {
        snapshot[PaymentKey(loan: loan.number, payment: payment.number)] = PaymentState(
          label:
            "\(loan.contact)'s payment \(payment.number) of loan \(loan.number) (due \(payment.due))",
          whereabouts: whereabouts)
      }
    }
    return snapshot
  }

  /// The sentence for a payment whose event is not where it was; nil for payments that came
  /// or went with their loan.
  static func sentence(_ change: StoreChanges.Change) -> String? {
    guard let before = change.before, let after = change.after,
      before.whereabouts != after.whereabouts
    else { return nil }
    switch after.whereabouts {
    case .gone: return "\(before.label) was removed from the calendar."
    case .moved(let day, _): return "\(before.label) was moved to \(day) in the calendar."
    case .onItsDay(let title):
      switch before.whereabouts {
      case .gone: return "\(before.label) is back in the calendar."
      case .moved: return "\(before.label) was moved back to its due day in the calendar."
      case .onItsDay: return "\(before.label) was changed in the calendar: now \"\(title)\"."
      }
    }
  }
}
