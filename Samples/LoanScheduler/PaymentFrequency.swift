import OpenEventKit

/// How often a loan is paid, as a person says it.
enum PaymentFrequency: Hashable {
  case daily
  case everyDays(Int)
  case weekly
  case biweekly
  case monthly

  /// The frequency in EventKit's terms: a unit and how many of them between payments.
  /// This is the whole translation from the app's words to a recurrence rule.
  var recurrence: (frequency: EKRecurrenceFrequency, interval: Int) {
    switch self {
    case .daily: (.daily, 1)
    case .everyDays(let days): (.daily, days)
    case .weekly: (.weekly, 1)
    case .biweekly: (.weekly, 2)
    case .monthly: (.monthly, 1)
    }
  }

  /// Payments in a year, as the interest rate per payment counts them (365 days, 52 weeks or
  /// 12 months a year), as a fraction: payments = numerator / denominator.
  var paymentsPerYear: (numerator: Int, denominator: Int) {
    let (frequency, interval) = recurrence
    switch frequency {
    case .daily: return (365, interval)
    case .weekly: return (52, interval)
    case .monthly: return (12, interval)
    case .yearly: return (1, interval)
    }
  }

  /// `daily`, `every 3 days` (also `every-3-days` and `3 days`), `weekly`, `biweekly`
  /// (`fortnightly`, `every 2 weeks`), `monthly`.
  init?(parsing text: String) {
    let words = text.lowercased().split(whereSeparator: { $0 == " " || $0 == "-" }).map(String.init)
    let counted = words.first == "every" ? Array(words.dropFirst()) : words
    switch counted {
    case ["daily"], ["day"]: self = .daily
    case ["weekly"], ["week"]: self = .weekly
    case ["biweekly"], ["fortnightly"], ["2", "weeks"]: self = .biweekly
    case ["monthly"], ["month"]: self = .monthly
    default:
      guard counted.count == 2, counted[1] == "days" || counted[1] == "day",
        let days = Int(counted[0]), (1...365).contains(days)
      else { return nil }
      self = days == 1 ? .daily : .everyDays(days)
    }
  }

  /// The words the app shows and keeps in its database: `daily`, `every 3 days`, ….
  var text: String {
    switch self {
    case .daily: "daily"
    case .everyDays(let days): "every \(days) days"
    case .weekly: "weekly"
    case .biweekly: "biweekly"
    case .monthly: "monthly"
    }
  }

  /// How many payments at this frequency, as a sentence says it: "3 monthly payments",
  /// "1 daily payment", "3 payments every 3 days".
  func payments(_ count: Int) -> String {
    let noun = count == 1 ? "payment" : "payments"
    if case .everyDays = self { return "\(count) \(noun) \(text)" }
    return "\(count) \(text) \(noun)"
  }

  static let help = "daily, every N days, weekly, biweekly or monthly"
}
