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

/// What the app knows of a payment's event when it looks: where it is, the calendar its
/// identifier found it in (nil when it is gone or found only by title and day), and how to
/// name the payment in a sentence.
struct PaymentState: Equatable {
  var label: String
  var whereabouts: PaymentFinder.Whereabouts
  var calendar: CalendarName?

  /// A calendar, compared by identifier (a rename is no move) and named by title.
  struct CalendarName: Equatable {
    var identifier: String
    var title: String
  }
}

/// The loan domain's side of change tracking (``StoreChanges``): what the calendar
/// shows of each payment, and the sentence for a payment whose event another app changed.
enum PaymentChanges {
  /// Where every payment's event is now, found as `show` finds it: by its recorded identifier,
  /// else by title and due day (another app's "this and future" change gives the later
  /// occurrences a new identifier; they are not gone). Payments this app took off the
  /// calendar (no recorded identifier) are not tracked.
  static func snapshot(_ database: LoanDatabase, in store: EKEventStore) -> [PaymentKey:
    PaymentState]
  {
    var recordedOnce: Set<String>?  // read only when an identifier finds nothing
    let recorded = {
      let identifiers = recordedOnce ?? (try? database.recordedIdentifiers()) ?? []
      recordedOnce = identifiers
      return identifiers
    }
    var snapshot: [PaymentKey: PaymentState] = [:]
    for loan in (try? database.loans()) ?? [] {
      let payments = ((try? database.payments(of: loan)) ?? []).filter { $0.eventIdentifier != nil }
      let titles = payments.map { PaymentSeries.title(contact: loan.contact, amount: $0.amount) }
      let found = PaymentFinder(store: store, loan: loan).whereabouts(
        of: payments, titles: titles, recorded: recorded)
      for (payment, (whereabouts, calendar)) in zip(payments, found) {
        snapshot[PaymentKey(loan: loan.number, payment: payment.number)] = PaymentState(
          label:
            "\(loan.contact)'s payment \(payment.number) of loan \(loan.number) (due \(payment.due))",
          whereabouts: whereabouts,
          calendar: calendar.map {
            PaymentState.CalendarName(identifier: $0.calendarIdentifier, title: $0.title)
          })
      }
    }
    return snapshot
  }

  /// The sentence for a payment whose event is not where it was; nil for payments that came
  /// or went with their loan, and for changes not worth telling (a calendar renamed). `store`
  /// says whether a gone payment's calendar is still there.
  static func sentence(_ change: StoreChanges.Change, in store: EKEventStore?) -> String? {
    guard let before = change.before, let after = change.after else { return nil }
    if case .gone = after.whereabouts {
      guard before.whereabouts != .gone else { return nil }
      if let calendar = before.calendar, let store,
        store.calendar(withIdentifier: calendar.identifier) == nil
      {
        return "\(before.label) is no longer in the calendar: its calendar \"\(calendar.title)\" "
          + "was deleted."
      }
      // Not found by identifier, nor by title and due day: removed, or changed (another app's
      // "this and future" change that also renamed or moved it): the app cannot tell which.
      return "\(before.label) is no longer in the calendar (removed, or changed by another app)."
    }
    var told: [String] = []
    if before.whereabouts != after.whereabouts { told.append(whereabouts(before, after)) }
    // Found by its identifier in another calendar: moved there (a whole series, say).
    if let was = before.calendar, let now = after.calendar, was.identifier != now.identifier {
      told.append("was moved to calendar \"\(now.title)\"")
    }
    return told.isEmpty ? nil : "\(before.label) \(told.joined(separator: ", and "))."
  }

  /// What became of a payment's day or title, `after` not gone.
  private static func whereabouts(_ before: PaymentState, _ after: PaymentState) -> String {
    switch after.whereabouts {
    case .gone: return "is no longer in the calendar"
    case .moved(let day, _): return "was moved to \(day) in the calendar"
    case .onItsDay(let title):
      switch before.whereabouts {
      case .gone: return "is back in the calendar"
      case .moved: return "was moved back to its due day in the calendar"
      case .onItsDay: return "was changed in the calendar: now \"\(title)\""
      }
    }
  }
}
