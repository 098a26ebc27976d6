import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A server a test runs as a real process on 127.0.0.1 (Radicale, the Digest proxy): started,
/// waited for until it answers HTTP, stopped with SIGTERM and then SIGKILL, and started again
/// on the same port.
public final class ServerProcess: @unchecked Sendable {
  /// The server did not start, or did not answer in time.
  public struct NotStarted: Error, CustomStringConvertible {
    public let description: String
  }

  /// The port it listens on.
  public let port: Int
  private let executable: URL
  private let arguments: [String]
  private let log: URL
  private let lock = NSLock()
  private var process: Process?

  /// Whether the server speaks TLS: then it is ready once it accepts connections, since a
  /// plain request would not be answered.
  private let tls: Bool

  /// A server run as `executable arguments`, its output appended to `log`; not started yet.
  public init(executable: URL, arguments: [String], port: Int, log: URL, tls: Bool = false) {
    self.executable = executable
    self.arguments = arguments
    self.port = port
    self.log = log
    self.tls = tls
  }

  deinit { stop() }

  /// Whether the process is running.
  public var isRunning: Bool { lock.withLock { process?.isRunning ?? false } }

  /// What the server has written so far, for a failure's message.
  public var output: String {
    (try? String(contentsOf: log, encoding: .utf8)) ?? ""
  }

  /// Starts the process and waits until it answers HTTP on its port (`timeout` seconds at
  /// most); throws ``NotStarted`` with its output when it ends or never answers.
  public func start(timeout: TimeInterval = 60) throws {
    stop()
    if !FileManager.default.fileExists(atPath: log.path) {
      _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    }
    let output = try FileHandle(forWritingTo: log)
    output.seekToEndOfFile()
    let process = Process()
    // A child inherits the signal mask of the thread that starts it, and the test runner's
    // threads block SIGTERM: a Python launcher clears the mask and becomes the server.
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", Self.launcher, executable.path] + arguments
    process.standardOutput = output
    process.standardError = output
    process.standardInput = FileHandle.nullDevice
    try process.run()
    try? output.close()
    lock.withLock { self.process = process }
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if !process.isRunning {
        throw NotStarted(
          description: "\(executable.lastPathComponent) \(arguments.joined(separator: " ")) "
            + "ended at once (status \(process.terminationStatus)):\n\(self.output)")
      }
      if tls ? LocalHTTP.accepts(port: port) : LocalHTTP.answers(port: port) { return }
      Thread.sleep(forTimeInterval: 0.05)
    }
    stop()
    throw NotStarted(
      description:
        "nothing answered HTTP on 127.0.0.1:\(port) after \(Int(timeout)) s:\n\(self.output)")
  }

  /// Clears the signal mask, then runs its arguments in its place (same process id).
  private static let launcher =
    "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); "
    + "os.execvp(sys.argv[1], sys.argv[1:])"

  /// Stops the process: SIGTERM, then SIGKILL after two seconds; waits for its end.
  public func stop() {
    guard
      let process = lock.withLock({ () -> Process? in
        defer { self.process = nil }
        return self.process
      })
    else { return }
    if process.isRunning {
      process.terminate()
      let deadline = Date().addingTimeInterval(2)
      while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
      if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
    process.waitUntilExit()
  }
}

/// Plain sockets to 127.0.0.1, for finding a free port and seeing whether a server answers.
public enum LocalHTTP {
  /// A port nothing listens on now (the system's choice for a port-0 bind, then released).
  public static func freePort() throws -> Int {
    let socket = try openSocket()
    defer { close(socket) }
    var address = loopback(port: 0)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0 else { throw ServerProcess.NotStarted(description: "bind: errno \(errno)") }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let named = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
    }
    guard named == 0 else {
      throw ServerProcess.NotStarted(description: "getsockname: errno \(errno)")
    }
    return Int(UInt16(bigEndian: address.sin_port))
  }

  /// Whether something listens on `port`.
  public static func accepts(port: Int) -> Bool {
    guard let socket = try? openSocket() else { return false }
    defer { close(socket) }
    var address = loopback(port: port)
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
  }

  /// Whether something on `port` answers an HTTP request with an HTTP status line.
  public static func answers(port: Int) -> Bool {
    guard let socket = try? openSocket() else { return false }
    defer { close(socket) }
    var timeout = timeval(tv_sec: 1, tv_usec: 0)
    setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = loopback(port: port)
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else { return false }
    let request = Array("OPTIONS / HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".utf8)
    guard send(socket, request, request.count, 0) == request.count else { return false }
    var buffer = [UInt8](repeating: 0, count: 16)
    let count = recv(socket, &buffer, buffer.count, 0)
    return count >= 5 && String(decoding: buffer[0..<5], as: UTF8.self) == "HTTP/"
  }

  private static func openSocket() throws -> Int32 {
    #if canImport(Glibc)
      let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard socket >= 0 else { throw ServerProcess.NotStarted(description: "socket: errno \(errno)") }
    return socket
  }

  private static func loopback(port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return address
  }
}
