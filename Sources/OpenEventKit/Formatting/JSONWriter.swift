/// JSON text (RFC 8259), written by hand: the package's one way of writing JSON.
///
/// The store writes every saved alarm, participant and place, and every property an import
/// keeps, as a column's JSON text; `ekctl --json` writes a line per occurrence of a window,
/// which can be millions. Foundation's `JSONEncoder` took about 60,000 instructions for an
/// event's alarms or participants (a sixth of reading an imported event), where writing the
/// bytes directly takes a few hundred (docs/PERFORMANCE.md, `ekbench json`). The text is what
/// `JSONEncoder` with `.sortedKeys` writes for the same members, except that `/` is not
/// escaped; `JSONDecoder` reads it back. The order of an object's members is the caller's:
/// the store's values write theirs sorted (``JSONColumnValue``), ekctl's lines in the order
/// that reads well.
///
/// Strings escape quotes, backslashes and control characters (`\n`, `\r`, `\t`, the others
/// as `\u00XX`) and keep everything else as it is, so a title's emoji stays one character.
///
/// ```swift
/// var json = JSONWriter()
/// json.beginObject()
/// json.member("title", "Tea \"now\"")
/// json.key("relativeOffset")
/// json.number(-900)
/// json.endObject()
/// json.text  // {"title":"Tea \"now\"","relativeOffset":-900}
/// ```
package struct JSONWriter {
  private var bytes: [UInt8] = []
  /// Whether the next value in the current object or array follows another.
  private var needsComma = false
  /// Whether a number could not be written (infinite or NaN: JSON has no such number); it
  /// was written as `null`.
  package private(set) var failed = false

  package init() { bytes.reserveCapacity(128) }

  /// The text written so far.
  package var text: String { String(decoding: bytes, as: UTF8.self) }

  /// The text written since the last take, which the writer forgets: a long array is
  /// written out in pieces as it is made (`ekctl rrule --batch`), never held whole.
  package mutating func takeText() -> String {
    defer { bytes.removeAll(keepingCapacity: true) }
    return text
  }

  /// One object, its members written by `members`, as text: a line of JSON Lines.
  ///
  /// ```swift
  /// JSONWriter.object { $0.member("allDay", true) }  // {"allDay":true}
  /// ```
  package static func object(_ members: (inout JSONWriter) -> Void) -> String {
    var json = JSONWriter()
    json.beginObject()
    members(&json)
    json.endObject()
    return json.text
  }

  package mutating func beginObject() { open(UInt8(ascii: "{")) }
  package mutating func endObject() { close(UInt8(ascii: "}")) }
  package mutating func beginArray() { open(UInt8(ascii: "[")) }
  package mutating func endArray() { close(UInt8(ascii: "]")) }

  private mutating func open(_ bracket: UInt8) {
    separate()
    bytes.append(bracket)
    needsComma = false
  }

  private mutating func close(_ bracket: UInt8) {
    bytes.append(bracket)
    needsComma = true
  }

  /// The name of the object's next member; its value is written next. A literal name is
  /// copied as it is: it must need no escape (the package's names are ASCII words).
  package mutating func key(_ name: StaticString) {
    separate()
    bytes.append(UInt8(ascii: "\""))
    name.withUTF8Buffer { bytes.append(contentsOf: $0) }
    bytes.append(UInt8(ascii: "\""))
    bytes.append(UInt8(ascii: ":"))
    needsComma = false
  }

  /// The name of the object's next member, escaped as a string is: a name made at run time.
  package mutating func key(escaping name: String) {
    string(name)
    bytes.append(UInt8(ascii: ":"))
    needsComma = false
  }

  /// A string literal (RFC 8259 §7): quotes, backslashes and control characters escaped,
  /// everything else as it is.
  package mutating func string(_ text: String) {
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
  /// (`-0` keeps its sign), without a trailing `.0`, as `JSONEncoder` writes it. An infinite
  /// or NaN value is written as `null` and marks the text ``failed``.
  package mutating func number(_ value: Double) {
    guard value.isFinite else {
      failed = true
      null()
      return
    }
    separate()
    var text = value.description
    if text.hasSuffix(".0") { text.removeLast(2) }
    bytes.append(contentsOf: text.utf8)
    needsComma = true
  }

  package mutating func integer(_ value: Int) {
    separate()
    bytes.append(contentsOf: value.description.utf8)
    needsComma = true
  }

  package mutating func bool(_ value: Bool) {
    separate()
    bytes.append(contentsOf: (value ? "true" : "false").utf8)
    needsComma = true
  }

  package mutating func null() {
    separate()
    bytes.append(contentsOf: "null".utf8)
    needsComma = true
  }

  /// A member whose value is a string, or `null` for nil.
  package mutating func member(_ name: StaticString, _ value: String?) {
    key(name)
    if let value { string(value) } else { null() }
  }

  package mutating func member(_ name: StaticString, _ value: Int) {
    key(name)
    integer(value)
  }

  package mutating func member(_ name: StaticString, _ value: Bool) {
    key(name)
    bool(value)
  }

  private mutating func separate() {
    if needsComma { bytes.append(UInt8(ascii: ",")) }
  }
}
