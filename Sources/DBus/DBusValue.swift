/// A value of the D-Bus type system, as far as a client sending notifications needs it: the
/// basic types, arrays, dictionaries, structs and variants ("D-Bus Specification", "Type
/// System").
package indirect enum DBusValue: Hashable, Sendable {
  case byte(UInt8)
  case boolean(Bool)
  case int32(Int32)
  case uint32(UInt32)
  case string(String)
  case objectPath(String)
  case signature(String)
  /// An array of values of one type, given by its signature (`s`, `{sv}`…) so that an empty
  /// array has one too.
  case array(elementSignature: String, [DBusValue])
  /// A dictionary entry, only inside an array: `{kv}`.
  case dictEntry(DBusValue, DBusValue)
  case structure([DBusValue])
  case variant(DBusValue)

  /// The value's type signature.
  package var signature: String {
    switch self {
    case .byte: "y"
    case .boolean: "b"
    case .int32: "i"
    case .uint32: "u"
    case .string: "s"
    case .objectPath: "o"
    case .signature: "g"
    case .array(let element, _): "a" + element
    case .dictEntry(let key, let value): "{" + key.signature + value.signature + "}"
    case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
    case .variant: "v"
    }
  }

  /// The string of a `.string`, `.objectPath` or `.signature`; nil otherwise.
  package var text: String? {
    switch self {
    case .string(let text), .objectPath(let text), .signature(let text): text
    default: nil
    }
  }

  /// The number of a `.uint32`; nil otherwise.
  package var uint32: UInt32? {
    if case .uint32(let value) = self { return value }
    return nil
  }
}
