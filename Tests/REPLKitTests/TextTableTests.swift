import Testing

@testable import REPLKit

/// The one table printer: columns in terminal columns, cells inert and whole.
@Suite struct TextTableTests {
  /// CJK, emoji (with a skin tone, a flag, a family joined by ZWJ) and combining accents:
  /// the second column starts at the same terminal column on every line.
  @Test func wideAndCombiningCharactersLineUp() {
    let titles = [
      "日本語の会議", "Zoë 🃏 Ørsted", "👍🏽 ok", "🇫🇷 Paris", "👨‍👩‍👧 family", "Cafe\u{301} e\u{301}te\u{301}",
      "한국어", "plain",
    ]
    let table = TextTable(
      rows: titles.map { [$0, "events", "id"] }, header: ["title", "kind", "id"])
    let lines = table.lines
    #expect(lines.count == titles.count + 1)
    // Zoë 🃏 Ørsted is the widest title, 13 columns (the joker takes two); 日本語の会議 has
    // fewer characters and takes 12.
    #expect(lines[0] == "title          kind    id")
    #expect(lines[1] == "日本語の会議   events  id")
    #expect(lines[2] == "Zoë 🃏 Ørsted  events  id")
    #expect(lines[6] == "Cafe\u{301} e\u{301}te\u{301}       events  id")
    for line in lines.dropFirst() {
      let kind = line.range(of: "events")
      #expect(kind.map { DisplayWidth.width(of: line[..<$0.lowerBound]) } == 15, "\(line)")
    }
  }

  /// A column of known words keeps its least width whichever of them the rows hold; a wider
  /// cell still widens it and is never cut.
  @Test func minimumWidthsHoldAndNeverCut() {
    var table = TextTable(rows: [["Work", "events", "x"]], header: ["title", "kind", "id"])
    table.minimumWidths = [0, 9]
    #expect(table.lines == ["title  kind       id", "Work   events     x"])
    table.rows.append(["Long list", "reminders+", "y"])
    #expect(table.lines[2] == "Long list  reminders+  y")
  }

  /// Cells are data: an escape, a bidi override or a line break in one is shown as `\u{…}`
  /// and measured as shown; only the last column keeps its line breaks when asked, its
  /// further lines starting under it.
  @Test func cellsAreInertAndOnlyTheLastColumnKeepsLineBreaks() {
    var table = TextTable(rows: [
      ["Title", "Tea \u{1B}[2J\nnow"], ["Notes", "Bring 🍰\n日本\n\nend"], ["X\n", "y"],
    ])
    #expect(
      table.lines == [
        "Title   Tea \\u{1B}[2J\\u{A}now", "Notes   Bring 🍰\\u{A}日本\\u{A}\\u{A}end",
        "X\\u{A}  y",
      ])
    table.lastColumnKeepsLineBreaks = true
    table.indent = 2
    #expect(
      table.lines == [
        "  Title   Tea \\u{1B}[2J", "          now", "  Notes   Bring 🍰", "          日本", "",
        "          end", "  X\\u{A}  y",
      ])
  }

  /// Rows of any length, none at all, and empty rows: no crash, no trailing spaces.
  @Test func raggedAndEmptyRows() {
    #expect(TextTable(rows: []).lines == [])
    #expect(TextTable(rows: [[]]).lines == [""])
    let table = TextTable(rows: [["a", "bb", ""], ["ccc"], []], header: ["h"])
    #expect(table.lines == ["h", "a    bb", "ccc", ""])
  }
}
