import Foundation
import Synchronization

/// A connection to a message bus, through the system's libdbus-1: it connects, authenticates
/// and says `Hello` within a timeout; then method calls, whose replies are waited for or handed
/// to a closure, and the signals asked for (``addMatch(_:)``). Enough for a client of the
/// desktop's services. Every wait has a deadline: a bus or a service that never answers
/// costs the caller its timeout, and a closed bus fails what waits at once.
package final class DBusConnection: Sendable {
  /// Why a bus or a call cannot be used.
  package struct Failure: Error, CustomStringConvertible {
    package let description: String
    /// The D-Bus error's name, when the bus or the service answered with one (or
    /// `org.freedesktop.DBus.Error.NoReply` when nothing answered in time).
    package let errorName: String?
    package init(_ description: String, errorName: String? = nil) {
      self.description = description
      self.errorName = errorName
    }
    static let outOfMemory = Failure("libdbus has no memory for the message")
  }

  private let loop: DBusLoop
  /// The connection's unique name on the bus (`:1.42`).
  package let uniqueName: String

  /// Connects to the bus at `address` (`unix:path=…` or `unix:abstract=…`, the first that
  /// works of a `;`-separated list), authenticates and says Hello.
  ///
  /// - Parameters:
  ///   - address: A D-Bus server address, such as `DBUS_SESSION_BUS_ADDRESS`.
  ///   - timeout: How long the bus has to accept this connection, in seconds.
  /// - Throws: ``Failure`` naming what failed.
  package init(address: String, timeout: TimeInterval = 10) throws {
    // Unix sockets only: libdbus would also start a bus of its own (autolaunch:) or reach one
    // over TCP.
    let unix = address.split(separator: ";").filter { $0.hasPrefix("unix:") }
    guard !unix.isEmpty else {
      throw Failure("cannot connect to the bus: no unix: address in '\(address)'")
    }
    let loop = try DBusLoop(address: unix.joined(separator: ";"))
    do {
      let hello = try Self.call(
        .call(
          destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
          interface: "org.freedesktop.DBus", member: "Hello"), on: loop, timeout: timeout)
      uniqueName = hello.body.first?.text ?? ""
    } catch {
      loop.close()
      throw error
    }
    self.loop = loop
  }

  deinit { loop.close() }

  /// Ends the connection; pending calls fail.
  package func close() { loop.close() }

  /// Calls `handler` with each signal the connection receives, on the connection's thread:
  /// those a rule asked for (``addMatch(_:)``), and those the bus sends this connection
  /// whatever the rules say (`NameAcquired` after the connection's `Hello`, at any moment).
  /// A handler checks the interface and member of what it takes.
  package func onSignal(_ handler: @escaping @Sendable (DBusMessage) -> Void) {
    loop.signalHandler.withLock { $0 = handler }
  }

  /// Asks the bus for the signals a match rule names (`type='signal',interface='…'`).
  package func addMatch(_ rule: String) throws {
    try call(
      .call(
        destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
        interface: "org.freedesktop.DBus", member: "AddMatch", [.string(rule)]))
  }

  /// Sends a method call and waits for its reply.
  ///
  /// - Parameters:
  ///   - message: The call.
  ///   - timeout: How long to wait for the reply, in seconds.
  /// - Returns: The reply.
  /// - Throws: ``Failure`` with the error's name and message when the reply is an error, when
  ///   none came within `timeout`, when the call is not valid, or when the connection broke.
  @discardableResult
  package func call(_ message: DBusMessage, timeout: TimeInterval = 10) throws -> DBusMessage {
    try Self.call(message, on: loop, timeout: timeout)
  }

  /// Sends a method call without waiting; `onReply` gets its reply on the connection's thread,
  /// or an error: the service's, `org.freedesktop.DBus.Error.NoReply` after `timeout`
  /// seconds, `org.freedesktop.DBus.Error.Disconnected` when the connection ends.
  ///
  /// - Throws: ``Failure`` when the call is not valid or the connection has ended.
  package func send(
    _ message: DBusMessage, timeout: TimeInterval = 10,
    onReply: (@Sendable (DBusMessage) -> Void)? = nil
  ) throws {
    try loop.send(message, deadline: Self.deadline(timeout), onReply: onReply)
  }

  /// `timeout` seconds from now, a day at most: an infinite or NaN timeout is no deadline.
  private static func deadline(_ timeout: TimeInterval) -> ContinuousClock.Instant {
    .now + .seconds(timeout >= 0 && timeout < 86_400 ? timeout : timeout < 0 ? 0 : 86_400)
  }

  private static func call(_ message: DBusMessage, on loop: DBusLoop, timeout: TimeInterval)
    throws -> DBusMessage
  {
    let member = message.member ?? "a call"
    let done = DispatchSemaphore(value: 0)
    let reply = Mutex<DBusMessage?>(nil)
    let deadline = Self.deadline(timeout)
    try loop.send(message, deadline: deadline) { answer in
      reply.withLock { $0 = answer }
      done.signal()
    }
    // The thread answers at the deadline; the second is for a thread kept busy meanwhile.
    let left = ContinuousClock.now.duration(to: deadline) / .seconds(1)
    let answered = done.wait(timeout: .now() + left + 1) == .success
    let answer = (answered ? reply.withLock { $0 } : nil) ?? DBusLoop.noReply
    guard answer.kind == .error else { return answer }
    let text = answer.body.first?.text.map { ": " + $0 } ?? ""
    throw Failure(
      "\(member) failed: \(answer.errorName ?? "error")\(text)", errorName: answer.errorName)
  }
}
