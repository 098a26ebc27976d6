import Foundation
import GRDB

/// A loan as the app's own database keeps it: who owes, how much, and how it is repaid.
/// The calendar holds its payments; the app keeps what it needs to find them again.
struct Loan: Codable, FetchableRecord, MutablePersistableRecord, Identifiable {
  var id: Int64?
  var contact: String
  var principalCents: Int
  /// The annual interest rate in percent, as typed (`4.5`): a decimal, never a `Double`.
  var annualPercent: String
  var paymentCount: Int
  var frequency: String
  /// The first due date, `2025-03-02`.
  var firstDue: String
  /// Whether each payment is its own event, rather than an occurrence of one repeating event.
  var singleEvents: Bool
  /// The calendar the payments were put in.
  var calendarIdentifier: String?
  /// The calendar database the identifiers belong to: a different one (another user's, or
  /// another `OPENEVENTKIT_HOME`) would make searching for them pointless.
  var eventStoreIdentifier: String?

  static let databaseTableName = "loan"

  mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

  var principal: Cents { Cents(principalCents) }
  var paymentFrequency: PaymentFrequency { PaymentFrequency(parsing: frequency) ?? .monthly }
  var number: Int64 { id ?? 0 }
}

/// One payment of a loan, with the identifier of the calendar event that shows it.
struct Payment: Codable, FetchableRecord, PersistableRecord, Hashable {
  var loanId: Int64
  /// 1 for the first payment.
  var number: Int
  var amountCents: Int
  /// The day it is due, `2025-03-02`.
  var due: String
  var paid: Bool
  /// The `eventIdentifier` of its event. The occurrences of one repeating event share it; a
  /// detached occurrence (the last payment, when its amount differs) has its own. Nil once
  /// the app took the event off the calendar (`delete-payment`, or delete in the editor): the
  /// payment is then neither looked for nor told removed by another app.
  var eventIdentifier: String?

  static let databaseTableName = "payment"

  var amount: Cents { Cents(amountCents) }
}
