/// How many terminal columns text takes, for lining text up in columns: the one measure that
/// every table and padded column uses.
///
/// A `String`'s `count` is its number of characters, and Foundation's `padding(toLength:)`
/// counts UTF-16 code units; neither is what a terminal shows. An ideograph or an emoji takes
/// two columns, an accent combined with its letter none, so a table padded by either measure
/// is ragged, and `padding(toLength:)` even cuts off the end of a cell with an emoji in it
/// (`Zoë 🃏 Ørsted` became `Zoë 🃏 Ørste`).
///
/// Widths are measured per character (grapheme cluster), as terminals draw them, following
/// `wcwidth` and Unicode's East Asian Width:
///
/// - 2 for a character whose first scalar is East Asian Wide or Fullwidth (CJK ideographs,
///   kana, Hangul, fullwidth forms) or an emoji shown as one: a scalar whose default is emoji
///   presentation, a scalar followed by U+FE0F, a pair of regional indicators (a flag), or a
///   zero-width-joiner sequence of emoji (one glyph);
/// - 0 for a control character, and for combining marks and other zero-width scalars
///   (general categories Mn, Me and Cf, U+200B...U+200F, variation selectors) that stand
///   alone; after a letter they are part of its character, which keeps the letter's width;
/// - 1 for anything else.
///
/// Terminal escape sequences (CSI, such as the colours of ``TerminalStyle``) take no columns.
/// Data (a title, a calendar's name) is measured in the form it is shown in, its inert form
/// (``InertText/of(_:)``), where an escape takes the columns of its `\u{…}`.
///
/// ```swift
/// DisplayWidth.width(of: "Zoë 🃏 Ørsted")  // 13: the joker takes two columns
/// DisplayWidth.width(of: "日本語")          // 6
/// DisplayWidth.width(of: "e\u{301}")       // 1: e and its combining acute accent
/// DisplayWidth.padded("日本", to: 6) + "|"  // "日本  |"
/// ```
public enum DisplayWidth {
  /// The columns `text` takes on a terminal.
  ///
  /// ```swift
  /// DisplayWidth.width(of: "Gâteau 🍰 d'été")  // 15
  /// DisplayWidth.width(of: "🇫🇷")              // 2: one flag
  /// DisplayWidth.width(of: "\u{1B}[1mbold\u{1B}[0m")  // 4: the escapes take none
  /// ```
  ///
  /// - Parameter text: The text, on one line.
  /// - Returns: The sum of its characters' widths (each 0, 1 or 2), escape
  ///   sequences left out.
  public static func width(of text: some StringProtocol) -> Int {
    var total = 0
    var escape = Escape.none
    for character in text {
      switch escape {
      case .started:
        escape = character == "[" ? .inControlSequence : .none
        if escape == .inControlSequence { continue }
      case .inControlSequence:
        // Parameters and intermediates run up to a final byte in @...~.
        if let scalar = character.unicodeScalars.first, (0x40...0x7E).contains(scalar.value) {
          escape = .none
        }
        continue
      case .none:
        break
      }
      if character == "\u{1B}" {
        escape = .started
        continue
      }
      total += width(of: character)
    }
    return total
  }

  /// The columns one character (grapheme cluster) takes on a terminal: 0, 1 or 2.
  ///
  /// ```swift
  /// DisplayWidth.width(of: Character("❤️"))  // 2: U+2764 with U+FE0F
  /// DisplayWidth.width(of: Character("❤"))   // 1: U+2764 alone is shown as text
  /// DisplayWidth.width(of: Character("\t"))  // 0: a control character
  /// ```
  ///
  /// - Parameter character: The character.
  /// - Returns: Its width, by the rules in ``DisplayWidth``.
  public static func width(of character: Character) -> Int {
    let scalars = character.unicodeScalars
    guard let first = scalars.first, first.properties.generalCategory != .control else {
      return 0
    }
    if scalars.allSatisfy(isZeroWidth) { return 0 }
    if isWide(first) || first.properties.isEmojiPresentation || scalars.contains("\u{FE0F}") {
      return 2
    }
    if scalars.contains("\u{200D}"),
      scalars.contains(where: { $0.properties.isEmoji && !$0.isASCII })
    {
      return 2
    }
    return 1
  }

  /// `text` followed by as many spaces as bring it to `width` columns: a left-aligned cell.
  /// Text already as wide or wider is returned whole, never cut.
  ///
  /// ```swift
  /// DisplayWidth.padded("🍰", to: 4) + "|"   // "🍰  |"
  /// DisplayWidth.padded("Gâteau", to: 3)     // "Gâteau"
  /// ```
  ///
  /// - Parameters:
  ///   - text: The cell's text.
  ///   - width: The column's width, in terminal columns.
  /// - Returns: The text, padded on the right with spaces.
  public static func padded(_ text: String, to width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - self.width(of: text)))
  }

  private enum Escape {
    case none, started, inControlSequence
  }

  private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format: return true
    default: return (0x200B...0x200F).contains(scalar.value)
    }
  }

  /// Whether the scalar is East Asian Wide (W) or Fullwidth (F).
  private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    guard value >= wideRanges[0].lowerBound else { return false }
    var low = 0
    var high = wideRanges.count - 1
    while low <= high {
      let middle = (low + high) / 2
      if value < wideRanges[middle].lowerBound {
        high = middle - 1
      } else if value > wideRanges[middle].upperBound {
        low = middle + 1
      } else {
        return true
      }
    }
    return false
  }

  /// The scalars that are East Asian Wide (W) or Fullwidth (F) in Unicode 14.0's
  /// EastAsianWidth.txt, with the unassigned code points of the CJK blocks (W by the file's
  /// defaults), less those whose default is emoji presentation: the standard library's
  /// `isEmojiPresentation` answers for those, in its own, newer, Unicode version. Ranges that
  /// only emoji separated are joined.
  private static let wideRanges: [ClosedRange<UInt32>] = [
    0x1100...0x115F, 0x2329...0x232A, 0x2E80...0x2E99, 0x2E9B...0x2EF3, 0x2F00...0x2FD5,
    0x2FF0...0x2FFB, 0x3000...0x303E, 0x3041...0x3096, 0x3099...0x30FF, 0x3105...0x312F,
    0x3131...0x318E, 0x3190...0x31E3, 0x31F0...0x321E, 0x3220...0x3247, 0x3250...0x4DBF,
    0x4E00...0xA48C, 0xA490...0xA4C6, 0xA960...0xA97C, 0xAC00...0xD7A3, 0xF900...0xFAFF,
    0xFE10...0xFE19, 0xFE30...0xFE52, 0xFE54...0xFE66, 0xFE68...0xFE6B, 0xFF01...0xFF60,
    0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x16FF0...0x16FF1, 0x17000...0x187F7,
    0x18800...0x18CD5, 0x18D00...0x18D08, 0x1AFF0...0x1AFF3, 0x1AFF5...0x1AFFB,
    0x1AFFD...0x1AFFE, 0x1B000...0x1B122, 0x1B150...0x1B152, 0x1B164...0x1B167,
    0x1B170...0x1B2FB, 0x1F200...0x1F202, 0x1F210...0x1F23B, 0x1F240...0x1F248,
    0x1F260...0x1F265, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
  ]
}
