/// Writes components as RFC 5545 content lines: CRLF after each, folded so that no line is
/// longer than 75 octets (§3.1), never inside a UTF-8 sequence, parameter values quoted where
/// they must be. Output is deterministic: the same components always give the same bytes.
public struct ICalendarWriter: Sendable {
  public private(set) var bytes: [UInt8] = []
  private var line: [UInt8] = []
  private let folding: Bool

  /// A writer; `folding: false` writes each content line whole, for storage rather than
  /// interchange.
  public init(folding: Bool = true) { self.folding = folding }

  public mutating func write(_ component: ICalendarComponent) {
    writeLine(name: "BEGIN", value: component.name)
    for property in component.properties { write(property) }
    for child in component.components { write(child) }
    writeLine(name: "END", value: component.name)
  }

  public mutating func write(_ property: ICalendarProperty) {
    line.removeAll(keepingCapacity: true)
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
    emitFolded()
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
