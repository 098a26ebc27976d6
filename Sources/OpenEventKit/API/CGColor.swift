import Foundation

/// A stand-in for CoreGraphics' `CGColor`, which Linux lacks: an RGBA colour with the members
/// calendar code uses (`EKCalendar.cgColor`).
///
/// An OpenEventKit stand-in, not Apple's type: only these members exist. See
/// <doc:SavingAndBatching>.
public final class CGColor: Hashable, CustomStringConvertible, @unchecked Sendable {
  /// Red, green, blue and alpha, each 0…1. See <doc:SavingAndBatching>.
  public let components: [CGFloat]?

  /// A colour from its components, each clamped to 0…1.
  ///
  /// See <doc:SavingAndBatching>.
  ///
  /// - Parameters:
  ///   - red: The red component.
  ///   - green: The green component.
  ///   - blue: The blue component.
  ///   - alpha: The opacity; a calendar does not keep it.
  ///
  /// ```swift
  /// calendar.cgColor = CGColor(red: 0.2, green: 0.6, blue: 0.9, alpha: 1)
  /// ```
  public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
    components = [red, green, blue, alpha].map { Swift.min(Swift.max($0, 0), 1) }
  }

  /// A grey, with equal red, green and blue.
  ///
  /// See <doc:SavingAndBatching>.
  ///
  /// - Parameters:
  ///   - gray: The brightness, 0 (black) to 1 (white).
  ///   - alpha: The opacity.
  ///
  /// ```swift
  /// let midGray = CGColor(gray: 0.5, alpha: 1)
  /// ```
  public convenience init(gray: CGFloat, alpha: CGFloat) {
    self.init(red: gray, green: gray, blue: gray, alpha: alpha)
  }

  /// Always 4: red, green, blue and alpha. See <doc:SavingAndBatching>.
  public var numberOfComponents: Int { 4 }
  /// The opacity, 0…1. See <doc:SavingAndBatching>.
  public var alpha: CGFloat { components?[3] ?? 1 }

  /// The same colour with another opacity.
  ///
  /// See <doc:SavingAndBatching>.
  ///
  /// - Parameters:
  ///   - alpha: The new opacity.
  /// - Returns: A new colour.
  ///
  /// ```swift
  /// let faded = calendar.cgColor.copy(alpha: 0.5)
  /// ```
  public func copy(alpha: CGFloat) -> CGColor? {
    let c = components ?? [0, 0, 0, 1]
    return CGColor(red: c[0], green: c[1], blue: c[2], alpha: alpha)
  }

  /// Opaque black. See <doc:SavingAndBatching>.
  public static let black = CGColor(gray: 0, alpha: 1)
  /// Opaque white. See <doc:SavingAndBatching>.
  public static let white = CGColor(gray: 1, alpha: 1)
  /// Fully transparent black. See <doc:SavingAndBatching>.
  public static let clear = CGColor(gray: 0, alpha: 0)

  /// Whether two colours have equal components.
  ///
  /// See <doc:SavingAndBatching>.
  ///
  /// - Parameters:
  ///   - lhs: A colour.
  ///   - rhs: Another colour.
  public static func == (lhs: CGColor, rhs: CGColor) -> Bool { lhs.components == rhs.components }
  /// Hashes the components, matching `==`.
  ///
  /// See <doc:SavingAndBatching>.
  ///
  /// - Parameters:
  ///   - hasher: The hasher to feed.
  public func hash(into hasher: inout Hasher) { hasher.combine(components) }

  /// `CGColor(#RRGGBB)`, for debugging.
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
