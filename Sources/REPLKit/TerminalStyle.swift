import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// How text is decorated: colour and box drawing on a terminal, plain ASCII otherwise, so that
/// piped transcripts and tests read the same everywhere. `NO_COLOR` (https://no-color.org)
/// turns colour off whatever the output is; `TERM=dumb` does too.
///
/// Every decoration gives its text back unchanged when the style does not use it, so views
/// style what they write without testing the style first:
///
/// ```swift
/// let style = TerminalStyle.forOutput(isTerminal: true, environment: ["TERM": "xterm"])
/// style.bold("Monday 3 March 2025")  // "\u{1B}[1mMonday 3 March 2025\u{1B}[0m"
/// TerminalStyle.plain.bold("Monday 3 March 2025")  // "Monday 3 March 2025"
/// style.rule(width: 5)  // "─────"; "-----" in the plain style
/// ```
public struct TerminalStyle: Sendable, Hashable {
  /// Whether text is decorated with ANSI escape sequences (SGR): bold, dim, colours and the
  /// like.
  public var usesColor: Bool
  /// Whether colours may be given as 24-bit RGB (`COLORTERM=truecolor`); otherwise the nearest
  /// of the 256-colour palette is used.
  public var usesTrueColor: Bool
  /// Whether lines and boxes are drawn with Unicode box-drawing characters.
  public var usesBoxDrawing: Bool

  /// A style with each decoration given; ``forStandardOutput(environment:)`` and
  /// ``forOutput(isTerminal:environment:)`` choose them from the output and the environment.
  ///
  /// ```swift
  /// let style = TerminalStyle(usesColor: false, usesBoxDrawing: true)
  /// print(style.rule(width: 3), style.bold("plain"))  // ─── plain
  /// ```
  ///
  /// - Parameters:
  ///   - usesColor: Whether text is decorated with escape sequences.
  ///   - usesTrueColor: Whether colours are given as 24-bit RGB; false (the default) gives
  ///     the nearest of the 256-colour palette. Ignored without `usesColor`.
  ///   - usesBoxDrawing: Whether rules and boxes use Unicode box-drawing characters.
  public init(usesColor: Bool, usesTrueColor: Bool = false, usesBoxDrawing: Bool) {
    self.usesColor = usesColor
    self.usesTrueColor = usesTrueColor
    self.usesBoxDrawing = usesBoxDrawing
  }

  /// No colour, ASCII only: for pipes, files and tests.
  public static let plain = TerminalStyle(usesColor: false, usesBoxDrawing: false)

  /// The style for standard output of this process.
  ///
  /// ```swift
  /// let style = TerminalStyle.forStandardOutput()
  /// print(style.bold("Agenda"))  // bold on a terminal, as it is in a pipe or with NO_COLOR set
  /// ```
  ///
  /// - Parameter environment: Where `NO_COLOR`, `TERM` and `COLORTERM` are read; the
  ///   process's environment by default.
  /// - Returns: What ``forOutput(isTerminal:environment:)`` gives for standard output.
  public static func forStandardOutput(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> TerminalStyle {
    forOutput(isTerminal: isatty(STDOUT_FILENO) != 0, environment: environment)
  }

  /// The style for an output that is, or is not, a terminal, given the environment.
  ///
  /// Not a terminal: ``plain``. A terminal: colour unless `NO_COLOR` is set to a non-empty
  /// value or `TERM` is `dumb`; 24-bit colour when `COLORTERM` is `truecolor` or `24bit`;
  /// box drawing unless `TERM` is `dumb`.
  ///
  /// ```swift
  /// let pipe = TerminalStyle.forOutput(isTerminal: false, environment: ["TERM": "xterm"])
  /// print(pipe == .plain)  // true
  /// let dumb = TerminalStyle.forOutput(isTerminal: true, environment: ["TERM": "dumb"])
  /// print(dumb.usesColor, dumb.usesBoxDrawing)  // false false
  /// ```
  ///
  /// - Parameters:
  ///   - isTerminal: Whether the output is a terminal (`isatty`).
  ///   - environment: Where `NO_COLOR`, `TERM` and `COLORTERM` are read.
  /// - Returns: The style for that output.
  public static func forOutput(isTerminal: Bool, environment: [String: String]) -> TerminalStyle {
    guard isTerminal else { return .plain }
    let noColor = !(environment["NO_COLOR"] ?? "").isEmpty || environment["TERM"] == "dumb"
    let colorTerm = environment["COLORTERM"] ?? ""
    return TerminalStyle(
      usesColor: !noColor, usesTrueColor: colorTerm == "truecolor" || colorTerm == "24bit",
      usesBoxDrawing: environment["TERM"] != "dumb")
  }

  // MARK: Text

  /// Bold text: titles and headings.
  ///
  /// ```swift
  /// let style = TerminalStyle(usesColor: true, usesBoxDrawing: true)
  /// print(style.bold("Today") == "\u{1B}[1mToday\u{1B}[0m")  // true
  /// print(TerminalStyle.plain.bold("Today"))  // Today
  /// ```
  ///
  /// - Parameter text: The text to decorate.
  /// - Returns: The text between the escape sequences that start and end bold, or the text
  ///   unchanged without colour (or when it is empty).
  public func bold(_ text: String) -> String { sgr("1", text) }
  /// Dim (faint) text: labels, hints and what matters less.
  ///
  /// ```swift
  /// console.print(console.style.dim("(no events)"))
  /// ```
  ///
  /// - Parameter text: The text to decorate.
  /// - Returns: The text dimmed, or unchanged without colour (or when it is empty).
  public func dim(_ text: String) -> String { sgr("2", text) }
  /// Underlined text.
  ///
  /// ```swift
  /// console.print(console.style.underline("March 2025"))
  /// ```
  ///
  /// - Parameter text: The text to decorate.
  /// - Returns: The text underlined, or unchanged without colour (or when it is empty).
  public func underline(_ text: String) -> String { sgr("4", text) }
  /// Text in the terminal's red (its palette's colour 1).
  ///
  /// ```swift
  /// console.print(console.style.red("overdue") + " Pay the rent")
  /// ```
  ///
  /// - Parameter text: The text to decorate.
  /// - Returns: The text in red, or unchanged without colour (or when it is empty).
  public func red(_ text: String) -> String { sgr("31", text) }
  /// Text in the terminal's green (its palette's colour 2).
  ///
  /// ```swift
  /// console.print(console.style.green("✓") + " Saved.")
  /// ```
  ///
  /// - Parameter text: The text to decorate.
  /// - Returns: The text in green, or unchanged without colour (or when it is empty).
  public func green(_ text: String) -> String { sgr("32", text) }
  /// Text in the terminal's yellow (its palette's colour 3).
  ///
  /// ```swift
  /// console.print(console.style.yellow("tentative") + " Team lunch")
  /// ```
  ///
  /// - Parameter text: The text to decorate.
  /// - Returns: The text in yellow, or unchanged without colour (or when it is empty).
  public func yellow(_ text: String) -> String { sgr("33", text) }
  /// Reverse video: how the month grid marks today.
  ///
  /// ```swift
  /// let style = TerminalStyle(usesColor: true, usesBoxDrawing: true)
  /// print(style.inverse("14") == "\u{1B}[7m14\u{1B}[0m")  // true: today in the month grid
  /// ```
  ///
  /// - Parameter text: The text to decorate.
  /// - Returns: The text in reverse video, or unchanged without colour (or when it is
  ///   empty).
  public func inverse(_ text: String) -> String { sgr("7", text) }

  /// Text in a colour given by its red, green and blue components (0…1).
  ///
  /// A calendar's colour, say: `calendar.cgColor?.components` gives them.
  ///
  /// ```swift
  /// let style = TerminalStyle(usesColor: true, usesTrueColor: true, usesBoxDrawing: true)
  /// let orange = style.colored("Work", red: 1, green: 0.5, blue: 0)
  /// print(orange == "\u{1B}[38;2;255;128;0mWork\u{1B}[0m")  // true
  /// print(TerminalStyle.plain.colored("Work", red: 1, green: 0.5, blue: 0))  // Work
  /// ```
  ///
  /// - Parameters:
  ///   - text: The text to colour.
  ///   - red: The red component, from 0 to 1; values outside are clamped.
  ///   - green: The green component, from 0 to 1.
  ///   - blue: The blue component, from 0 to 1.
  /// - Returns: The text in that colour (24-bit with ``usesTrueColor``, else the nearest of
  ///   the 256-colour palette's colour cube), or unchanged without colour.
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
  ///
  /// ```swift
  /// console.print(style.swatch(red: 0.2, green: 0.5, blue: 0.9) + "Work")
  /// ```
  ///
  /// - Parameters:
  ///   - red: The red component, from 0 to 1.
  ///   - green: The green component, from 0 to 1.
  ///   - blue: The blue component, from 0 to 1.
  /// - Returns: `●` in that colour followed by a space, or an empty string without colour.
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
  ///
  /// ```swift
  /// print(TerminalStyle(usesColor: false, usesBoxDrawing: true).rule(width: 4))  // ────
  /// print(TerminalStyle.plain.rule(width: 4))  // ----
  /// print(TerminalStyle.plain.rule(width: -1).isEmpty)  // true
  /// ```
  ///
  /// - Parameter width: The number of columns; 0 or less gives an empty string.
  /// - Returns: `─` repeated with box drawing, `-` repeated otherwise.
  public func rule(width: Int) -> String {
    String(repeating: usesBoxDrawing ? "─" : "-", count: max(0, width))
  }

  /// The characters a box is drawn with: corners, edges and the joints of a table.
  public var box: Box { usesBoxDrawing ? .unicode : .ascii }

  /// The characters a box is drawn with, each a one-column string: Unicode's box-drawing
  /// characters (`┌─┐`), or ASCII (`+-+`) where every corner and joint is `+`.
  ///
  /// ```swift
  /// let box = style.box
  /// let top = box.topLeft + String(repeating: box.horizontal, count: 8) + box.topRight
  /// let middle = box.vertical + "Calendar" + box.vertical
  /// let bottom = box.bottomLeft + String(repeating: box.horizontal, count: 8) + box.bottomRight
  /// ```
  public struct Box: Sendable, Hashable {
    /// The horizontal edge (`─` or `-`) and the vertical one (`│` or `|`).
    public let horizontal, vertical: String
    /// The corners: `┌`, `┐`, `└`, `┘` (all `+` in ASCII).
    public let topLeft, topRight, bottomLeft, bottomRight: String
    /// Where a horizontal line inside the box meets its left edge (`├`) and its right
    /// edge (`┤`), as between a table's header and rows (`+` in ASCII).
    public let leftJoint, rightJoint: String

    static let unicode = Box(
      horizontal: "─", vertical: "│", topLeft: "┌", topRight: "┐", bottomLeft: "└",
      bottomRight: "┘", leftJoint: "├", rightJoint: "┤")
    static let ascii = Box(
      horizontal: "-", vertical: "|", topLeft: "+", topRight: "+", bottomLeft: "+",
      bottomRight: "+", leftJoint: "+", rightJoint: "+")
  }
}
