/// Rows in columns that line up on a terminal: the one table printer of the package, for the
/// REPLs' tables (``Console/table(_:header:)``) and ekctl's listings alike, so that every
/// table measures, pads and makes its cells inert the same way.
///
/// Columns are two spaces apart, each as wide as its widest cell (or its minimum width),
/// measured in terminal columns (``DisplayWidth``): an ideograph or an emoji takes two, a
/// combining accent none, so cells line up as shown and none is cut. The last column is not
/// padded, and spaces at the end of a line are dropped.
///
/// Cells are data (names, titles): each is made inert on one line first (``InertText/of(_:)``:
/// a control, an escape, a line feed or a bidi character is shown as `\u{…}`), so a cell is
/// never styled and never breaks its row. Only the last column may keep its line breaks
/// (``lastColumnKeepsLineBreaks``, an event's notes), each further line starting under the
/// column.
///
/// ```swift
/// let table = TextTable(
///   rows: [["日本語", "events"], ["Zoë 🃏", "reminders"]], header: ["title", "kind"])
/// table.lines
/// // ["title   kind", "日本語  events", "Zoë 🃏  reminders"]
/// ```
public struct TextTable: Sendable {
  /// The first row, when there is one; it is laid out like the others.
  public var header: [String]?
  /// The rows, each a list of cells; rows may have different numbers of cells.
  public var rows: [[String]]
  /// The least width of each column, in terminal columns (missing ones are 0): a column of
  /// known words (`events`, `reminders`) keeps its width whichever of them the rows hold.
  public var minimumWidths: [Int] = []
  /// Spaces before every line.
  public var indent = 0
  /// Whether the last column's line breaks are kept, each further line indented to the
  /// column's start; otherwise a line break is shown as `\u{A}` like any control.
  public var lastColumnKeepsLineBreaks = false

  public init(rows: [[String]], header: [String]? = nil) {
    self.rows = rows
    self.header = header
  }

  /// The table's lines, without line ends.
  public var lines: [String] {
    let all = ((header.map { [$0] } ?? []) + rows).map { row in
      row.enumerated().map { column, cell in
        lastColumnKeepsLineBreaks && column == row.count - 1
          ? InertText.keepingLineBreaks(cell) : InertText.of(cell)
      }
    }
    let columns = all.map(\.count).max() ?? 0
    let widths = (0..<columns).map { column in
      let widest = all.map { column < $0.count ? DisplayWidth.width(of: $0[column]) : 0 }.max() ?? 0
      return max(widest, column < minimumWidths.count ? minimumWidths[column] : 0)
    }
    let margin = String(repeating: " ", count: indent)
    var lines: [String] = []
    for row in all {
      let cells = row.enumerated().map { column, cell in
        column == row.count - 1 ? cell : DisplayWidth.padded(cell, to: widths[column])
      }
      let line = margin + cells.joined(separator: "  ")
      // A kept line break starts a line under the last column.
      let under =
        margin
        + String(
          repeating: " ", count: widths.prefix(max(0, row.count - 1)).reduce(0) { $0 + $1 + 2 })
      for (index, piece) in line.split(separator: "\n", omittingEmptySubsequences: false)
        .enumerated()
      {
        lines.append(Self.trimmed((index == 0 ? "" : under) + piece))
      }
    }
    return lines
  }

  private static func trimmed(_ line: String) -> String {
    String(line.reversed().drop { $0 == " " }.reversed())
  }
}
