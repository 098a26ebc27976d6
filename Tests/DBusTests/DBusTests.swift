import Foundation
import Synchronization
import TestSupport
import Testing

@testable import DBus

/// The D-Bus client: its wire format, and calls and signals through a real `dbus-daemon`.
@Suite struct DBusTests {
  /// A notification's call as the agent sends it.
  static let notify = DBusMessage.call(
    destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
    interface: "org.freedesktop.Notifications", member: "Notify",
    [
      .string("ekctl"), .uint32(0), .string(""), .string("Dentist"),
      .string("15 minutes before\nMain Street 4"),
      .array(elementSignature: "s", [.string("show"), .string("Show")]),
      .array(
        elementSignature: "{sv}",
        [
          .dictEntry(.string("urgency"), .variant(.byte(1))),
          .dictEntry(.string("x"), .variant(.array(elementSignature: "s", []))),
        ]),
      .int32(-1),
    ])

  @Test func aMessageReadsBackAsWritten() throws {
    let bytes = Self.notify.encoded(serial: 7)
    #expect(try DBusMessage.length(ofHeader: Array(bytes.prefix(16))) == bytes.count)
    let read = try DBusMessage.decoded(bytes)
    #expect(read.serial == 7 && read.kind == .methodCall)
    #expect(read.member == "Notify" && read.destination == "org.freedesktop.Notifications")
    #expect(read.path == "/org/freedesktop/Notifications")
    #expect(read.body == Self.notify.body)
    #expect(read.body.map(\.signature).joined() == "susssasa{sv}i")
  }

  @Test func aTruncatedOrForeignMessageIsAnErrorNotATrap() throws {
    let bytes = Self.notify.encoded(serial: 1)
    for cut in [0, 10, 16, 40, bytes.count - 1] {
      #expect(throws: (any Error).self) { try DBusMessage.decoded(Array(bytes.prefix(cut))) }
    }
    var bigEndian = bytes
    bigEndian[0] = UInt8(ascii: "B")
    #expect(throws: (any Error).self) {
      try DBusMessage.length(ofHeader: Array(bigEndian.prefix(16)))
    }
  }

  @Test func callsAndSignalsGoThroughARealBus() throws {
    let bus = try SessionBus()
    let service = try DBusConnection(address: bus.address)
    let client = try DBusConnection(address: bus.address)
    #expect(service.uniqueName.hasPrefix(":") && service.uniqueName != client.uniqueName)
    let calls = Mutex([DBusMessage]())
    service.onMethodCall { call in
      calls.withLock { $0.append(call) }
      return call.member == "Notify" ? [.uint32(42)] : nil
    }
    try service.requestName("org.freedesktop.Notifications")
    let reply = try client.call(Self.notify)
    #expect(reply.body == [.uint32(42)])
    #expect(calls.withLock { $0.first?.body } == Self.notify.body)
    // A method the service does not serve is an error with its name.
    var other = Self.notify
    other.member = "GetCapabilities"
    other.body = []
    #expect(throws: DBusConnection.Failure.self) { try client.call(other) }
    // Signals reach a connection that asked for them.
    let received = DispatchSemaphore(value: 0)
    let signals = Mutex([DBusMessage]())
    client.onSignal { signal in
      signals.withLock { $0.append(signal) }
      received.signal()
    }
    try client.addMatch(
      "type='signal',interface='org.freedesktop.Notifications',member='ActionInvoked'")
    try service.send(
      .signal(
        path: "/org/freedesktop/Notifications", interface: "org.freedesktop.Notifications",
        member: "ActionInvoked", [.uint32(42), .string("show")]))
    #expect(received.wait(timeout: .now() + 10) == .success)
    #expect(signals.withLock { $0.first?.body } == [.uint32(42), .string("show")])
  }

  @Test func anUnreachableBusIsSaidPlainly() {
    #expect(throws: DBusConnection.Failure.self) {
      try DBusConnection(address: "unix:path=/nonexistent/bus")
    }
    #expect(throws: DBusConnection.Failure.self) {
      try DBusConnection(address: "tcp:host=localhost,port=1")
    }
  }
}
