import Foundation

/// What a new loan is made of, each part read and checked from what a person typed, with a
/// message that says what was expected. Nothing is saved until every part is right.
struct LoanTerms {
  var contact: String
  var principal: Cents
  var annualPercent: Decimal
  var paymentCount: Int
  var frequency: PaymentFrequency
  var firstDue: Date

  static let largestPaymentCount = 1000

  /// The terms from `new`'s arguments: CONTACT AMOUNT RATE PAYMENTS FREQUENCY FIRST-DUE.
  init(arguments: [String], now: Date) throws(LoanError) {
    guard arguments.count == 6 else {
      throw LoanError(
        "a loan's terms are six: CONTACT AMOUNT RATE PAYMENTS FREQUENCY FIRST-DUE, or none to be "
          + "asked for each")
    }
    try self.init(
      contact: Self.contact(arguments[0]), principal: Self.amount(arguments[1]),
      annualPercent: Self.rate(arguments[2]), paymentCount: Self.paymentCount(arguments[3]),
      frequency: Self.frequency(arguments[4]), firstDue: Self.firstDue(arguments[5], now: now))
  }

  init(
    contact: String, principal: Cents, annualPercent: Decimal, paymentCount: Int,
    frequency: PaymentFrequency, firstDue: Date
  ) throws(LoanError) {
    self.contact = contact
    self.principal = principal
    self.annualPercent = annualPercent
    self.paymentCount = paymentCount
    self.frequency = frequency
    self.firstDue = firstDue
    try Self.checkMonthly(frequency, firstDue: firstDue)
    let lastDue = DueDay.adding(paymentCount - 1, of: frequency, to: firstDue)
    guard let limit = DueDay.calendar.date(byAdding: .year, value: Self.longestYears, to: firstDue),
      lastDue < limit
    else {
      throw LoanError(
        "a loan may run \(Self.longestYears) years at most; this one would end on "
          + DueDay.day(lastDue))
    }
  }

  /// The payments' amounts (``Amortization``), or why whole cents cannot make them.
  func amounts() throws(LoanError) -> [Cents] {
    guard
      let amounts = Amortization.payments(
        principal: principal, annualPercent: annualPercent, count: paymentCount,
        frequency: frequency)
    else {
      throw LoanError(
        "\(principal) cannot be repaid in whole cents over \(paymentCount) payments (each "
          + "would come to about a cent or less); give fewer payments")
    }
    return amounts
  }

  /// How long a loan may run: a lifetime, and far inside what the calendar's dates can hold.
  static let longestYears = 100

  static func contact(_ text: String) throws(LoanError) -> String {
    let name = text.trimmingCharacters(in: .whitespaces)
    guard !name.isEmpty else { throw LoanError("give the name of the person who owes") }
    return name
  }

  static func amount(_ text: String) throws(LoanError) -> Cents {
    guard let amount = Cents(parsing: text) else {
      throw LoanError("'\(text)' is not an amount; give one such as 1320.38 (no sign)")
    }
    guard amount.value > 0, amount <= Cents.largest else {
      throw LoanError("the amount must be more than $0.00 and at most \(Cents.largest)")
    }
    return amount
  }

  /// An annual rate in percent: `0`, `4.5`, `4.5%`; from 0 to 100.
  static func rate(_ text: String) throws(LoanError) -> Decimal {
    let body = text.hasSuffix("%") ? String(text.dropLast()) : text
    guard !body.isEmpty, body.allSatisfy({ ($0.isASCII && $0.isNumber) || $0 == "." }),
      body.filter({ $0 == "." }).count <= 1, body != ".",
      let rate = Decimal(string: body, locale: Locale(identifier: "en_US_POSIX")),
      rate <= 100
    else {
      throw LoanError(
        "'\(text)' is not an interest rate; give a yearly percentage from 0 to 100, such as 4.5")
    }
    return rate
  }

  static func paymentCount(_ text: String) throws(LoanError) -> Int {
    guard let count = Int(text), (1...largestPaymentCount).contains(count) else {
      throw LoanError(
        "the number of payments must be a whole number from 1 to \(largestPaymentCount)")
    }
    return count
  }

  static func frequency(_ text: String) throws(LoanError) -> PaymentFrequency {
    guard let frequency = PaymentFrequency(parsing: text) else {
      throw LoanError("'\(text)' is not a frequency; say \(PaymentFrequency.help)")
    }
    return frequency
  }

  /// `2025-03-02`, `today` or `tomorrow`; `what` names the date in the message for one out of
  /// range.
  static func firstDue(
    _ text: String, now: Date, as what: String = "a first due date"
  ) throws(LoanError) -> Date {
    switch text.lowercased() {
    case "today": return DueDay.calendar.startOfDay(for: now)
    case "tomorrow": return DueDay.nextDay(now)
    default:
      guard let day = DueDay.date(text) else {
        throw LoanError(
          "'\(text)' is not a date; give one such as 2025-03-02, or today or tomorrow")
      }
      guard (1900...2900).contains(DueDay.calendar.component(.year, from: day)) else {
        throw LoanError(
          "give \(what) between the years 1900 and 2900; \(text) is outside them")
      }
      return day
    }
  }

  /// A monthly rule repeats on the first due date's day of the month, and RFC 5545 skips the
  /// months without that day: a loan from 31 January would have no payment in February.
  static func checkMonthly(_ frequency: PaymentFrequency, firstDue: Date) throws(LoanError) {
    guard frequency == .monthly else { return }
    let day = DueDay.calendar.component(.day, from: firstDue)
    guard day <= 28 else {
      throw LoanError(
        "monthly payments need a first due date from the 1st to the 28th: a calendar repeating "
          + "on the \(day == 31 ? "31st" : "\(day)th") skips the months that have no such day")
    }
  }
}
