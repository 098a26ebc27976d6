import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A connection to a message bus over a Unix socket: authenticated as this user (SASL
/// EXTERNAL), named by `Hello`, then method calls with their replies and the signals the
/// connection asked for ("D-Bus Specification", "Authentication Protocol", "Message Bus
/// Specification"). Enough for a client of the desktop's services, and for answering simple
/// method calls (``onMethodCall(_:)``), as a test's stand-in for a service does.
package final class DBusConnection: @unchecked Sendable {
  /// Why a bus cannot be used.
  package struct Failure: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
  }

  private let socket: Int32
  private let writeLock = Mutex(UInt32(0))  // the last serial used
  private let pending = Mutex([UInt32: @Sendable (DBusMessage) -> Void]())
  private let signalHandler = Mutex<(@Sendable (DBusMessage) -> Void)?>(nil)
  private let callHandler = Mutex<(@Sendable (DBusMessage) -> [DBusValue]?)?>(nil)
  /// The connection's unique name on the bus (`:1.42`).
  package private(set) var uniqueName = ""

  /// Connects to the bus at `address` (`unix:path=…` or `unix:abstract=…`, the first that
  /// works of a `;`-separated list), authenticates and says Hello.
  ///
  /// - Parameter address: A D-Bus server address, such as `DBUS_SESSION_BUS_ADDRESS`.
  /// - Throws: ``Failure`` naming the address and what failed.
  package init(address: String) throws {
    var lastError = "no unix: address in '\(address)'"
    var connected: Int32?
    for entry in address.split(separator: ";") {
      guard entry.hasPrefix("unix:") else { continue }
      var options: [String: String] = [:]
      for pair in entry.dropFirst(5).split(separator: ",") {
        let parts = pair.split(separator: "=", maxSplits: 1)
        if parts.count == 2 { options[String(parts[0])] = Self.unescape(String(parts[1])) }
      }
      do {
        if let path = options["path"] {
          connected = try Self.connect(path: path, abstract: false)
        } else if let name = options["abstract"] {
          connected = try Self.connect(path: name, abstract: true)
        } else {
          continue
        }
        break
      } catch let failure as Failure {
        lastError = failure.description
      }
    }
    guard let connected else { throw Failure("cannot connect to the bus: \(lastError)") }
    socket = connected
    do {
      try authenticate()
    } catch {
      Glibc.close(socket)
      throw error
    }
    Thread.detachNewThread { [self] in readMessages() }
    let hello = try call(
      .call(
        destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
        interface: "org.freedesktop.DBus", member: "Hello"))
    uniqueName = hello.body.first?.text ?? ""
  }

  deinit { shutdown(socket, Int32(SHUT_RDWR)) }

  /// Ends the connection; pending calls fail.
  package func close() { shutdown(socket, Int32(SHUT_RDWR)) }

  /// Calls `handler` with each signal the connection receives (after ``addMatch(_:)``), on
  /// the connection's reading thread.
  package func onSignal(_ handler: @escaping @Sendable (DBusMessage) -> Void) {
    signalHandler.withLock { $0 = handler }
  }

  /// Answers each method call the connection receives with the body `handler` returns, or
  /// with an `org.freedesktop.DBus.Error.UnknownMethod` error when it returns nil; on the
  /// connection's reading thread.
  package func onMethodCall(_ handler: @escaping @Sendable (DBusMessage) -> [DBusValue]?) {
    callHandler.withLock { $0 = handler }
  }

  /// Takes a well-known name on the bus (`org.freedesktop.Notifications`), so that calls to
  /// it come here.
  ///
  /// - Throws: ``Failure`` when the bus refuses, or the name has another owner.
  package func requestName(_ name: String) throws {
    let reply = try call(
      .call(
        destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
        interface: "org.freedesktop.DBus", member: "RequestName",
        [.string(name), .uint32(4)]))  // DBUS_NAME_FLAG_DO_NOT_QUEUE
    guard reply.body.first?.uint32 == 1 else {  // DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER
      throw Failure("the name \(name) is taken")
    }
  }

  /// Asks the bus for the signals a match rule names (`type='signal',interface='…'`).
  package func addMatch(_ rule: String) throws {
    _ = try call(
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
  ///   none came within `timeout`, or when the connection broke.
  @discardableResult
  package func call(_ message: DBusMessage, timeout: TimeInterval = 10) throws -> DBusMessage {
    let done = DispatchSemaphore(value: 0)
    let reply = Mutex<DBusMessage?>(nil)
    let serial = try send(message) { answer in
      reply.withLock { $0 = answer }
      done.signal()
    }
    guard done.wait(timeout: .now() + timeout) == .success, let answer = reply.withLock({ $0 })
    else {
      pending.withLock { _ = $0.removeValue(forKey: serial) }
      throw Failure("\(message.member ?? "a call") got no answer in \(Int(timeout)) s")
    }
    if answer.kind == .error {
      let text = answer.body.first?.text.map { ": " + $0 } ?? ""
      throw Failure("\(message.member ?? "a call") failed: \(answer.errorName ?? "error")\(text)")
    }
    return answer
  }

  /// Sends a message; `onReply` (for a method call) gets its reply on the reading thread.
  @discardableResult
  package func send(
    _ message: DBusMessage, onReply: (@Sendable (DBusMessage) -> Void)? = nil
  ) throws
    -> UInt32
  {
    try writeLock.withLock { last in
      last &+= 1
      if let onReply { pending.withLock { $0[last] = onReply } }
      try writeAll(message.encoded(serial: last))
      return last
    }
  }

  // MARK: The socket

  private static func connect(path: String, abstract: Bool) throws -> Int32 {
    let descriptor = Glibc.socket(
      AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard descriptor >= 0 else { throw Failure("socket: \(String(cString: strerror(errno)))") }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let name = Array(path.utf8)
    let capacity = MemoryLayout.size(ofValue: address.sun_path)
    let offset = abstract ? 1 : 0
    guard name.count + offset < capacity else {
      Glibc.close(descriptor)
      throw Failure("the socket path \(path) is too long")
    }
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      for (index, byte) in name.enumerated() { raw[index + offset] = byte }
    }
    let length = MemoryLayout<sa_family_t>.size + offset + name.count + (abstract ? 0 : 1)
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(descriptor, $0, socklen_t(length))
      }
    }
    guard result == 0 else {
      let reason = String(cString: strerror(errno))
      Glibc.close(descriptor)
      throw Failure("\(abstract ? "@" : "")\(path): \(reason)")
    }
    return descriptor
  }

  /// SASL EXTERNAL: the kernel tells the bus who is connecting; the client names its uid.
  private func authenticate() throws {
    let uid = String(getuid())
    let hex = uid.utf8.map { String(format: "%02x", $0) }.joined()
    try writeAll([0] + Array("AUTH EXTERNAL \(hex)\r\n".utf8))
    let answer = try readLine()
    guard answer.hasPrefix("OK ") else {
      throw Failure("the bus refused to authenticate this user: \(answer)")
    }
    try writeAll(Array("BEGIN\r\n".utf8))
  }

  private func readLine() throws -> String {
    var line: [UInt8] = []
    var byte: UInt8 = 0
    while !line.suffix(2).elementsEqual([13, 10]) {
      guard read(socket, &byte, 1) == 1 else { throw Failure("the bus closed the connection") }
      line.append(byte)
      guard line.count < 4096 else { throw Failure("the bus sent an overlong line") }
    }
    return String(decoding: line.dropLast(2), as: UTF8.self)
  }

  private func writeAll(_ bytes: [UInt8]) throws {
    var sent = 0
    while sent < bytes.count {
      let count = bytes[sent...].withUnsafeBytes {
        Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      guard count > 0 else {
        if count < 0 && errno == EINTR { continue }
        throw Failure("cannot write to the bus: \(String(cString: strerror(errno)))")
      }
      sent += count
    }
  }

  private func readExactly(_ count: Int) -> [UInt8]? {
    var bytes = [UInt8](repeating: 0, count: count)
    var got = 0
    while got < count {
      let result = bytes.withUnsafeMutableBytes {
        read(socket, $0.baseAddress! + got, count - got)
      }
      if result < 0 && errno == EINTR { continue }
      guard result > 0 else { return nil }
      got += result
    }
    return bytes
  }

  /// The reading thread: replies to their callers, signals to the handler, until the
  /// connection ends or a message cannot be read.
  private func readMessages() {
    while let header = readExactly(16), let length = try? DBusMessage.length(ofHeader: header),
      length >= 16, length < 128 << 20, let rest = readExactly(length - 16),
      let message = try? DBusMessage.decoded(header + rest)
    {
      switch message.kind {
      case .methodReturn, .error:
        if let serial = message.replySerial,
          let handler = pending.withLock({ $0.removeValue(forKey: serial) })
        {
          handler(message)
        }
      case .signal:
        signalHandler.withLock { $0 }?(message)
      case .methodCall:
        answer(message)
      }
    }
    // The connection ended: whoever waits for a reply learns it at their timeout.
  }

  private func answer(_ call: DBusMessage) {
    var reply = DBusMessage(kind: .methodReturn)
    reply.replySerial = call.serial
    reply.destination = call.sender
    if let body = callHandler.withLock({ $0 })?(call) {
      reply.body = body
    } else {
      reply.kind = .error
      reply.errorName = "org.freedesktop.DBus.Error.UnknownMethod"
      reply.body = [.string("\(call.member ?? "this method") is not served here")]
    }
    _ = try? send(reply)
  }

  private static func unescape(_ text: String) -> String {
    var bytes: [UInt8] = []
    var iterator = Array(text.utf8).makeIterator()
    while let byte = iterator.next() {
      if byte == UInt8(ascii: "%"), let high = iterator.next(), let low = iterator.next(),
        let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
      {
        bytes.append(value)
      } else {
        bytes.append(byte)
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
