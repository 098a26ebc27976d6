/// The D-Bus wire format, little-endian ("D-Bus Specification", "Marshaling (Wire Format)"):
/// each value aligned to its type's boundary from the start of the message.
struct DBusWriter {
  private(set) var bytes: [UInt8] = []

  mutating func align(_ boundary: Int) {
    while bytes.count % boundary != 0 { bytes.append(0) }
  }

  mutating func uint32(_ value: UInt32) {
    align(4)
    withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
  }

  mutating func write(_ value: DBusValue) {
    switch value {
    case .byte(let byte): bytes.append(byte)
    case .boolean(let flag): uint32(flag ? 1 : 0)
    case .int32(let number): uint32(UInt32(bitPattern: number))
    case .uint32(let number): uint32(number)
    case .string(let text), .objectPath(let text):
      let utf8 = Array(text.utf8)
      uint32(UInt32(utf8.count))
      bytes += utf8
      bytes.append(0)
    case .signature(let text):
      let utf8 = Array(text.utf8)
      bytes.append(UInt8(utf8.count))
      bytes += utf8
      bytes.append(0)
    case .array(let element, let values):
      uint32(0)  // the length, filled in below
      let lengthAt = bytes.count - 4
      align(DBusWire.alignment(of: element))
      let start = bytes.count
      for value in values { write(value) }
      let length = UInt32(bytes.count - start)
      withUnsafeBytes(of: length.littleEndian) {
        for (offset, byte) in $0.enumerated() { bytes[lengthAt + offset] = byte }
      }
    case .dictEntry(let key, let entry):
      align(8)
      write(key)
      write(entry)
    case .structure(let fields):
      align(8)
      for field in fields { write(field) }
    case .variant(let inner):
      write(.signature(inner.signature))
      write(inner)
    }
  }
}

/// Reads values written in the wire format; every read checks the bounds, and a malformed
/// message is an error, not a trap.
struct DBusReader {
  let bytes: [UInt8]
  var offset: Int
  /// Offsets align from this position (the start of the message).
  let origin: Int

  struct Malformed: Error, CustomStringConvertible {
    let description: String
  }

  init(_ bytes: [UInt8], offset: Int = 0, origin: Int = 0) {
    self.bytes = bytes
    self.offset = offset
    self.origin = origin
  }

  mutating func align(_ boundary: Int) throws {
    while (offset - origin) % boundary != 0 { offset += 1 }
    guard offset <= bytes.count else { throw Malformed(description: "a value past the end") }
  }

  mutating func byte() throws -> UInt8 {
    guard offset < bytes.count else { throw Malformed(description: "a byte past the end") }
    defer { offset += 1 }
    return bytes[offset]
  }

  mutating func uint32() throws -> UInt32 {
    try align(4)
    guard offset + 4 <= bytes.count else {
      throw Malformed(description: "a number past the end")
    }
    defer { offset += 4 }
    return UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8
      | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
  }

  private mutating func text(length: Int) throws -> String {
    guard length >= 0, offset + length + 1 <= bytes.count else {
      throw Malformed(description: "a string past the end")
    }
    defer { offset += length + 1 }
    return String(decoding: bytes[offset..<offset + length], as: UTF8.self)
  }

  /// Reads one value of the complete type at the start of `signature`, and removes that type
  /// from it.
  mutating func read(_ signature: inout Substring) throws -> DBusValue {
    guard let code = signature.popFirst() else {
      throw Malformed(description: "a value without a type")
    }
    switch code {
    case "y": return .byte(try byte())
    case "b": return .boolean(try uint32() != 0)
    case "i": return .int32(Int32(bitPattern: try uint32()))
    case "u": return .uint32(try uint32())
    case "s", "o":
      let text = try text(length: Int(try uint32()))
      return code == "s" ? .string(text) : .objectPath(text)
    case "g": return .signature(try text(length: Int(try byte())))
    case "v":
      var inner = Substring(try text(length: Int(try byte())))
      return .variant(try read(&inner))
    case "a":
      let element = try DBusWire.firstType(of: signature)
      signature = signature.dropFirst(element.count)
      let length = Int(try uint32())
      try align(DBusWire.alignment(of: element))
      let end = offset + length
      guard length >= 0, end <= bytes.count else {
        throw Malformed(description: "an array past the end")
      }
      var values: [DBusValue] = []
      while offset < end {
        var type = Substring(element)
        values.append(try read(&type))
      }
      return .array(elementSignature: element, values)
    case "(", "{":
      try align(8)
      var fields: [DBusValue] = []
      while let next = signature.first, next != ")" && next != "}" {
        fields.append(try read(&signature))
      }
      guard signature.popFirst() != nil else {
        throw Malformed(description: "an unclosed struct in the signature")
      }
      if code == "{", fields.count == 2 { return .dictEntry(fields[0], fields[1]) }
      return .structure(fields)
    default:
      throw Malformed(description: "the type '\(code)', which this client does not read")
    }
  }
}

enum DBusWire {
  /// The alignment of the first complete type of `signature`.
  static func alignment(of signature: String) -> Int {
    switch signature.first {
    case "y", "g", "v": 1
    case "(", "{", "x", "t", "d": 8
    default: 4
    }
  }

  /// The first complete type of `signature` (`a{sv}` of `a{sv}i`).
  static func firstType(of signature: Substring) throws -> String {
    var depth = 0
    var type = ""
    for character in signature {
      type.append(character)
      switch character {
      case "a": continue
      case "(", "{": depth += 1
      case ")", "}": depth -= 1
      default: break
      }
      if depth == 0 { return type }
    }
    throw DBusReader.Malformed(description: "an incomplete type in '\(signature)'")
  }
}
