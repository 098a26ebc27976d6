import ArgumentParser

// The commands' arguments, read by swift-argument-parser before a command runs; what they
// say (a loan that exists, a day) is the commands' to check.

/// `new [<contact> <amount> <rate> <payments> <frequency> <first-due>] [--single-events]`.
struct NewLoan: ParsableArguments {
  @Argument(help: "Who borrows.") var contact: String?
  @Argument(help: "How much, such as 1320.38.") var amount: String?
  @Argument(help: "The yearly interest rate in percent, such as 0 or 4.5.") var rate: String?
  @Argument(help: "How many payments.") var payments: String?
  @Argument(help: "daily, weekly, monthly, or every 2 weeks (quoted).") var frequency: String?
  @Argument(help: "The first payment's day, such as 2025-03-02.") var firstDue: String?
  @Flag(help: "One event per payment rather than one repeating event.") var singleEvents = false

  /// The terms given: all six, or none (each is then asked for); `LoanTerms` refuses
  /// another count, after ArgumentParser has refused an unknown option (`-5`), which a
  /// `validate()` here would hide.
  var terms: [String] {
    [contact, amount, rate, payments, frequency, firstDue].compactMap { $0 }
  }
}

/// `show <loan>`, `delete <loan>`.
struct LoanNumber: ParsableArguments {
  @Argument(help: "The loan's number, as 'loans' lists them.") var loan: String
}

/// `payment`, `edit`, `pay`: a loan and one of its payments.
struct PaymentNumber: ParsableArguments {
  @Argument(help: "The loan's number, as 'loans' lists them.") var loan: String
  @Argument(help: "The payment's number, from 1.") var n: String
}

/// `delete-payment <loan> <n> [--future]`.
struct DeletePayment: ParsableArguments {
  @OptionGroup var payment: PaymentNumber
  @Flag(help: "The later payments' events too.") var future = false
}

/// `reschedule <loan> <n> <when>`.
struct Reschedule: ParsableArguments {
  @OptionGroup var payment: PaymentNumber
  @Argument(help: "The payment's new day, such as 2025-03-10.") var when: String
}
