import CDBus

/// One D-Bus message as this module's callers see it: its type, the header fields a client
/// uses, and its body. libdbus-1 reads and writes the wire format (DBusMarshaling.swift).
package struct DBusMessage: Sendable {
  package enum Kind: Int32, Sendable {
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
}

/// To and from libdbus-1's messages.
extension DBusMessage {
  /// The message libdbus received, read whole: it stays libdbus's.
  init(reading message: OpaquePointer) {
    kind = Kind(rawValue: dbus_message_get_type(message)) ?? .signal
    serial = dbus_message_get_serial(message)
    let text = { (field: UnsafePointer<CChar>?) in field.map { String(cString: $0) } }
    path = text(dbus_message_get_path(message))
    interface = text(dbus_message_get_interface(message))
    member = text(dbus_message_get_member(message))
    errorName = text(dbus_message_get_error_name(message))
    replySerial =
      kind == .methodReturn || kind == .error
      ? dbus_message_get_reply_serial(message) : nil
    destination = text(dbus_message_get_destination(message))
    sender = text(dbus_message_get_sender(message))
    var arguments = DBusMessageIter()
    if dbus_message_iter_init(message, &arguments) != 0 {
      body = DBusValue.values(at: &arguments)
    }
  }

  /// The method call as a libdbus message, to be released with `dbus_message_unref`. Its
  /// names and body are checked first: libdbus aborts the process on what it refuses.
  ///
  /// - Throws: ``DBusConnection/Failure`` naming what is not valid, or when the message is
  ///   not a method call.
  func libdbusCall() throws -> OpaquePointer {
    guard kind == .methodCall, let destination, let path, let interface, let member else {
      throw DBusConnection.Failure(
        "only method calls with a destination, path, interface and member are sent")
    }
    guard dbus_validate_bus_name(destination, nil) != 0, dbus_validate_path(path, nil) != 0,
      dbus_validate_interface(interface, nil) != 0, dbus_validate_member(member, nil) != 0
    else {
      throw DBusConnection.Failure(
        "\(destination) \(path) \(interface).\(member) is not a valid call")
    }
    for value in body { try value.validate() }
    guard dbus_signature_validate(body.map(\.signature).joined(), nil) != 0 else {
      throw DBusConnection.Failure("\(member)'s arguments have no valid D-Bus signature")
    }
    guard let message = dbus_message_new_method_call(destination, path, interface, member) else {
      throw DBusConnection.Failure.outOfMemory
    }
    var arguments = DBusMessageIter()
    dbus_message_iter_init_append(message, &arguments)
    for value in body where !value.append(to: &arguments) {
      dbus_message_unref(message)
      throw DBusConnection.Failure.outOfMemory
    }
    return message
  }
}
