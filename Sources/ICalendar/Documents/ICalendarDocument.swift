/// An iCalendar stream (RFC 5545 §3.4): one or more VCALENDAR objects, each a tree of
/// components, read from and written to text.
///
/// Reading keeps everything: properties and parameters this library does not know, X-
/// properties and components of any name come back out of ``serialized()`` as they went in
/// (re-folded and in canonical case). Leniencies are listed on the (internal) content-line
/// parser and in OpenEventKit.docc/ICalendarFiles.md.
public struct ICalendarDocument: Hashable, Sendable {
  public var calendars: [ICalendarComponent]

  public init(calendars: [ICalendarComponent]) { self.calendars = calendars }

  /// Reads a document from its text.
  public init(parsing text: String) throws(ICalendarParseError) {
    try self.init(parsing: Array(text.utf8))
  }

  /// Reads a document from its bytes (UTF-8, as §3.1.4 requires; see the leniencies).
  /// `progress` is told, every few thousand lines, how many of the bytes have been read.
  public init(
    parsing bytes: [UInt8], progress: ((_ read: Int, _ total: Int) -> Void)? = nil
  ) throws(ICalendarParseError) {
    var parser = ContentLineParser(bytes: bytes)
    var calendars: [ICalendarComponent] = []
    var open: [ICalendarComponent] = []
    var lastLine = 1
    var count = 0
    while let property = try parser.next() {
      lastLine = property.line
      count += 1
      if count & 0x1FFF == 0 { progress?(parser.bytesRead, parser.totalBytes) }
      switch property.name {
      case "BEGIN":
        let name = property.value.trimmingWhitespace().uppercased()
        guard !name.isEmpty else {
          throw ICalendarParseError(line: property.line, reason: "BEGIN names no component")
        }
        guard !open.isEmpty || name == "VCALENDAR" else {
          throw ICalendarParseError(
            line: property.line,
            reason: "expected BEGIN:VCALENDAR, found BEGIN:\(Self.quoted(name)) outside a calendar")
        }
        guard open.count < Self.maximumDepth else {
          throw ICalendarParseError(
            line: property.line,
            reason: "BEGIN:\(Self.quoted(name)) nests components deeper than"
              + " \(Self.maximumDepth) levels, the most a file may have")
        }
        open.append(ICalendarComponent(name: name, line: property.line))
      case "END":
        let name = property.value.trimmingWhitespace().uppercased()
        guard let current = open.popLast() else {
          throw ICalendarParseError(
            line: property.line, reason: "END:\(Self.quoted(name)) with no component open")
        }
        guard current.name == name else {
          throw ICalendarParseError(
            line: property.line,
            reason: "END:\(Self.quoted(name)) closes BEGIN:\(Self.quoted(current.name))"
              + " of line \(current.line)")
        }
        if open.isEmpty {
          calendars.append(current)
        } else {
          open[open.count - 1].components.append(current)
        }
      default:
        guard !open.isEmpty else {
          throw ICalendarParseError(
            line: property.line,
            reason:
              "expected BEGIN:VCALENDAR, found \(Self.quoted(property.name)) outside a calendar")
        }
        open[open.count - 1].properties.append(property)
      }
    }
    progress?(parser.totalBytes, parser.totalBytes)
    if let unclosed = open.last {
      throw ICalendarParseError(
        line: lastLine,
        reason: "the file ends inside BEGIN:\(Self.quoted(unclosed.name)) of line \(unclosed.line)")
    }
    guard !calendars.isEmpty else {
      throw ICalendarParseError(line: lastLine, reason: "no VCALENDAR in the file")
    }
    self.calendars = calendars
  }

  /// How deep components may nest: a VCALENDAR and what it holds, 100 levels in all. Real
  /// files nest three or four (VCALENDAR, VEVENT, VALARM; VTIMEZONE, STANDARD); a deeper
  /// BEGIN is an ``ICalendarParseError``.
  public static let maximumDepth = 100

  /// The longest content line read, once unfolded: 8 MiB (8,388,608 bytes). That holds any
  /// text and an attachment of about 6 MB written inline in base64 (ATTACH;ENCODING=BASE64);
  /// a longer line is an ``ICalendarParseError``.
  public static let maximumLineLength = 8 << 20

  /// A name as an error quotes it: 80 characters at most.
  private static func quoted(_ name: String) -> String { ICalendarText.excerpt(name) }

  /// The document as RFC 5545 text: CRLF line ends, lines folded at 75 octets.
  public func serialized() -> [UInt8] {
    var writer = ICalendarWriter()
    for calendar in calendars { writer.write(calendar) }
    return writer.bytes
  }

  public var text: String { String(decoding: serialized(), as: UTF8.self) }
}
