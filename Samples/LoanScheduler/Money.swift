import Foundation

/// An amount of money in whole cents: exact, so that a schedule's payments add up to the
/// cent. Money never goes through `Double`.
struct Cents: Hashable, Comparable, Codable, CustomStringConvertible {
  var value: Int

  init(_ value: Int) { self.value = value }

  static func < (lhs: Cents, rhs: Cents) -> Bool { lhs.value < rhs.value }

  /// `$1,320.38`.
  var description: String {
    let sign = value < 0 ? "-" : ""
    let units = String(abs(value) / 100)
    var grouped = ""
    for (index, digit) in units.enumerated() {
      if index > 0 && (units.count - index) % 3 == 0 { grouped += "," }
      grouped.append(digit)
    }
    let cents = abs(value) % 100
    return "\(sign)$\(grouped).\(cents < 10 ? "0" : "")\(cents)"
  }

  /// The most a loan may be: a trillion dollars, far below where cents would overflow.
  static let largest = Cents(100_000_000_000_000)

  /// An amount as typed: `1320.38`, `$1,320.38`, `1320`; nil for anything else, including
  /// more than two decimals and a sign.
  init?(parsing text: String) {
    var body = text.trimmingCharacters(in: .whitespaces)
    if body.hasPrefix("$") { body.removeFirst() }
    body = body.replacingOccurrences(of: ",", with: "")
    let parts = body.split(separator: ".", omittingEmptySubsequences: false)
    guard (1...2).contains(parts.count), !parts[0].isEmpty, parts[0].count <= 13,
      parts[0].allSatisfy({ $0.isASCII && $0.isNumber }), let units = Int(parts[0])
    else { return nil }
    var cents = 0
    if parts.count == 2 {
      let fraction = parts[1]
      guard (1...2).contains(fraction.count), fraction.allSatisfy({ $0.isASCII && $0.isNumber }),
        let number = Int(fraction)
      else { return nil }
      cents = fraction.count == 1 ? number * 10 : number
    }
    value = units * 100 + cents
  }
}
