import Testing

@testable import ICalendar

/// `trimmingWhitespace()`, which every value an import reads goes through: the quick path for
/// text with printable ends, and the whitespace `Character.isWhitespace` names elsewhere.
@Suite struct TrimmingWhitespaceTests {
  @Test(arguments: [
    ("20250310T090000Z", "20250310T090000Z"),
    (" 20250310T090000Z \r\n", "20250310T090000Z"),
    ("\tPT15M", "PT15M"),
    ("VEVENT\u{0B}", "VEVENT"),
    ("\u{00A0}Café\u{2003}", "Café"),
    ("résumé", "résumé"),
    ("a b", "a b"),
    (" \r\n\t", ""),
    ("", ""),
    ("x", "x"),
  ])
  func trimsAStringAndASliceAlike(text: String, expected: String) {
    #expect(text.trimmingWhitespace() == expected)
    // The same text as a slice in the middle of a longer string.
    let longer = "<" + text + ">"
    let slice = longer.dropFirst().dropLast()
    #expect(slice.trimmingWhitespace() == expected)
  }

  @Test func textWithNothingToTrimIsItself() {
    let text = "20250310"
    let trimmed = text.trimmingWhitespace()
    #expect(trimmed.startIndex == text.startIndex && trimmed.endIndex == text.endIndex)
  }
}
