import Foundation

/// The amounts of a loan's payments: an amortised loan's level payment, rounded to the cent,
/// and a last payment that settles exactly what remains, so it may differ by a few cents
/// (1,320.38 over 3 payments without interest: 440.13, 440.13 and 440.12).
///
/// Interest is computed in `Decimal`, a decimal type, and each period's interest is rounded
/// to the cent as a lender's books would be; amounts are whole `Cents` throughout.
enum Amortization {
  /// The payments, first to last; nil when whole cents cannot repay the loan that way (a
  /// payment, or what is left for the last one, would be under a cent).
  static func payments(
    principal: Cents, annualPercent: Decimal, count: Int, frequency: PaymentFrequency
  ) -> [Cents]? {
    guard count >= 1, principal.value > 0 else { return nil }
    let perYear = frequency.paymentsPerYear
    // The rate of one period: the annual rate spread over the year's payments.
    let rate = annualPercent / 100 * Decimal(perYear.denominator) / Decimal(perYear.numerator)
    let amount = Decimal(principal.value)
    let level: Int
    if rate == 0 {
      level = rounded(amount / Decimal(count))
    } else {
      // P·r·(1+r)ⁿ / ((1+r)ⁿ − 1): the payment that repays P with interest in n periods.
      var growth = Decimal(1)
      for _ in 0..<count { growth *= 1 + rate }
      guard !growth.isNaN else { return nil }
      level = rounded(amount * rate * growth / (growth - 1))
    }
    var balance = principal.value
    for _ in 1..<count {
      balance += rounded(Decimal(balance) * rate) - level
    }
    let last = balance + rounded(Decimal(balance) * rate)
    guard level > 0, last > 0 else { return nil }
    return Array(repeating: Cents(level), count: count - 1) + [Cents(last)]
  }

  /// To the nearest whole cent, halves away from zero.
  private static func rounded(_ value: Decimal) -> Int {
    var value = value
    var result = Decimal()
    NSDecimalRound(&result, &value, 0, .plain)
    return NSDecimalNumber(decimal: result).intValue
  }
}
