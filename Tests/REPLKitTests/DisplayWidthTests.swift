import Foundation
import Testing

@testable import REPLKit

/// The columns text takes on a terminal, and tables lined up by them.
@Suite struct DisplayWidthTests {
  @Test(arguments: [
    ("plain ASCII", 11),
    ("", 0),
    // Z o ë, a space, the joker (Emoji_Presentation, 2), a space, Ø r s t e d.
    ("Zoë 🃏 Ørsted", 13),
    // G â t e a u, a space, the cake (2), a space, d ' é t é.
    ("Gâteau 🍰 d'été", 15),
    ("日本語", 6),
    ("한국어", 6),
    ("ＡＢ", 4),  // fullwidth forms
    ("ｱｲ", 2),  // halfwidth katakana stay narrow
    ("e\u{301}", 1),  // e and a combining acute accent: one character
    ("\u{301}", 0),  // a combining mark alone
    ("a\u{200B}b", 2),  // a zero-width space
    ("🇫🇷", 2),  // two regional indicators: one flag
    ("👨‍👩‍👧", 2),  // a zero-width-joiner family: one glyph
    ("👍🏽", 2),  // with a skin-tone modifier
    ("❤️", 2),  // U+2764 with U+FE0F: emoji presentation
    ("❤", 1),  // U+2764 alone: text presentation
    ("1️⃣", 2),  // a keycap
    ("a\tb", 2),  // a control character takes none
    ("\u{1B}[1mbold\u{1B}[0m", 4),  // escape sequences take none
    ("\u{1B}[38;5;33mblue\u{1B}[39m", 4),
  ])
  func widthIsTerminalColumns(text: String, width: Int) {
    #expect(DisplayWidth.width(of: text) == width, "\(text.unicodeScalars.map(\.value))")
  }

  @Test func aCharacterIsMeasuredWhole() {
    #expect(DisplayWidth.width(of: Character("🃏")) == 2)
    #expect(DisplayWidth.width(of: Character("é")) == 1)
    #expect(DisplayWidth.width(of: Character("\r\n")) == 0)
  }

  @Test func paddingFillsColumnsAndNeverCuts() {
    #expect(DisplayWidth.padded("日本", to: 6) == "日本  ")
    #expect(DisplayWidth.padded("Zoë 🃏 Ørsted", to: 15) == "Zoë 🃏 Ørsted  ")
    #expect(DisplayWidth.padded("Gâteau 🍰 d'été", to: 3) == "Gâteau 🍰 d'été")
    #expect(DisplayWidth.padded("", to: 2) == "  ")
  }

  /// Each row's second column starts at the same terminal column, and every cell is whole.
  @Test func tableCellsWithWideCharactersLineUp() {
    let transcript = Transcript()
    let console = Console.scripted([], transcript: transcript, timeZone: .gmt, now: Date())
    // A cell is data: an escape in it is shown (InertText), and measured as shown.
    let escape = "Esc\u{1B}[2J"
    let names = [
      "Zoë 🃏 Ørsted", "Gâteau 🍰 d'été", "日本語", "e\u{301}", "🇫🇷", "👨‍👩‍👧", "❤️", escape, "ann",
    ]
    console.table(names.enumerated().map { [$1, "\($0)", "end"] }, header: ["name", "#", ""])
    let lines = transcript.text.split(separator: "\n", omittingEmptySubsequences: false)
      .dropLast().map(String.init)
    #expect(lines.count == names.count + 1)
    #expect(lines.first == "  name             #")
    #expect(lines[1] == "  Zoë 🃏 Ørsted    0  end")
    #expect(lines[2] == "  Gâteau 🍰 d'été  1  end")
    #expect(lines[3] == "  日本語           2  end")
    for (index, name) in names.enumerated() {
      let line = lines[index + 1]
      #expect(line.hasPrefix("  " + InertText.of(name) + " "), "\(line)")
      // The number comes after two spaces, the widest name (15 columns) and two more.
      let number = line.range(of: "\(index)  end", options: .backwards)
      #expect(number.map { DisplayWidth.width(of: line[..<$0.lowerBound]) } == 19, "\(line)")
    }
  }
}
