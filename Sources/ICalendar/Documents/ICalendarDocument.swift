import Dispatch
import Foundation
import Synchronization

/// An iCalendar stream (RFC 5545 §3.4): one or more VCALENDAR objects, each a tree of
/// components, read from and written to text.
///
/// Reading keeps everything: properties and parameters this library does not know, X-
/// properties and components of any name come back out of ``serialized()`` as they went in
/// (re-folded and in canonical case). Leniencies are listed on the (internal) content-line
/// parser and in OpenEventKit.docc/ICalendarFiles.md.
///
/// ```swift
/// let document = try ICalendarDocument(parsing: """
///   BEGIN:VCALENDAR
///   VERSION:2.0
///   PRODID:-//Example//EN
///   BEGIN:VEVENT
///   UID:1@example.com
///   DTSTART:20250301T090000Z
///   SUMMARY:Breakfast\\, early
///   END:VEVENT
///   END:VCALENDAR
///   """)
/// for event in document.calendars[0].components(named: "VEVENT") {
///   print(event.property("SUMMARY")?.textValue ?? "")  // Breakfast, early
/// }
/// let bytes = document.serialized()  // CRLF line ends, folded at 75 octets
/// ```
public struct ICalendarDocument: Hashable, Sendable {
  /// The VCALENDAR objects of the stream, in order; reading gives at least one.
  public var calendars: [ICalendarComponent]

  /// A document of calendars built in code.
  ///
  /// ```swift
  /// var calendar = ICalendarComponent(name: "VCALENDAR")
  /// calendar.append(ICalendarProperty(name: "VERSION", value: "2.0"))
  /// calendar.append(ICalendarProperty(name: "PRODID", value: "-//Example//EN"))
  /// let document = ICalendarDocument(calendars: [calendar])
  /// print(String(decoding: document.serialized(), as: UTF8.self))
  /// // BEGIN:VCALENDAR, VERSION:2.0, PRODID:-//Example//EN, END:VCALENDAR (CRLF after each)
  /// ```
  ///
  /// - Parameter calendars: The VCALENDAR components to write, in order.
  public init(calendars: [ICalendarComponent]) { self.calendars = calendars }

  /// Reads a document from its text.
  ///
  /// The same as ``init(parsing:progress:)`` on the text's UTF-8 bytes.
  ///
  /// ```swift
  /// do {
  ///   let document = try ICalendarDocument(
  ///     parsing: "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n")
  ///   print(document.calendars[0].property("VERSION")?.value ?? "")  // 2.0
  /// } catch {
  ///   print(error)  // the line and what is wrong there
  /// }
  /// ```
  ///
  /// - Parameter text: The whole stream, one or more VCALENDAR objects.
  /// - Throws: ``ICalendarParseError`` with the line at fault, for the reasons
  ///   ``init(parsing:progress:)`` lists.
  public init(parsing text: String) throws(ICalendarParseError) {
    try self.init(parsing: Array(text.utf8))
  }

  /// Reads a document from its bytes (UTF-8, as §3.1.4 requires; see the leniencies).
  /// `progress` is told, every few thousand lines, how many of the bytes have been read.
  ///
  /// ```swift
  /// let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "calendar.ics")))
  /// let document = try ICalendarDocument(parsing: bytes) { read, total in
  ///   print("\(read * 100 / max(total, 1))%")
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - bytes: The whole stream; a UTF-8 byte-order mark at the start is skipped.
  ///   - progress: Called every 8,192 content lines and once at the end with the bytes read
  ///     and the total, on the caller's thread; nil for no reports. A stream of 1 MiB or more
  ///     is read in pieces on every core, this thread reading the first: the reports then
  ///     come as the first piece is read, and at the end.
  /// - Throws: ``ICalendarParseError`` naming the line when a content line is malformed (no
  ///   name, no `:`, an unclosed quote, a NUL character, longer than ``maximumLineLength``),
  ///   when BEGIN and END do not match or nest deeper than ``maximumDepth``, when a property
  ///   or a component other than VCALENDAR lies outside a calendar, when the stream ends
  ///   inside a component, or when it holds no VCALENDAR at all.
  public init(
    parsing bytes: [UInt8], progress: ((_ read: Int, _ total: Int) -> Void)? = nil
  ) throws(ICalendarParseError) {
    // Counting the cores reads the process's CPU limits (~50,000 instructions): only for a
    // stream large enough to be read in pieces.
    let pieces =
      bytes.count >= Self.smallestPiece ? ProcessInfo.processInfo.activeProcessorCount : 1
    try self.init(parsing: bytes, pieces: pieces, smallest: Self.smallestPiece, progress: progress)
  }

  /// Reads a document as ``init(parsing:progress:)`` does, in at most `pieces` pieces read at
  /// once when the stream has at least `smallest` bytes (tests read small streams in pieces).
  init(
    parsing bytes: [UInt8], pieces: Int, smallest: Int,
    progress: ((_ read: Int, _ total: Int) -> Void)? = nil
  ) throws(ICalendarParseError) {
    let parser = ContentLineParser(bytes: bytes)
    if let pieces = parser.pieces(count: pieces, smallest: smallest),
      let document = Self.read(pieces, progress: progress)
    {
      self = document
      return
    }
    try self.init(parser, progress: progress)
  }

  /// Reads the whole stream, in one pass.
  private init(
    _ parser: ContentLineParser, progress: ((_ read: Int, _ total: Int) -> Void)?
  ) throws(ICalendarParseError) {
    var parser = parser
    var assembler = ComponentAssembler()
    var count = 0
    while let property = try parser.next() {
      count += 1
      if count & 0x1FFF == 0 { progress?(parser.bytesRead, parser.totalBytes) }
      try assembler.add(property)
    }
    progress?(parser.totalBytes, parser.totalBytes)
    self.calendars = try assembler.finish()
  }

  /// Bytes below which a stream is read in one pass: reading it in pieces would gain less
  /// than starting the threads costs.
  static let smallestPiece = 1 << 20

  /// Reads a large stream in pieces, one per core, each starting at a VEVENT or VTODO of the
  /// same VCALENDAR (``ContentLineParser/pieces(count:smallest:)``): the first on this
  /// thread, with `progress`, the others on other threads. Nil when the pieces do not join
  /// into what one pass reads — a piece that does not read, a piece after the first that
  /// closes the calendar before the last one — so that the stream is read again in one
  /// pass, which finds the error that one pass reports.
  private static func read(
    _ pieces: [ContentLineParser], progress: ((_ read: Int, _ total: Int) -> Void)?
  ) -> ICalendarDocument? {
    let results = PieceResults(count: pieces.count)
    let others = DispatchGroup()
    for index in pieces.indices.dropFirst() {
      DispatchQueue.global(qos: .userInitiated).async(group: others) {
        results.store(index, read(pieces[index], inCalendar: true, progress: nil))
      }
    }
    let first = read(pieces[0], inCalendar: false, progress: progress)
    others.wait()
    // The first piece leaves one calendar open; the others add to it, and the last closes it.
    guard let first, first.open.count == 1 else { return nil }
    var calendar = first.open[0]
    var calendars = first.calendars
    for index in pieces.indices.dropFirst() {
      guard let piece = results.result(index) else { return nil }
      // What the piece read into the calendar it started in, its stand-in for it.
      let standIn: ICalendarComponent
      if index < pieces.count - 1 {
        guard piece.calendars.isEmpty, piece.open.count == 1 else { return nil }
        standIn = piece.open[0]
      } else {
        guard let closed = try? piece.finish(), let first = closed.first else { return nil }
        standIn = first
        calendars.append(contentsOf: closed.dropFirst())
      }
      calendar.properties += standIn.properties
      calendar.components += standIn.components
    }
    calendars.insert(calendar, at: first.calendars.count)
    let total = pieces[0].totalBytes
    progress?(total, total)
    return ICalendarDocument(calendars: calendars)
  }

  /// What one piece reads: nil when one of its lines does not read, or its components do
  /// not nest. A piece `inCalendar` starts inside a VCALENDAR, which a stand-in holds.
  private static func read(
    _ parser: ContentLineParser, inCalendar: Bool,
    progress: ((_ read: Int, _ total: Int) -> Void)?
  ) -> ComponentAssembler? {
    var parser = parser
    var assembler = ComponentAssembler()
    if inCalendar { assembler.open = [ICalendarComponent(name: "VCALENDAR", line: 0)] }
    var count = 0
    do throws(ICalendarParseError) {
      while let property = try parser.next() {
        count += 1
        if count & 0x1FFF == 0 { progress?(parser.bytesRead, parser.totalBytes) }
        try assembler.add(property)
      }
    } catch {
      return nil
    }
    return assembler
  }

  /// How deep components may nest: a VCALENDAR and what it holds, 100 levels in all. Real
  /// files nest three or four (VCALENDAR, VEVENT, VALARM; VTIMEZONE, STANDARD); a deeper
  /// BEGIN is an ``ICalendarParseError``.
  public static let maximumDepth = 100

  /// The longest content line read, once unfolded: 8 MiB (8,388,608 bytes). That holds any
  /// text and an attachment of about 6 MB written inline in base64 (ATTACH;ENCODING=BASE64);
  /// a longer line is an ``ICalendarParseError``.
  public static let maximumLineLength = 8 << 20

  /// The document as RFC 5545 text: CRLF line ends, lines folded at 75 octets.
  ///
  /// ```swift
  /// var calendar = ICalendarComponent(name: "VCALENDAR")
  /// calendar.append(ICalendarProperty(name: "VERSION", value: "2.0"))
  /// calendar.append(ICalendarProperty(name: "PRODID", value: "-//Example//EN"))
  /// let bytes = ICalendarDocument(calendars: [calendar]).serialized()
  /// try Data(bytes).write(to: URL(fileURLWithPath: "out.ics"))
  /// ```
  ///
  /// - Returns: The UTF-8 bytes of every calendar, written by ``ICalendarWriter``.
  public func serialized() -> [UInt8] {
    var writer = ICalendarWriter()
    for calendar in calendars { writer.write(calendar) }
    return writer.bytes
  }

  /// The document as RFC 5545 text, as ``serialized()`` writes it, in a `String`.
  public var text: String { String(decoding: serialized(), as: UTF8.self) }
}

/// Builds the tree of components from the properties of a stream, in order: BEGIN opens a
/// component, END closes it, anything else is a property of the open one.
private struct ComponentAssembler: Sendable {
  /// The VCALENDARs closed so far.
  var calendars: [ICalendarComponent] = []
  /// The components open, outermost first.
  var open: [ICalendarComponent] = []
  /// The line of the last property, for the error at the end of the stream.
  private var lastLine = 1
  /// How many properties the last component closed at each depth had. A component is made
  /// with room for as many as the one before it at its depth (a file's events are much
  /// alike), rather than growing its array by doubling, which copied a VEVENT's properties
  /// four or five times over.
  private var propertyCounts: [Int] = []

  mutating func add(_ property: ICalendarProperty) throws(ICalendarParseError) {
    lastLine = property.line
    switch property.name {
    case "BEGIN":
      let name = ICalendarText.upperCaseName(String(property.value.trimmingWhitespace()))
      guard !name.isEmpty else {
        throw ICalendarParseError(line: property.line, reason: "BEGIN names no component")
      }
      guard !open.isEmpty || name == "VCALENDAR" else {
        throw ICalendarParseError(
          line: property.line,
          reason: "expected BEGIN:VCALENDAR, found BEGIN:\(Self.quoted(name)) outside a calendar")
      }
      guard open.count < ICalendarDocument.maximumDepth else {
        throw ICalendarParseError(
          line: property.line,
          reason: "BEGIN:\(Self.quoted(name)) nests components deeper than"
            + " \(ICalendarDocument.maximumDepth) levels, the most a file may have")
      }
      var component = ICalendarComponent(name: name, line: property.line)
      if open.count < propertyCounts.count {
        component.properties.reserveCapacity(propertyCounts[open.count])
      }
      open.append(component)
    case "END":
      let name = ICalendarText.upperCaseName(String(property.value.trimmingWhitespace()))
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
      if open.count < propertyCounts.count {
        propertyCounts[open.count] = current.properties.count
      } else {
        propertyCounts.append(current.properties.count)
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

  /// The calendars, once the stream has ended.
  ///
  /// - Throws: ``ICalendarParseError`` when a component is still open, or there is no
  ///   calendar.
  func finish() throws(ICalendarParseError) -> [ICalendarComponent] {
    if let unclosed = open.last {
      throw ICalendarParseError(
        line: lastLine,
        reason: "the file ends inside BEGIN:\(Self.quoted(unclosed.name)) of line \(unclosed.line)")
    }
    guard !calendars.isEmpty else {
      throw ICalendarParseError(line: lastLine, reason: "no VCALENDAR in the file")
    }
    return calendars
  }

  /// A name as an error quotes it: 80 characters at most.
  private static func quoted(_ name: String) -> String { ICalendarText.excerpt(name) }
}

/// What the pieces of a stream read, each stored by the thread that read it.
private final class PieceResults: Sendable {
  private let results: Mutex<[ComponentAssembler?]>

  init(count: Int) { results = Mutex(Array(repeating: nil, count: count)) }

  func store(_ index: Int, _ result: ComponentAssembler?) {
    results.withLock { $0[index] = result }
  }

  func result(_ index: Int) -> ComponentAssembler? { results.withLock { $0[index] } }
}
