import CDBus

/// ``DBusValue``s to and from libdbus-1's message iterators. A value's type code is the first
/// character of its signature, but for a struct (`r`) and a dictionary entry (`e`).
extension DBusValue {
  /// Checks what libdbus checks with an abort (a NUL or invalid text in a string, an array
  /// element of another type than the array's), so that a bad value is an error instead.
  func validate() throws {
    switch self {
    case .byte, .boolean, .int32, .uint32: return
    case .string(let text), .objectPath(let text), .signature(let text):
      let valid =
        !text.utf8.contains(0)
        && text.withCString {
          switch self {
          case .objectPath: dbus_validate_path($0, nil) != 0
          case .signature: dbus_signature_validate($0, nil) != 0
          default: dbus_validate_utf8($0, nil) != 0
          }
        }
      guard valid else {
        throw DBusConnection.Failure("'\(text)' is not a valid D-Bus \(signature)")
      }
    case .array(let element, let values):
      for value in values {
        guard value.signature == element else {
          throw DBusConnection.Failure("an array of \(element) holds a \(value.signature)")
        }
        try value.validate()
      }
    case .dictEntry(let key, let value): for part in [key, value] { try part.validate() }
    case .structure(let fields): for field in fields { try field.validate() }
    case .variant(let inner):
      guard dbus_signature_validate_single(inner.signature, nil) != 0 else {
        throw DBusConnection.Failure("a variant cannot hold \(inner.signature)")
      }
      try inner.validate()
    }
  }

  /// Appends the value (checked by ``validate()``); false when libdbus has no memory for it.
  func append(to iterator: inout DBusMessageIter) -> Bool {
    let code: Int32 =
      switch self {
      case .structure: Int32(UInt8(ascii: "r"))
      case .dictEntry: Int32(UInt8(ascii: "e"))
      default: Int32(signature.utf8.first ?? 0)
      }
    func basic<Value: BitwiseCopyable>(_ value: Value) -> Bool {
      var value = value
      return dbus_message_iter_append_basic(&iterator, code, &value) != 0
    }
    func container(_ signature: String?, _ contents: [DBusValue]) -> Bool {
      var inner = DBusMessageIter()
      let opened =
        if let signature {
          dbus_message_iter_open_container(&iterator, code, signature, &inner)
        } else {
          dbus_message_iter_open_container(&iterator, code, nil, &inner)
        }
      guard opened != 0, contents.allSatisfy({ $0.append(to: &inner) }) else { return false }
      return dbus_message_iter_close_container(&iterator, &inner) != 0
    }
    switch self {
    case .byte(let byte): return basic(byte)
    case .boolean(let flag): return basic(dbus_bool_t(flag ? 1 : 0))
    case .int32(let number): return basic(number)
    case .uint32(let number): return basic(number)
    case .string(let text), .objectPath(let text), .signature(let text):
      return text.withCString { basic($0) }
    case .array(let element, let values): return container(element, values)
    case .dictEntry(let key, let value): return container(nil, [key, value])
    case .structure(let fields): return container(nil, fields)
    case .variant(let inner): return container(inner.signature, [inner])
    }
  }

  /// The values from `iterator` to the end of its message or container. A type this client
  /// does not read (64-bit and 16-bit numbers, doubles, file descriptors) ends them there.
  static func values(at iterator: inout DBusMessageIter) -> [DBusValue] {
    var values: [DBusValue] = []
    while let value = read(&iterator) {
      values.append(value)
      dbus_message_iter_next(&iterator)
    }
    return values
  }

  private static func read(_ iterator: inout DBusMessageIter) -> DBusValue? {
    func basic<Value: BitwiseCopyable>(_ empty: Value) -> Value {
      var value = empty
      dbus_message_iter_get_basic(&iterator, &value)
      return value
    }
    func contents() -> [DBusValue] {
      var inner = DBusMessageIter()
      dbus_message_iter_recurse(&iterator, &inner)
      return values(at: &inner)
    }
    func text() -> String { basic(UnsafePointer<CChar>?.none).map { String(cString: $0) } ?? "" }
    switch UInt8(truncatingIfNeeded: dbus_message_iter_get_arg_type(&iterator)) {
    case UInt8(ascii: "y"): return .byte(basic(0))
    case UInt8(ascii: "b"): return .boolean(basic(dbus_bool_t(0)) != 0)
    case UInt8(ascii: "i"): return .int32(basic(0))
    case UInt8(ascii: "u"): return .uint32(basic(0))
    case UInt8(ascii: "s"): return .string(text())
    case UInt8(ascii: "o"): return .objectPath(text())
    case UInt8(ascii: "g"): return .signature(text())
    case UInt8(ascii: "a"):
      guard let type = dbus_message_iter_get_signature(&iterator) else { return nil }
      defer { dbus_free(type) }
      return .array(elementSignature: String(String(cString: type).dropFirst()), contents())
    case UInt8(ascii: "e"):
      let pair = contents()
      return pair.count == 2 ? .dictEntry(pair[0], pair[1]) : nil
    case UInt8(ascii: "r"): return .structure(contents())
    case UInt8(ascii: "v"): return contents().first.map(DBusValue.variant)
    default: return nil
    }
  }
}
