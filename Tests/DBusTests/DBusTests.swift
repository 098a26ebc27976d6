import Foundation
import Synchronization
import TestSupport
import Testing

@testable import DBus

/// The D-Bus client against another implementation of the protocol: a notification service
/// written with python's dbus-next (TestSupport's ``NotificationService``) on a private
/// `dbus-daemon`. What the service read is what the client sent; its replies and signals are
/// what the client reads.
@Suite struct DBusTests {
  /// A notification's call as the agent sends it, with a variant of each kind it uses.
  static let notify = DBusMessage.call(
    destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
    interface: "org.freedesktop.Notifications", member: "Notify",
    [
      .string("ekctl"), .uint32(0), .string(""), .string("Dentist"),
      .string("15 minutes before\nMain Street 4 — Zürich"),
      .array(elementSignature: "s", [.string("show"), .string("Show")]),
      .array(
        elementSignature: "{sv}",
        [
          .dictEntry(.string("urgency"), .variant(.byte(1))),
          .dictEntry(.string("transient"), .variant(.boolean(true))),
          .dictEntry(.string("x"), .variant(.array(elementSignature: "s", []))),
        ]),
      .int32(-1),
    ])

  static func call(_ member: String, _ body: [DBusValue] = []) -> DBusMessage {
    var message = notify
    message.member = member
    message.body = body
    return message
  }

  @Test func notifyAndGetCapabilitiesReachAnotherImplementation() throws {
    let bus = try SessionBus()
    let service = try NotificationService(bus: bus)
    let client = try DBusConnection(address: bus.address)
    #expect(client.uniqueName.hasPrefix(":") && client.uniqueName != service.uniqueName)

    let reply = try client.call(Self.notify)
    #expect(reply.kind == .methodReturn && reply.body == [.uint32(1)])
    #expect(reply.sender == service.uniqueName)
    let notify = try #require(service.waitForCalls(1).first)
    #expect(notify.member == "Notify")
    #expect(notify.arguments.count == 8, "\(notify.arguments)")
    #expect(notify.arguments[0] as? String == "ekctl" && notify.arguments[1] as? Int == 0)
    #expect(notify.arguments[3] as? String == "Dentist")
    #expect(notify.arguments[4] as? String == "15 minutes before\nMain Street 4 — Zürich")
    #expect(notify.arguments[5] as? [String] == ["show", "Show"])
    let hints = try #require(notify.arguments[6] as? [String: [String: Any]])
    #expect(hints["urgency"]?["signature"] as? String == "y")
    #expect(hints["urgency"]?["value"] as? Int == 1)
    #expect(hints["transient"]?["value"] as? Bool == true)
    #expect(hints["x"]?["signature"] as? String == "as")
    #expect((hints["x"]?["value"] as? [Any])?.isEmpty == true)
    #expect(notify.arguments[7] as? Int == -1)

    let capabilities = try client.call(Self.call("GetCapabilities"))
    #expect(
      capabilities.body == [
        .array(
          elementSignature: "s", [.string("actions"), .string("body"), .string("body-markup")])
      ])
    #expect(try service.waitForCalls(2).last?.member == "GetCapabilities")
  }

  /// An error the service or the bus answers is a ``DBusConnection/Failure`` with its name.
  @Test func anErrorAnswerIsAFailureWithItsName() throws {
    let bus = try SessionBus()
    let service = try NotificationService(bus: bus)
    let client = try DBusConnection(address: bus.address)
    let unknown = #expect(throws: DBusConnection.Failure.self) {
      try client.call(Self.call("Dismiss"))
    }
    #expect(unknown?.errorName == "org.freedesktop.DBus.Error.UnknownMethod")
    var nobody = Self.call("GetCapabilities")
    nobody.destination = "org.example.Nobody"
    let absent = #expect(throws: DBusConnection.Failure.self) { try client.call(nobody) }
    #expect(absent?.errorName == "org.freedesktop.DBus.Error.ServiceUnknown")
    _ = service
  }

  @Test func signalsReachTheClient() throws {
    let bus = try SessionBus()
    let service = try NotificationService(bus: bus)
    let client = try DBusConnection(address: bus.address)
    let received = DispatchSemaphore(value: 0)
    let signals = Mutex([DBusMessage]())
    client.onSignal { signal in
      // The bus's own signals to this connection (NameAcquired, after Hello) come whatever
      // the match rules say, and may come late on a loaded machine: not the ones asked for.
      guard signal.interface == "org.freedesktop.Notifications" else { return }
      signals.withLock { $0.append(signal) }
      received.signal()
    }
    try client.addMatch("type='signal',interface='org.freedesktop.Notifications'")
    service.closeNotification(7, reason: 2)
    service.invokeAction("show", ofNotification: 8)
    for _ in 0..<2 {
      #expect(received.wait(timeout: .now() + 60) == .success, "\(service.output)")
    }
    let got = signals.withLock { $0 }
    #expect(got.map(\.member) == ["NotificationClosed", "ActionInvoked"])
    #expect(got.first?.body == [.uint32(7), .uint32(2)])
    #expect(got.last?.body == [.uint32(8), .string("show")])
    #expect(got.allSatisfy { $0.kind == .signal && $0.sender == service.uniqueName })
    #expect(got.allSatisfy { $0.path == "/org/freedesktop/Notifications" })
  }

  /// A service that takes the call and never answers costs the caller its timeout, as an
  /// error, and the connection goes on.
  @Test func aServiceThatNeverAnswersCostsTheTimeoutOnly() throws {
    let bus = try SessionBus()
    let service = try NotificationService(bus: bus, silent: true)
    let client = try DBusConnection(address: bus.address)
    let started = ContinuousClock.now
    let failure = #expect(throws: DBusConnection.Failure.self) {
      try client.call(Self.notify, timeout: 2)
    }
    print("DBusTests: a call unanswered failed after \(ContinuousClock.now - started)")
    #expect(failure?.errorName == "org.freedesktop.DBus.Error.NoReply")
    #expect(ContinuousClock.now - started < .seconds(30))
    #expect(try service.waitForCalls(1).first?.member == "Notify")
    // Sent without waiting: the reply handler gets the error at the deadline.
    let answered = DispatchSemaphore(value: 0)
    let answer = Mutex<DBusMessage?>(nil)
    try client.send(Self.notify, timeout: 1) { reply in
      answer.withLock { $0 = reply }
      answered.signal()
    }
    #expect(answered.wait(timeout: .now() + 60) == .success)
    #expect(answer.withLock { $0?.errorName } == "org.freedesktop.DBus.Error.NoReply")
    // The bus itself still answers.
    var ping = Self.call("GetId")
    ping.destination = "org.freedesktop.DBus"
    ping.path = "/org/freedesktop/DBus"
    ping.interface = "org.freedesktop.DBus"
    #expect(try client.call(ping).body.first?.text?.count == 32)
  }

  /// A socket that accepts the connection and never speaks: the client gives up at its
  /// timeout, with an error, instead of waiting for the bus forever.
  @Test func aBusThatNeverAnswersCostsTheTimeoutOnly() throws {
    let bus = try MuteBus()
    let started = ContinuousClock.now
    let failure = #expect(throws: DBusConnection.Failure.self) {
      try DBusConnection(address: bus.address, timeout: 2)
    }
    print("DBusTests: a mute bus was given up after \(ContinuousClock.now - started)")
    #expect(failure?.errorName == "org.freedesktop.DBus.Error.NoReply")
  }

  /// The bus goes away while a call waits: the call fails then, not at its timeout.
  @Test func aBusThatGoesAwayFailsWhatWaits() throws {
    let bus = try SessionBus()
    let service = try NotificationService(bus: bus, silent: true)
    let client = try DBusConnection(address: bus.address)
    let failed = DispatchSemaphore(value: 0)
    let failure = Mutex<DBusConnection.Failure?>(nil)
    Thread.detachNewThread {
      do {
        try client.call(Self.notify, timeout: 600)
      } catch let error as DBusConnection.Failure {
        failure.withLock { $0 = error }
      } catch {}
      failed.signal()
    }
    try service.waitForCalls(1)
    bus.stop()
    #expect(failed.wait(timeout: .now() + 60) == .success)
    #expect(failure.withLock { $0?.errorName } == "org.freedesktop.DBus.Error.Disconnected")
    #expect(throws: DBusConnection.Failure.self) { try client.call(Self.notify) }
  }

  /// What libdbus would abort the process for is refused first, as an error.
  @Test(arguments: [
    DBusValue.string("a\u{0}b"),
    .objectPath("not a path"),
    .signature("a{"),
    .array(elementSignature: "s", [.uint32(1)]),
    .array(elementSignature: "", []),
    .structure([]),
    .dictEntry(.string("outside"), .string("an array")),
    .array(elementSignature: "{vs}", [.dictEntry(.variant(.byte(1)), .string("key"))]),
    .variant(.dictEntry(.string("a"), .string("b"))),
  ])
  func aValueLibdbusRefusesIsAnErrorNotATrap(_ value: DBusValue) throws {
    let bus = try SessionBus()
    let client = try DBusConnection(address: bus.address)
    #expect(throws: DBusConnection.Failure.self) { try client.call(Self.call("Notify", [value])) }
    var path = Self.notify
    path.path = "relative/path"
    #expect(throws: DBusConnection.Failure.self) { try client.send(path) }
  }

  @Test func noBusIsSaidPlainly() {
    for address in ["unix:path=/nonexistent/bus", "tcp:host=localhost,port=1", "", "unix:"] {
      #expect(throws: DBusConnection.Failure.self) { try DBusConnection(address: address) }
    }
  }
}
