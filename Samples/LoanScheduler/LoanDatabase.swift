import Foundation
import GRDB
import OpenEventKitApp

/// The loans and their payments, in the app's own database (`loans.sqlite` in its data
/// folder, the kit's ``AppDatabase``), apart from the calendar store: the calendar shows
/// payments, the app owns them.
final class LoanDatabase: Sendable {
  private let queue: DatabaseQueue

  init(_ database: AppDatabase) {
    queue = database.queue
  }

  /// The tables, for ``AppDatabase``. (Databases made before the kit also have the `setting`
  /// table this migration used to make; the kit's migration makes it for new ones.)
  static func registerMigrations(_ migrator: inout DatabaseMigrator) {
    migrator.registerMigration("loans and payments") { db in
      try db.create(table: "loan") { table in
        table.autoIncrementedPrimaryKey("id")
        table.column("contact", .text).notNull()
        table.column("principalCents", .integer).notNull()
        table.column("annualPercent", .text).notNull()
        table.column("paymentCount", .integer).notNull()
        table.column("frequency", .text).notNull()
        table.column("firstDue", .text).notNull()
        table.column("singleEvents", .boolean).notNull()
        table.column("calendarIdentifier", .text)
        table.column("eventStoreIdentifier", .text)
      }
      try db.create(table: "payment") { table in
        table.column("loanId", .integer).notNull()
          .references("loan", onDelete: .cascade)
        table.column("number", .integer).notNull()
        table.column("amountCents", .integer).notNull()
        table.column("due", .text).notNull()
        table.column("paid", .boolean).notNull().defaults(to: false)
        table.column("eventIdentifier", .text)
        table.primaryKey(["loanId", "number"])
      }
    }
  }

  func loans() throws -> [Loan] {
    try queue.read { db in try Loan.order(Column("id")).fetchAll(db) }
  }

  /// The loan a person names: by its number, or by its contact when only one loan has it.
  func loan(named reference: String) throws -> Loan {
    let all = try loans()
    if let number = Int64(reference), let loan = all.first(where: { $0.id == number }) {
      return loan
    }
    let byContact = all.filter { $0.contact.lowercased() == reference.lowercased() }
    if byContact.count == 1 { return byContact[0] }
    if byContact.count > 1 {
      throw LoanError(
        "\(byContact.count) loans are to \(reference); name one by its number: "
          + byContact.map { "\($0.number)" }.joined(separator: ", "))
    }
    throw LoanError("there is no loan '\(reference)'; 'loans' lists them")
  }

  func payments(of loan: Loan) throws -> [Payment] {
    try queue.read { db in
      try Payment.filter(Column("loanId") == loan.id).order(Column("number")).fetchAll(db)
    }
  }

  /// Every event identifier a payment has recorded.
  func recordedIdentifiers() throws -> Set<String> {
    try queue.read { db in
      try Set(
        String.fetchAll(
          db, sql: "SELECT DISTINCT eventIdentifier FROM payment WHERE eventIdentifier IS NOT NULL")
      )
    }
  }

  /// Saves a new loan and its payments together, and marks the work that put them on the
  /// calendar done in the same transaction.
  func insert(_ loan: Loan, payments: [Payment], finishing work: CalendarWork?) throws -> Loan {
    try queue.write { db in
      var loan = loan
      try loan.insert(db)
      for var payment in payments {
        payment.loanId = loan.number
        try payment.insert(db)
      }
      try work?.finish(db)
      return loan
    }
  }

  func update(_ loan: Loan) throws {
    try queue.write { db in try loan.update(db) }
  }

  /// Saves what the command changed in `payments`, the same payments as it read them (`read`):
  /// only the columns that differ (GRDB's `updateChanges`), so that another process's change
  /// meanwhile to anything else (a `delete-payment` run at the same time) is kept.
  func update(_ payments: [Payment], readAs read: [Payment]) throws {
    try queue.write { db in
      for (payment, before) in zip(payments, read) {
        try payment.updateChanges(db, from: before)
      }
    }
  }

  /// Deletes a loan and its payments (ON DELETE CASCADE), in the transaction that begins the
  /// work of removing its events.
  static func delete(_ loan: Loan, in db: Database) throws {
    _ = try Loan.deleteOne(db, id: loan.id)
  }
}
