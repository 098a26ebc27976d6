import Foundation
import TestSupport
import Testing

/// A test's server is ready only when its own process listens on its port (ServerProcess,
/// Tests/TestSupport): a free port found before the start can be taken by another server
/// first, and that server's answers must not pass for this one's.
@Suite struct ServerProcessTests {
  /// An HTTP server that is not the test's (started here, holding the port) and a "server"
  /// for that port that never listens: the start must fail, naming the other process, not
  /// return as if the server were up.
  @Test func anotherServerOnThePortIsNotTakenForOurs() throws {
    let folder = try TemporaryFolder(prefix: "ServerProcessTests")
    let port = try LocalHTTP.freePort()
    let other = ServerProcess(
      executable: try Python.executable(),
      arguments: ["-m", "http.server", "--bind", "127.0.0.1", String(port)], port: port,
      log: folder.url.appendingPathComponent("other.log"))
    try other.start()
    defer { other.stop() }
    #expect(LocalHTTP.answers(port: port))

    let ours = ServerProcess(
      executable: try Python.executable(), arguments: ["-c", "import time; time.sleep(600)"],
      port: port, log: folder.url.appendingPathComponent("ours.log"))
    defer { ours.stop() }
    let started = Date()
    #expect(throws: ServerProcess.NotStarted.self) { try ours.start(timeout: 3) }
    print(
      "server-process: the other server was refused after \(Date().timeIntervalSince(started)) s")
  }

  /// The server started here listens on its port itself.
  @Test func aServerOfOurOwnIsReady() throws {
    let folder = try TemporaryFolder(prefix: "ServerProcessTests")
    let port = try LocalHTTP.freePort()
    let server = ServerProcess(
      executable: try Python.executable(),
      arguments: ["-m", "http.server", "--bind", "127.0.0.1", String(port)], port: port,
      log: folder.url.appendingPathComponent("server.log"))
    try server.start()
    defer { server.stop() }
    #expect(server.isRunning)
  }
}
