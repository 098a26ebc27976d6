/// Writes components as RFC 5545 content lines: CRLF after each, folded so that no line is
/// longer than 75 octets (§3.1), never inside a UTF-8 sequence, parameter values quoted where
/// they must be. Output is deterministic: the same components always give the same bytes.
///
/// ``ICalendarDocument/serialized()`` uses it for whole documents; use it directly to write
/// single components or properties, or to stream several calendars into one buffer.
///
/// ```swift
/// var event = ICalendarComponent(name: "VEVENT")
/// event.append(ICalendarProperty(name: "UID", value: "42@example.com"))
/// event.append(ICalendarProperty(name: "SUMMARY", text: "Review, then lunch"))
///
/// var writer = ICalendarWriter()
/// writer.write(event)
/// print(String(decoding: writer.bytes, as: UTF8.self))
/// // BEGIN:VEVENT
/// // UID:42@example.com
/// // SUMMARY:Review\, then lunch
/// // END:VEVENT
/// // (each line ending in CRLF)
/// ```
public struct ICalendarWriter: Sendable {
  /// Everything written so far: UTF-8 content lines, each ending in CRLF.
  public private(set) var bytes: [UInt8] = []
  private var line: [UInt8] = []
  private let folding: Bool

  /// A writer with nothing written yet.
  ///
  /// ```swift
  /// var writer = ICalendarWriter(folding: false)
  /// writer.write(ICalendarProperty(name: "DESCRIPTION", text: String(repeating: "a", count: 100)))
  /// print(writer.bytes.count)  // 114: "DESCRIPTION:", 100 letters and CRLF on one line
  /// ```
  ///
  /// - Parameter folding: Whether to fold lines longer than 75 octets (§3.1), as interchange
  ///   requires; `false` writes each content line whole, for storage rather than interchange.
  public init(folding: Bool = true) { self.folding = folding }

  /// Appends a component: its BEGIN line, its properties in order, the components inside it
  /// (recursively), and its END line.
  ///
  /// ```swift
  /// var writer = ICalendarWriter()
  /// for uid in ["1@example.com", "2@example.com"] {
  ///   writer.write(
  ///     ICalendarComponent(
  ///       name: "VTODO", properties: [ICalendarProperty(name: "UID", value: uid)]))
  /// }
  /// print(String(decoding: writer.bytes, as: UTF8.self).split(separator: "\r\n").count)  // 6
  /// ```
  ///
  /// - Parameter component: The component to write, with everything inside it.
  public mutating func write(_ component: ICalendarComponent) {
    writeLine(name: "BEGIN", value: component.name)
    for property in component.properties { write(property) }
    for child in component.components { write(child) }
    writeLine(name: "END", value: component.name)
  }

  /// Appends one property as a content line, `NAME;PARAM=value:value`: the value as it is
  /// (escapes included, see ``ICalendarProperty/value``), each parameter value caret-escaped
  /// (RFC 6868) and quoted where it holds `:`, `;` or `,` (§3.2).
  ///
  /// ```swift
  /// var writer = ICalendarWriter()
  /// writer.write(
  ///   ICalendarProperty(
  ///     name: "ATTENDEE", parameters: [ICalendarParameter(name: "CN", value: "Doe, Jane")],
  ///     value: "mailto:jane@example.com"))
  /// print(String(decoding: writer.bytes, as: UTF8.self))
  /// // ATTENDEE;CN="Doe, Jane":mailto:jane@example.com
  /// ```
  ///
  /// - Parameter property: The property to write.
  public mutating func write(_ property: ICalendarProperty) {
    line.removeAll(keepingCapacity: true)
    Self.append(property, to: &line)
    emitFolded()
  }

  /// The content line of a property, unfolded and without its CRLF: what writing a property
  /// folds, and what ``ICalendarProperty/contentLine`` is.
  static func append(_ property: ICalendarProperty, to line: inout [UInt8]) {
    line.append(contentsOf: property.name.utf8)
    for parameter in property.parameters {
      line.append(UInt8(ascii: ";"))
      line.append(contentsOf: parameter.name.utf8)
      line.append(UInt8(ascii: "="))
      for (index, value) in parameter.values.enumerated() {
        if index > 0 { line.append(UInt8(ascii: ",")) }
        line.append(contentsOf: ICalendarText.encodeParameter(value).utf8)
      }
    }
    line.append(UInt8(ascii: ":"))
    line.append(contentsOf: property.value.utf8)
  }

  private mutating func writeLine(name: String, value: String) {
    line.removeAll(keepingCapacity: true)
    line.append(contentsOf: name.utf8)
    line.append(UInt8(ascii: ":"))
    line.append(contentsOf: value.utf8)
    emitFolded()
  }

  /// The longest a line may be, in octets, without its CRLF.
  static let foldWidth = 75

  private mutating func emitFolded() {
    var start = 0
    var limit = Self.foldWidth
    while folding, line.count - start > limit {
      var end = start + limit
      // Back up to the start of a UTF-8 sequence: continuation bytes are 0b10xxxxxx.
      while end > start + 1, line[end] & 0xC0 == 0x80 { end -= 1 }
      bytes.append(contentsOf: line[start..<end])
      bytes.append(contentsOf: [0x0D, 0x0A, 0x20])
      start = end
      limit = Self.foldWidth - 1  // the leading space counts
    }
    bytes.append(contentsOf: line[start...])
    bytes.append(contentsOf: [0x0D, 0x0A])
  }
}
