import Foundation

/// Tests/Fixtures/caldav/hostile-caldav.py on 127.0.0.1, in one of its modes, with a second
/// listener (`otherPort`, reached as `localhost`: another origin) where the mode leads a
/// client. Stops when the last reference goes.
public final class HostileCalDAVServer: Sendable {
  /// `redirect`, `home-elsewhere`, `foreign-hrefs` or `endless-report`.
  public let mode: String
  /// `http://127.0.0.1:PORT/`: what a person names.
  public let url: URL
  public let port: Int
  /// The other origin's port (`http://localhost:OTHER/`).
  public let otherPort: Int
  private let process: ServerProcess
  private let folder: TemporaryFolder

  public init(mode: String) throws {
    self.mode = mode
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Fixtures/caldav/hostile-caldav.py")
    folder = try TemporaryFolder(prefix: "HostileCalDAV")
    port = try LocalHTTP.freePort()
    var other = try LocalHTTP.freePort()
    while other == port { other = try LocalHTTP.freePort() }
    otherPort = other
    url = URL(string: "http://127.0.0.1:\(port)/")!
    process = ServerProcess(
      executable: try Python.executable(),
      arguments: [
        script.path, "--mode", mode, "--port", String(port), "--other-port",
        String(other),
      ], port: port, log: folder.url.appendingPathComponent("hostile.log"))
    try process.start()
  }

  deinit { process.stop() }

  /// Every request so far, one a line: `PORT METHOD PATH authorization=yes|no`.
  public var requests: [String] {
    process.output.split(separator: "\n").map(String.init).filter {
      $0.hasPrefix("\(port) ") || $0.hasPrefix("\(otherPort) ")
    }
  }

  /// The requests that reached the other origin.
  public var requestsElsewhere: [String] { requests.filter { $0.hasPrefix("\(otherPort) ") } }
}
