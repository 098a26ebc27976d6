import Foundation
import Testing

@testable import ICalendar

/// A large stream is read in pieces on several threads (``ICalendarDocument``, at VEVENT and
/// VTODO lines of one calendar): whatever the stream, the document, its line numbers and its
/// errors are those one pass gives. Small streams are read in pieces here by lowering the size
/// at which pieces begin.
@Suite struct DocumentPiecesTests {
  static func fixture(_ name: String) throws -> [UInt8] {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Fixtures/ics/\(name)")
    return try [UInt8](Data(contentsOf: url))
  }

  /// The line of every component and property, depth first: `==` does not compare them.
  static func lines(_ components: [ICalendarComponent]) -> [Int] {
    components.flatMap { component in
      [component.line] + component.properties.map(\.line) + lines(component.components)
    }
  }

  /// Reads `bytes` in one pass and in 2 to 6 pieces, and expects the same document or the
  /// same error.
  static func expectPiecesReadAsOnePass(
    _ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let onePass = Result { () throws(ICalendarParseError) in
      try ICalendarDocument(parsing: bytes, pieces: 1, smallest: 0)
    }
    for pieces in 2...6 {
      let inPieces = Result { () throws(ICalendarParseError) in
        try ICalendarDocument(parsing: bytes, pieces: pieces, smallest: 0)
      }
      switch (onePass, inPieces) {
      case (.success(let one), .success(let other)):
        #expect(one == other, "\(pieces) pieces", sourceLocation: sourceLocation)
        #expect(
          lines(one.calendars) == lines(other.calendars), "\(pieces) pieces",
          sourceLocation: sourceLocation)
      case (.failure(let one), .failure(let other)):
        #expect(one == other, "\(pieces) pieces", sourceLocation: sourceLocation)
      default:
        Issue.record(
          "\(pieces) pieces: \(inPieces), one pass: \(onePass)", sourceLocation: sourceLocation)
      }
    }
  }

  /// A calendar of `count` events, with folds, blank lines, an alarm and a to-do among them.
  static func calendar(_ count: Int, lineEnd: String = "\r\n", extra: String = "") -> String {
    var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//OpenEventKit//tests//EN"]
    for index in 0..<count {
      lines += [
        index % 5 == 4 ? "BEGIN:VTODO" : "BEGIN:VEVENT", "UID:item-\(index)",
        "DTSTART:20250301T090000Z", "SUMMARY:Item \(index) with a long title folded",
        " onto a second line", "",
      ]
      if index % 3 == 0 { lines += ["BEGIN:VALARM", "TRIGGER:-PT5M", "END:VALARM"] }
      lines.append(index % 5 == 4 ? "END:VTODO" : "END:VEVENT")
    }
    return (lines + [extra, "END:VCALENDAR"]).joined(separator: lineEnd) + lineEnd
  }

  @Test func theFixturesReadInPiecesAsInOnePass() throws {
    for name in ["apple.ics", "google.ics", "outlook.ics", "quirks.ics", "ranges.ics"] {
      Self.expectPiecesReadAsOnePass(try Self.fixture(name))
    }
  }

  @Test func largeCalendarsReadInPiecesAsInOnePass() throws {
    Self.expectPiecesReadAsOnePass(Array(Self.calendar(200).utf8))
    Self.expectPiecesReadAsOnePass(Array(Self.calendar(200, lineEnd: "\n").utf8))
    // A byte-order mark; a second calendar after the first.
    Self.expectPiecesReadAsOnePass([0xEF, 0xBB, 0xBF] + Array(Self.calendar(50).utf8))
    Self.expectPiecesReadAsOnePass(Array((Self.calendar(50) + Self.calendar(50)).utf8))
    // The calendar's own properties after its events.
    Self.expectPiecesReadAsOnePass(Array(Self.calendar(100, extra: "X-WR-CALNAME:Late").utf8))
    // Pieces are read: without one, the test above would pass however they joined.
    let bytes = Array(Self.calendar(200).utf8)
    #expect(ContentLineParser(bytes: bytes).pieces(count: 4, smallest: 0)?.count == 4)
    #expect(ContentLineParser(bytes: bytes).pieces(count: 4, smallest: bytes.count + 1) == nil)
  }

  /// Streams that do not read, or that pieces could split wrongly: the error, or the
  /// document, is the one-pass reading's.
  @Test func brokenStreamsFailAsInOnePass() throws {
    let good = Self.calendar(120)
    let broken = [
      // An error far into the stream, in a later piece.
      good.replacingOccurrences(of: "UID:item-100\r\n", with: "UID;BROKEN:item-100\r\n"),
      good.replacingOccurrences(of: "UID:item-90\r\n", with: "NO COLON HERE\r\n"),
      // A calendar closed in the middle, the rest outside any calendar.
      good.replacingOccurrences(
        of: "BEGIN:VEVENT\r\nUID:item-60\r\n",
        with: "END:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:item-60\r\n"),
      // A calendar closed in the middle and another begun: two calendars.
      good.replacingOccurrences(
        of: "BEGIN:VEVENT\r\nUID:item-61\r\n",
        with: "END:VCALENDAR\r\nBEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:item-61\r\n"),
      // An event left open: the next BEGIN:VEVENT nests inside it.
      good.replacingOccurrences(
        of:
          "UID:item-40\r\nDTSTART:20250301T090000Z\r\nSUMMARY:Item 40 with a long title folded\r\n onto a second line\r\n\r\nEND:VEVENT\r\n",
        with: "UID:item-40\r\n"),
      // The stream ends inside a component; an END that closes nothing.
      String(good.dropLast("END:VCALENDAR\r\n".count)),
      good + "END:VEVENT\r\n",
      // A line that is a BEGIN only in lower case, and one with a fold right before a BEGIN.
      good.replacingOccurrences(
        of: "BEGIN:VEVENT\r\nUID:item-70\r\n", with: "begin:vevent\r\nUID:item-70\r\n"),
      good.replacingOccurrences(
        of: "END:VEVENT\r\nBEGIN:VEVENT\r\nUID:item-80",
        with: "END:VEVENT\r\n \r\nBEGIN:VEVENT\r\nUID:item-80"),
    ]
    for text in broken { Self.expectPiecesReadAsOnePass(Array(text.utf8)) }
  }
}
