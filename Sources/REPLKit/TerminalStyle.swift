import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// How text is decorated: colour and box drawing on a terminal, plain ASCII otherwise, so that
/// piped transcripts and tests read the same everywhere. `NO_COLOR` (https://no-color.org)
/// turns colour off whatever the output is; `TERM=dumb` does too.
public struct TerminalStyle: Sendable, Hashable {
  public var usesColor: Bool
  /// Whether colours may be given as 24-bit RGB (`COLORTERM=truecolor`); otherwise the nearest
  /// of the 256-colour palette is used.
  public var usesTrueColor: Bool
  /// Whether lines and boxes are drawn with Unicode box-drawing characters.
  public var usesBoxDrawing: Bool

  public init(usesColor: Bool, usesTrueColor: Bool = false, usesBoxDrawing: Bool) {
    self.usesColor = usesColor
    self.usesTrueColor = usesTrueColor
    self.usesBoxDrawing = usesBoxDrawing
  }

  /// No colour, ASCII only: for pipes, files and tests.
  public static let plain = TerminalStyle(usesColor: false, usesBoxDrawing: false)

  /// The style for standard output of this process.
  public static func forStandardOutput(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> TerminalStyle {
    forOutput(isTerminal: isatty(STDOUT_FILENO) != 0, environment: environment)
  }

  /// The style for an output that is, or is not, a terminal, given the environment.
  public static func forOutput(isTerminal: Bool, environment: [String: String]) -> TerminalStyle {
    guard isTerminal else { return .plain }
    let noColor = !(environment["NO_COLOR"] ?? "").isEmpty || environment["TERM"] == "dumb"
    let colorTerm = environment["COLORTERM"] ?? ""
    return TerminalStyle(
      usesColor: !noColor, usesTrueColor: colorTerm == "truecolor" || colorTerm == "24bit",
      usesBoxDrawing: environment["TERM"] != "dumb")
  }

  // MARK: Text

  public func bold(_ text: String) -> String { sgr("1", text) }
  public func dim(_ text: String) -> String { sgr("2", text) }
  public func underline(_ text: String) -> String { sgr("4", text) }
  public func red(_ text: String) -> String { sgr("31", text) }
  public func green(_ text: String) -> String { sgr("32", text) }
  public func yellow(_ text: String) -> String { sgr("33", text) }
  /// Reverse video: how the month grid marks today.
  public func inverse(_ text: String) -> String { sgr("7", text) }

  /// Text in a colour given by its red, green and blue components (0…1).
  public func colored(_ text: String, red: Double, green: Double, blue: Double) -> String {
    guard usesColor else { return text }
    let r = TerminalStyle.byte(red)
    let g = TerminalStyle.byte(green)
    let b = TerminalStyle.byte(blue)
    if usesTrueColor { return sgr("38;2;\(r);\(g);\(b)", text) }
    // The 6×6×6 cube of the 256-colour palette: indexes 16…231.
    let level = { (value: Int) in (value * 5 + 127) / 255 }
    return sgr("38;5;\(16 + 36 * level(r) + 6 * level(g) + level(b))", text)
  }

  /// A dot in a colour, before a name, on a colour terminal; nothing otherwise.
  public func swatch(red: Double, green: Double, blue: Double) -> String {
    usesColor ? colored("●", red: red, green: green, blue: blue) + " " : ""
  }

  private func sgr(_ code: String, _ text: String) -> String {
    usesColor && !text.isEmpty ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }

  private static func byte(_ component: Double) -> Int {
    Int((min(max(component, 0), 1) * 255).rounded())
  }

  // MARK: Lines and boxes

  /// A horizontal rule `width` columns wide.
  public func rule(width: Int) -> String {
    String(repeating: usesBoxDrawing ? "─" : "-", count: max(0, width))
  }

  /// The characters a box is drawn with: corners, edges and the joints of a table.
  public var box: Box { usesBoxDrawing ? .unicode : .ascii }

  public struct Box: Sendable, Hashable {
    public let horizontal, vertical: String
    public let topLeft, topRight, bottomLeft, bottomRight: String
    public let leftJoint, rightJoint: String

    static let unicode = Box(
      horizontal: "─", vertical: "│", topLeft: "┌", topRight: "┐", bottomLeft: "└",
      bottomRight: "┘", leftJoint: "├", rightJoint: "┤")
    static let ascii = Box(
      horizontal: "-", vertical: "|", topLeft: "+", topRight: "+", bottomLeft: "+",
      bottomRight: "+", leftJoint: "+", rightJoint: "+")
  }
}
