import Foundation

/// A stand-in for CoreGraphics' `CGColor`, which Linux lacks: an RGBA colour with the members
/// calendar code uses (`EKCalendar.cgColor`).
public final class CGColor: Hashable, CustomStringConvertible, @unchecked Sendable {
  /// Red, green, blue and alpha, each 0…1.
  public let components: [CGFloat]?

  public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
    components = [red, green, blue, alpha].map { Swift.min(Swift.max($0, 0), 1) }
  }

  public convenience init(gray: CGFloat, alpha: CGFloat) {
    self.init(red: gray, green: gray, blue: gray, alpha: alpha)
  }

  public var numberOfComponents: Int { 4 }
  public var alpha: CGFloat { components?[3] ?? 1 }

  public func copy(alpha: CGFloat) -> CGColor? {
    let c = components ?? [0, 0, 0, 1]
    return CGColor(red: c[0], green: c[1], blue: c[2], alpha: alpha)
  }

  public static let black = CGColor(gray: 0, alpha: 1)
  public static let white = CGColor(gray: 1, alpha: 1)
  public static let clear = CGColor(gray: 0, alpha: 0)

  public static func == (lhs: CGColor, rhs: CGColor) -> Bool { lhs.components == rhs.components }
  public func hash(into hasher: inout Hasher) { hasher.combine(components) }

  public var description: String { "CGColor(\(hexString))" }

  /// `#RRGGBB`, as the store keeps calendar colours (alpha is not kept).
  var hexString: String {
    let c = components ?? [0, 0, 0, 1]
    let bytes = c.prefix(3).map { Int(($0 * 255).rounded()) }
    return "#" + bytes.map { String(format: "%02X", $0) }.joined()
  }

  /// A colour from `#RRGGBB`, nil when the text is not one.
  convenience init?(hexString text: String) {
    guard text.count == 7, text.first == "#", let value = Int(text.dropFirst(), radix: 16) else {
      return nil
    }
    self.init(
      red: CGFloat((value >> 16) & 0xFF) / 255, green: CGFloat((value >> 8) & 0xFF) / 255,
      blue: CGFloat(value & 0xFF) / 255, alpha: 1)
  }
}
