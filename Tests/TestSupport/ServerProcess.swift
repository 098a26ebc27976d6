import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A server a test runs as a real process on 127.0.0.1 (Radicale, the Digest proxy): started,
/// waited for until it answers HTTP on a port that it holds itself, stopped with SIGTERM and
/// then SIGKILL, and started again on the same port.
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

  /// A server run as `executable arguments` (``Python/executable()`` for a Python server),
  /// its output appended to `log`; not started yet.
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
  /// most) and holds that port's listening socket itself; throws ``NotStarted`` with its
  /// output when it ends or never answers.
  ///
  /// A free port found before the start can be taken by another test's server before this
  /// one binds it; then that other server answers while this one fails or waits. Answering
  /// is therefore not enough: the socket must be this process's own (Linux's /proc names
  /// the owner), which holds for any server, whatever it says or whether it speaks TLS.
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
    process.executableURL = try Python.executable()
    process.arguments = ["-c", Self.launcher, executable.path] + arguments
    process.standardOutput = output
    process.standardError = output
    process.standardInput = FileHandle.nullDevice
    try process.run()
    try? output.close()
    lock.withLock { self.process = process }
    let deadline = Date().addingTimeInterval(timeout)
    var answeredByAnother = false
    while Date() < deadline {
      if !process.isRunning {
        throw NotStarted(
          description: "\(executable.lastPathComponent) \(arguments.joined(separator: " ")) "
            + "ended at once (status \(process.terminationStatus)):\n\(self.output)")
      }
      if tls ? LocalHTTP.accepts(port: port) : LocalHTTP.answers(port: port) {
        if LocalHTTP.listens(process: process.processIdentifier, port: port) { return }
        answeredByAnother = true
      }
      Thread.sleep(forTimeInterval: 0.05)
    }
    stop()
    throw NotStarted(
      description: answeredByAnother
        ? "another process than \(executable.lastPathComponent) answered on 127.0.0.1:\(port) "
          + "for \(Int(timeout)) s:\n\(self.output)"
        : "nothing answered HTTP on 127.0.0.1:\(port) after \(Int(timeout)) s:\n\(self.output)")
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

  /// Whether process `pid` holds the socket listening on TCP `port` (on Linux, where
  /// /proc/net/tcp names the listening sockets' inodes and /proc/PID/fd the process's own;
  /// elsewhere, true).
  public static func listens(process pid: Int32, port: Int) -> Bool {
    #if os(Linux)
      let listening = listeningSockets(port: port)
      guard !listening.isEmpty else { return false }
      let folder = "/proc/\(pid)/fd"
      let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
      return descriptors.contains { descriptor in
        guard
          let target = try? FileManager.default.destinationOfSymbolicLink(
            atPath: "\(folder)/\(descriptor)")
        else { return false }
        return listening.contains(target)
      }
    #else
      return true
    #endif
  }

  /// The sockets listening on TCP `port`, IPv4 or IPv6, as a descriptor's link names them
  /// (`socket:[INODE]`).
  private static func listeningSockets(port: Int) -> Set<String> {
    var sockets: Set<String> = []
    let hexPort = String(format: "%04X", port)
    for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
      // Read to its end: Foundation's String(contentsOfFile:) stops after the first 4 KiB of
      // a /proc file (its size is 0), and a busy machine's table is far longer.
      guard let handle = FileHandle(forReadingAtPath: table) else { continue }
      let text = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
      try? handle.close()
      // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode …
      for line in text.split(separator: "\n").dropFirst() {
        let fields = line.split(separator: " ")
        guard fields.count > 9, fields[1].hasSuffix(":\(hexPort)"), fields[3] == "0A" else {
          continue
        }
        sockets.insert("socket:[\(fields[9])]")
      }
    }
    return sockets
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
