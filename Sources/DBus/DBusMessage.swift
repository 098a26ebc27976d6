/// One D-Bus message: its type, the header fields a client uses, and its body.
package struct DBusMessage: Sendable {
  package enum Kind: UInt8, Sendable {
    case methodCall = 1
    case methodReturn = 2
    case error = 3
    case signal = 4
  }

  package var kind: Kind
  package var serial: UInt32 = 0
  package var path: String?
  package var interface: String?
  package var member: String?
  package var errorName: String?
  package var replySerial: UInt32?
  package var destination: String?
  package var sender: String?
  package var body: [DBusValue] = []

  /// A method call.
  package static func call(
    destination: String, path: String, interface: String, member: String,
    _ body: [DBusValue] = []
  ) -> DBusMessage {
    DBusMessage(
      kind: .methodCall, path: path, interface: interface, member: member,
      destination: destination, body: body)
  }

  /// A signal.
  package static func signal(path: String, interface: String, member: String, _ body: [DBusValue])
    -> DBusMessage
  {
    DBusMessage(kind: .signal, path: path, interface: interface, member: member, body: body)
  }

  /// The message in the wire format, with `serial`.
  func encoded(serial: UInt32) -> [UInt8] {
    var fields: [DBusValue] = []
    func field(_ code: UInt8, _ value: DBusValue?) {
      if let value { fields.append(.structure([.byte(code), .variant(value)])) }
    }
    field(1, path.map(DBusValue.objectPath))
    field(2, interface.map(DBusValue.string))
    field(3, member.map(DBusValue.string))
    field(4, errorName.map(DBusValue.string))
    field(5, replySerial.map(DBusValue.uint32))
    field(6, destination.map(DBusValue.string))
    let signature = body.map(\.signature).joined()
    if !signature.isEmpty { field(8, .signature(signature)) }
    var bodyWriter = DBusWriter()
    for value in body { bodyWriter.write(value) }
    var writer = DBusWriter()
    for byte in [UInt8(ascii: "l"), kind.rawValue, 0, 1] { writer.write(.byte(byte)) }
    writer.uint32(UInt32(bodyWriter.bytes.count))
    writer.uint32(serial)
    writer.write(.array(elementSignature: "(yv)", fields))
    writer.align(8)
    return writer.bytes + bodyWriter.bytes
  }

  /// The total length of the message whose first 16 bytes are `header`, or nil when they are
  /// not a message this client reads (big-endian, or another protocol version).
  static func length(ofHeader header: [UInt8]) throws -> Int {
    guard header.count >= 16, header[0] == UInt8(ascii: "l"), header[3] == 1 else {
      throw DBusReader.Malformed(description: "not a little-endian D-Bus 1 message")
    }
    var reader = DBusReader(header)
    reader.offset = 4
    let bodyLength = Int(try reader.uint32())
    reader.offset = 12
    let fieldsLength = Int(try reader.uint32())
    let headerEnd = 16 + fieldsLength
    let padded = (headerEnd + 7) / 8 * 8
    return padded + bodyLength
  }

  /// Reads a whole message.
  static func decoded(_ bytes: [UInt8]) throws -> DBusMessage {
    guard bytes.count >= 16, let kind = Kind(rawValue: bytes[1]) else {
      throw DBusReader.Malformed(description: "an unknown message type")
    }
    var reader = DBusReader(bytes)
    reader.offset = 8
    var message = DBusMessage(kind: kind)
    message.serial = try reader.uint32()
    var fieldType = Substring("a(yv)")
    guard case .array(_, let fields) = try reader.read(&fieldType) else {
      throw DBusReader.Malformed(description: "no header fields")
    }
    var signature = ""
    for case .structure(let pair) in fields {
      guard pair.count == 2, case .byte(let code) = pair[0], case .variant(let value) = pair[1]
      else { continue }
      switch code {
      case 1: message.path = value.text
      case 2: message.interface = value.text
      case 3: message.member = value.text
      case 4: message.errorName = value.text
      case 5: message.replySerial = value.uint32
      case 6: message.destination = value.text
      case 7: message.sender = value.text
      case 8: signature = value.text ?? ""
      default: break
      }
    }
    try reader.align(8)
    var types = Substring(signature)
    while !types.isEmpty { message.body.append(try reader.read(&types)) }
    return message
  }
}
