/// JSON text (RFC 8259) for the store's columns, written by hand.
///
/// Every saved alarm, participant and place, and every property an import keeps, becomes a
/// column's JSON text. Foundation's `JSONEncoder` took about 60,000 instructions for an
/// event's alarms or participants (a sixth of reading an imported event), where writing the
/// bytes directly takes a few hundred. The text is what `JSONEncoder` with `.sortedKeys`
/// writes, except that `/` is not escaped, and `JSONDecoder` reads it back
/// (``JSONColumn/value(_:from:)``); each value lists its keys in sorted order itself.
///
/// ```swift
/// var json = JSONColumnWriter()
/// json.beginObject()
/// json.key("relativeOffset")
/// json.number(-900)
/// json.endObject()
/// json.text  // {"relativeOffset":-900}
/// ```
struct JSONColumnWriter {
  private var bytes: [UInt8] = []
  /// Whether the next value in the current object or array follows another.
  private var needsComma = false
  /// Whether a number could not be written (infinite or NaN: JSON has no such number).
  private(set) var failed = false

  init() { bytes.reserveCapacity(128) }

  /// The text written, nil when a number could not be written.
  var text: String? { failed ? nil : String(decoding: bytes, as: UTF8.self) }

  mutating func beginObject() { open(UInt8(ascii: "{")) }
  mutating func endObject() { close(UInt8(ascii: "}")) }
  mutating func beginArray() { open(UInt8(ascii: "[")) }
  mutating func endArray() { close(UInt8(ascii: "]")) }

  private mutating func open(_ bracket: UInt8) {
    separate()
    bytes.append(bracket)
    needsComma = false
  }

  private mutating func close(_ bracket: UInt8) {
    bytes.append(bracket)
    needsComma = true
  }

  /// The name of the object's next member; its value is written next.
  mutating func key(_ name: StaticString) {
    separate()
    bytes.append(UInt8(ascii: "\""))
    name.withUTF8Buffer { bytes.append(contentsOf: $0) }
    bytes.append(UInt8(ascii: "\""))
    bytes.append(UInt8(ascii: ":"))
    needsComma = false
  }

  /// A string literal (RFC 8259 §7): quotes, backslashes and control characters escaped,
  /// everything else as it is.
  mutating func string(_ text: String) {
    separate()
    bytes.append(UInt8(ascii: "\""))
    var text = text
    text.withUTF8 { utf8 in
      // Most texts need no escape: copied whole.
      guard
        utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") })
      else {
        bytes.append(contentsOf: utf8)
        return
      }
      for byte in utf8 { escape(byte) }
    }
    bytes.append(UInt8(ascii: "\""))
    needsComma = true
  }

  private mutating func escape(_ byte: UInt8) {
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"):
      bytes.append(UInt8(ascii: "\\"))
      bytes.append(byte)
    case 0x0A: appendEscape(UInt8(ascii: "n"))
    case 0x0D: appendEscape(UInt8(ascii: "r"))
    case 0x09: appendEscape(UInt8(ascii: "t"))
    case ..<0x20:
      let hex: StaticString = "0123456789abcdef"
      bytes.append(contentsOf: "\\u00".utf8)
      hex.withUTF8Buffer { digits in
        bytes.append(digits[Int(byte >> 4)])
        bytes.append(digits[Int(byte & 0xF)])
      }
    default: bytes.append(byte)
    }
  }

  private mutating func appendEscape(_ letter: UInt8) {
    bytes.append(UInt8(ascii: "\\"))
    bytes.append(letter)
  }

  /// A number as Swift prints it, the shortest text that reads back to the same `Double`
  /// (`-0` keeps its sign), without a trailing `.0`, as `JSONEncoder` writes it.
  mutating func number(_ value: Double) {
    guard value.isFinite else {
      failed = true
      return
    }
    separate()
    var text = value.description
    if text.hasSuffix(".0") { text.removeLast(2) }
    bytes.append(contentsOf: text.utf8)
    needsComma = true
  }

  mutating func integer(_ value: Int) {
    separate()
    bytes.append(contentsOf: value.description.utf8)
    needsComma = true
  }

  mutating func bool(_ value: Bool) {
    separate()
    bytes.append(contentsOf: (value ? "true" : "false").utf8)
    needsComma = true
  }

  private mutating func separate() {
    if needsComma { bytes.append(UInt8(ascii: ",")) }
  }
}

/// A value kept as a JSON column, written by ``JSONColumnWriter`` and read back by its
/// `Decodable` conformance.
protocol JSONColumnValue {
  /// Writes the value, an object's members with their keys in sorted order.
  func write(to json: inout JSONColumnWriter)
}

extension Array: JSONColumnValue where Element: JSONColumnValue {
  func write(to json: inout JSONColumnWriter) {
    json.beginArray()
    for element in self { element.write(to: &json) }
    json.endArray()
  }
}

extension String: JSONColumnValue {
  func write(to json: inout JSONColumnWriter) { json.string(self) }
}
