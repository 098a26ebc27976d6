import Foundation

/// Reads the content lines of an iCalendar stream (RFC 5545 §3.1): unfolds them, splits each
/// into name, parameters and value, and hands the properties out in order with the line
/// they started on.
///
/// It works on bytes. Unfolding joins the bytes of the physical lines before any decoding, so
/// a multi-byte UTF-8 character that a producer folded in its middle comes back whole.
///
/// Leniencies, each seen in files real producers write:
/// - lines may end in LF alone instead of CRLF, or in CR alone in a file with no LF at all
///   (classic Mac OS), and blank lines are skipped;
/// - names are read in any case and kept in upper case;
/// - a file that is not UTF-8 is read line by line, and a line that is not valid UTF-8 is
///   read as ISO 8859-1 (older Outlook exports), so no byte is lost;
/// - a line that cannot begin a property continues the one before, as if folded without
///   its leading space (Confluence).
///
/// Refused, each with an ``ICalendarParseError`` naming the line: a content line longer than
/// ``ICalendarDocument/maximumLineLength`` once unfolded, and a NUL byte anywhere (§3.1 allows
/// no control character but HTAB in a line; a NUL in particular would cut the text short
/// wherever it is kept as a C string, SQLite's text included, so it is not passed on).
struct ContentLineParser {
  private let bytes: [UInt8]
  private let isValidUTF8: Bool
  /// The byte that ends a physical line: LF (its CR before it dropped), or CR in a file that
  /// has no LF.
  private let lineEnd: UInt8
  /// Whether the file began with a UTF-16 byte-order mark, for the NUL error's hint.
  private let looksLikeUTF16: Bool
  private var position = 0
  /// Where the bytes this parser reads end: the stream's end, or a piece's
  /// (``pieces(count:smallest:)``).
  private var stop: Int
  /// The physical line number of the next byte.
  private var physicalLine = 1
  private var logical: [UInt8] = []

  init(bytes: [UInt8]) {
    var start = 0
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }  // a byte-order mark
    self.bytes = start == 0 ? bytes : Array(bytes[start...])
    stop = self.bytes.count
    isValidUTF8 = String(validating: self.bytes, as: UTF8.self) != nil
    lineEnd = !self.bytes.contains(0x0A) && self.bytes.contains(0x0D) ? 0x0D : 0x0A
    looksLikeUTF16 = bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF])
  }

  /// The property of one unfolded content line, as ``ICalendarProperty/contentLine`` writes
  /// it (a line end after it is dropped); nil for an empty line. Nothing in it is a fold or a
  /// line end: a CR inside a value, which the reader keeps where it does not end a line, stays
  /// in the value instead of cutting it there.
  static func property(inLine line: [UInt8]) throws(ICalendarParseError) -> ICalendarProperty? {
    var line = line
    if line.last == 0x0A {
      line.removeLast()
      if line.last == 0x0D { line.removeLast() }
    }
    guard !line.isEmpty else { return nil }
    return try ContentLineParser(bytes: line).parse(line, line: 1)
  }

  /// The stream cut into about `count` pieces of about equal size, to be read at once on as
  /// many threads, each after the first starting at a line `BEGIN:VEVENT` or `BEGIN:VTODO`
  /// and knowing its line number. One pass starts a content line there too: no fold
  /// continues a line that begins with a name and a colon. Nil when the stream is smaller
  /// than `smallest` bytes, is not UTF-8, ends its lines in CR alone, or has no such line
  /// past its first piece.
  func pieces(count: Int, smallest: Int) -> [ContentLineParser]? {
    guard count > 1, bytes.count >= smallest, isValidUTF8, lineEnd == 0x0A, position == 0 else {
      return nil
    }
    var starts = [0]
    for piece in 1..<count {
      if let start = itemLine(after: max(bytes.count / count * piece, starts[starts.count - 1])) {
        starts.append(start)
      }
    }
    guard starts.count > 1 else { return nil }
    var pieces: [ContentLineParser] = []
    var line = 1
    for (index, start) in starts.enumerated() {
      var piece = self
      piece.position = start
      piece.stop = index + 1 < starts.count ? starts[index + 1] : bytes.count
      piece.physicalLine = line
      pieces.append(piece)
      line += lineEnds(in: start..<piece.stop)
    }
    return pieces
  }

  /// The start of the first line after `index` that is `BEGIN:VEVENT` or `BEGIN:VTODO`.
  private func itemLine(after index: Int) -> Int? {
    var index = index
    while let found = bytes[index...].firstIndex(of: lineEnd) {
      index = found + 1
      for word in Self.itemBegins {
        let end = index + word.count
        guard end < bytes.count, bytes[index..<end].elementsEqual(word) else { continue }
        if bytes[end] == 0x0A
          || (bytes[end] == 0x0D && end + 1 < bytes.count && bytes[end + 1] == 0x0A)
        {
          return index
        }
      }
    }
    return nil
  }

  private static let itemBegins = [Array("BEGIN:VEVENT".utf8), Array("BEGIN:VTODO".utf8)]

  /// How many lines end in `range`, found one after the other by `firstIndex(of:in:from:to:)`:
  /// this runs over the whole stream before its pieces are read.
  private func lineEnds(in range: Range<Int>) -> Int {
    var count = 0
    var index = range.lowerBound
    while let found = Self.firstIndex(of: lineEnd, in: bytes, from: index, to: range.upperBound) {
      count += 1
      index = found + 1
    }
    return count
  }

  /// How far the parser has read, in bytes.
  var bytesRead: Int { position }
  var totalBytes: Int { bytes.count }

  /// The next property, or nil at the end of the stream.
  mutating func next() throws(ICalendarParseError) -> ICalendarProperty? {
    while position < stop {
      let lineNumber = physicalLine
      logical.removeAll(keepingCapacity: true)
      try appendPhysicalLine(of: lineNumber)
      // Continuation lines start with a space or a tab (§3.1).
      while position < stop {
        if bytes[position] == 0x20 || bytes[position] == 0x09 {
          position += 1
          try appendPhysicalLine(of: lineNumber)
        } else if isBrokenFold(at: position), !startsComponentLine(logical) {
          try appendPhysicalLine(of: lineNumber)
        } else {
          break
        }
      }
      if logical.isEmpty { continue }
      return try parse(logical, line: lineNumber)
    }
    return nil
  }

  /// Whether the physical line at `start` cannot begin a property — a space or a character
  /// names cannot hold comes before its first `:` or `;`, or it has neither — and so must be
  /// the rest of the line before, folded without the leading space (Confluence exports fold
  /// long ORGANIZER and ATTENDEE lines so).
  ///
  /// The line is read with the lines that properly continue it (a space or tab first): a
  /// name longer than a folded line, as in `X-` followed by 80 letters, is folded inside the
  /// name, and its first line alone would look like a wrapped word.
  private func isBrokenFold(at start: Int) -> Bool {
    var index = start
    var nameBytes = 0
    while index < stop {
      let byte = bytes[index]
      let crBeforeLF =
        byte == 0x0D && lineEnd == 0x0A && index + 1 < stop
        && bytes[index + 1] == 0x0A
      if byte == lineEnd || crBeforeLF {
        // A continuation line (a space or tab first) goes on with the name.
        let next = crBeforeLF ? index + 2 : index + 1
        guard next < stop, bytes[next] == 0x20 || bytes[next] == 0x09 else { break }
        index = next + 1
        continue
      }
      if byte == UInt8(ascii: ":") || byte == UInt8(ascii: ";") { return nameBytes == 0 }
      if !Self.isNameByte(byte) { return true }
      nameBytes += 1
      index += 1
    }
    // No separator at all: a word of text wrapped onto a line of its own. A blank line is
    // not one (blank lines are skipped).
    return nameBytes > 0
  }

  /// Whether a logical line is a BEGIN or END, which nothing continues.
  private func startsComponentLine(_ line: [UInt8]) -> Bool {
    func starts(with word: String) -> Bool {
      let prefix = Array(word.utf8)
      guard line.count > prefix.count else { return false }
      return zip(line, prefix).allSatisfy { ($0 | 0x20) == ($1 | 0x20) }
        && line[prefix.count] == UInt8(ascii: ":")
    }
    return starts(with: "BEGIN") || starts(with: "END")
  }

  /// Appends the rest of the current physical line, without its CR LF, LF or CR, to the
  /// logical line that starts on line `number`, and moves past it; refuses it when the logical
  /// line would grow longer than ``ICalendarDocument/maximumLineLength``.
  private mutating func appendPhysicalLine(of number: Int) throws(ICalendarParseError) {
    let start = position
    var end = Self.firstIndex(of: lineEnd, in: bytes, from: start, to: stop) ?? stop
    position = end < stop ? end + 1 : end
    physicalLine += 1
    if lineEnd == 0x0A, end > start, bytes[end - 1] == 0x0D { end -= 1 }
    let limit = ICalendarDocument.maximumLineLength
    guard logical.count + (end - start) <= limit else {
      logical.append(contentsOf: bytes[start..<min(end, start + 1024)])
      var nameEnd = 0
      while nameEnd < logical.count, Self.isNameByte(logical[nameEnd]) { nameEnd += 1 }
      throw ICalendarParseError(
        line: number, property: nameEnd > 0 ? upperCased(logical[0..<nameEnd]) : nil,
        reason: "the content line is longer than \(limit >> 20) MiB (\(limit) bytes) once"
          + " unfolded, the most this reader accepts")
    }
    logical.append(contentsOf: bytes[start..<end])
  }

  private func parse(_ line: [UInt8], line number: Int) throws(ICalendarParseError)
    -> ICalendarProperty
  {
    var index = 0
    while index < line.count, Self.isNameByte(line[index]) { index += 1 }
    if Self.firstIndex(of: 0, in: line, from: 0, to: line.count) != nil {
      let hint = looksLikeUTF16 ? " (the file looks like UTF-16: save it as UTF-8)" : ""
      throw ICalendarParseError(
        line: number, property: index > 0 ? upperCased(line[0..<index]) : nil,
        reason: "the line holds a NUL character (U+0000)\(hint): iCalendar allows no control"
          + " characters there, and the text after it would be lost")
    }
    guard index > 0 else {
      throw ICalendarParseError(
        line: number, reason: "expected a property name, found '\(excerpt(line[...]))'")
    }
    let name = upperCased(line[0..<index])
    var parameters: [ICalendarParameter] = []
    while index < line.count, line[index] == UInt8(ascii: ";") {
      index += 1
      let nameStart = index
      while index < line.count, Self.isNameByte(line[index]) { index += 1 }
      guard index > nameStart, index < line.count, line[index] == UInt8(ascii: "=") else {
        throw ICalendarParseError(
          line: number, property: name,
          reason: "a parameter must be written NAME=value, found '\(excerpt(line[nameStart...]))'")
      }
      let parameterName = upperCased(line[nameStart..<index])
      var values: [String] = []
      repeat {
        index += 1  // past '=' or ','
        if index < line.count, line[index] == UInt8(ascii: "\"") {
          let valueStart = index + 1
          guard let close = line[valueStart...].firstIndex(of: UInt8(ascii: "\"")) else {
            throw ICalendarParseError(
              line: number, property: name,
              reason: "the value of parameter \(parameterName) opens a quote it never closes")
          }
          values.append(ICalendarText.decodeParameter(text(line[valueStart..<close])))
          index = close + 1
        } else {
          let valueStart = index
          while index < line.count, line[index] != UInt8(ascii: ","),
            line[index] != UInt8(ascii: ";"), line[index] != UInt8(ascii: ":")
          {
            index += 1
          }
          values.append(ICalendarText.decodeParameter(text(line[valueStart..<index])))
        }
      } while index < line.count && line[index] == UInt8(ascii: ",")
      parameters.append(ICalendarParameter(upperCaseName: parameterName, values: values))
    }
    guard index < line.count, line[index] == UInt8(ascii: ":") else {
      throw ICalendarParseError(
        line: number, property: name,
        reason: "no ':' separates the name and parameters from the value")
    }
    return ICalendarProperty(
      upperCaseName: name, parameters: parameters, value: text(line[(index + 1)...]),
      line: number)
  }

  /// The first `byte` in `bytes[start..<end]`, found by the C library's `memchr`, which
  /// looks at many bytes a step: every byte of a stream passes through this at least twice,
  /// to find where its line ends and to look for a NUL in it (and a third time in a stream
  /// read in pieces, whose lines are counted first).
  private static func firstIndex(of byte: UInt8, in bytes: [UInt8], from start: Int, to end: Int)
    -> Int?
  {
    guard start < end else { return nil }
    return bytes.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress,
        let found = memchr(base + start, Int32(byte), end - start)
      else { return nil }
      return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }
  }

  /// §3.1: names are letters, digits and dashes. An underscore, which a few producers put in
  /// X- names, is accepted too.
  private static func isNameByte(_ byte: UInt8) -> Bool {
    (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
      || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x5F
  }

  private func upperCased(_ slice: ArraySlice<UInt8>) -> String {
    if slice.contains(where: { $0 >= 0x61 && $0 <= 0x7A }) {
      return String(
        decoding: slice.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }, as: UTF8.self)
    }
    return String(decoding: slice, as: UTF8.self)
  }

  private func text(_ slice: ArraySlice<UInt8>) -> String {
    if isValidUTF8 { return String(decoding: slice, as: UTF8.self) }
    if let text = String(validating: slice, as: UTF8.self) { return text }
    var latin1 = ""
    latin1.unicodeScalars.append(contentsOf: slice.map { Unicode.Scalar($0) })
    return latin1
  }

  /// The start of a line for an error message (``ICalendarText/excerpt(_:limit:)``), decoding
  /// no more of it than that needs.
  private func excerpt(_ slice: ArraySlice<UInt8>) -> String {
    let start = slice.prefix(4 * 81)
    let text = isValidUTF8 ? String(decoding: start, as: UTF8.self) : text(start)
    return ICalendarText.excerpt(text)
  }
}
