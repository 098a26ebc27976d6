import Foundation

/// The Digest proxy of Tests/Fixtures/caldav in front of a server on 127.0.0.1: it demands
/// Digest with one algorithm of the client and forwards what it lets through with Basic
/// (which a server without authentication of its own, as Xandikos over plain HTTP, ignores).
/// Stops when the last reference goes.
public final class DigestProxy: Sendable {
  /// `http://127.0.0.1:PORT/`, the proxy's.
  public let url: URL
  public let process: ServerProcess
  private let folder: TemporaryFolder

  /// Starts the proxy in front of `upstream` and waits until it answers.
  public init(
    for upstream: URL, algorithm: String, user: String = "alice", password: String = "alice",
    staleAfter: Int = 0
  ) throws {
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Fixtures/caldav/digest-proxy.py")
    folder = try TemporaryFolder(prefix: "DigestProxy")
    let port = try LocalHTTP.freePort()
    url = URL(string: "http://127.0.0.1:\(port)/")!
    process = ServerProcess(
      executable: try Python.executable(),
      arguments: [
        script.path, "--port", String(port), "--upstream", upstream.absoluteString,
        "--user", user, "--password", password, "--algorithm", algorithm,
        "--stale-after", String(staleAfter),
      ], port: port, log: folder.url.appendingPathComponent("proxy.log"))
    try process.start()
  }

  deinit { process.stop() }
}
