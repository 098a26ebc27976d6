import Foundation
import TestSupport
import Testing

@testable import CalDAV

/// The client against a hostile server of the tests' own (Tests/Fixtures/caldav), written in
/// Python, on 127.0.0.1.
@Suite struct HostileServerTests {
  /// Headers at once, then a byte a second: each byte resets the read timeout, so only a
  /// deadline on the whole answer ends the request (issue 42).
  @Test(.timeLimit(.minutes(2)))
  func aTricklingAnswerEndsAtTheRequestsDeadline() async throws {
    let folder = try TemporaryFolder(prefix: "Trickle")
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Fixtures/caldav/trickle-server.py")
    let port = try LocalHTTP.freePort()
    let server = ServerProcess(
      executable: URL(fileURLWithPath: "/usr/bin/env"),
      arguments: ["python3", script.path, "--port", String(port)], port: port,
      log: folder.url.appendingPathComponent("trickle.log"))
    try server.start()
    defer { server.stop() }
    let client = try CalDAVClient(
      baseURL: URL(string: "http://127.0.0.1:\(port)/dav/")!, user: "alice", password: "alice",
      requestDeadline: .seconds(3))
    let start = ContinuousClock.now
    do {
      _ = try await client.discover()
      Issue.record("discovery finished against a server that never ends its answer")
    } catch {
      #expect(
        "\(error)".contains("127.0.0.1:\(port): no whole answer within 3 s"), "\(error)")
    }
    print("a trickling answer ended after \(ContinuousClock.now - start)")
    await client.shutdown()
    // The server was answering, byte by byte, when the client gave up.
    #expect(server.output.contains("PROPFIND"), "\(server.output)")
  }
}
