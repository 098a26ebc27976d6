import Foundation
import TestSupport

@testable import CalDAV

/// A Radicale server of the test's own and a client signed in to it as alice, shut down
/// after `body` whatever happens.
func withServer<Result>(
  users: [String: String] = ["alice": "alice"], user: String = "alice", password: String = "alice",
  _ body: (RadicaleServer, CalDAVClient) async throws -> Result
) async throws -> Result {
  let server = try RadicaleServer(users: users)
  let client = try CalDAVClient(baseURL: server.url, user: user, password: password)
  do {
    let result = try await body(server, client)
    await client.shutdown()
    return result
  } catch {
    await client.shutdown()
    throw error
  }
}

/// A calendar made for alice with the client, with its URL.
func makeCalendar(_ client: CalDAVClient, _ server: RadicaleServer, name: String = "Test")
  async throws -> URL
{
  try await client.makeCalendar(
    home: server.url(user: "alice", ""), displayName: name, color: "#3366CC",
    components: ["VEVENT"])
}

/// One event as a CalDAV resource holds it, CRLF line ends.
func event(uid: String, summary: String = "Standup", sequence: Int = 0) -> Data {
  let lines = [
    "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//OpenEventKit//Tests//EN", "BEGIN:VEVENT",
    "UID:\(uid)", "DTSTAMP:20250101T000000Z", "DTSTART:20250106T090000Z",
    "DTEND:20250106T093000Z", "SEQUENCE:\(sequence)", "SUMMARY:\(summary)", "END:VEVENT",
    "END:VCALENDAR",
  ]
  return Data((lines.joined(separator: "\r\n") + "\r\n").utf8)
}

/// The paths of some URLs, for comparing sets of resources whatever their encoding.
func paths(_ urls: [URL]) -> Set<String> { Set(urls.map { $0.path(percentEncoded: false) }) }

/// The Digest proxy of Tests/Fixtures/caldav in front of a Radicale server: demands Digest
/// with one algorithm, forwards with Basic. Stops when the last reference goes.
final class DigestProxy: Sendable {
  let url: URL
  let process: ServerProcess
  private let folder: TemporaryFolder

  init(
    for server: RadicaleServer, algorithm: String, user: String = "alice",
    password: String = "alice", staleAfter: Int = 0
  ) throws {
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Fixtures/caldav/digest-proxy.py")
    folder = try TemporaryFolder(prefix: "DigestProxy")
    let port = try LocalHTTP.freePort()
    url = URL(string: "http://127.0.0.1:\(port)/")!
    process = ServerProcess(
      executable: try Python.executable(),
      arguments: [
        script.path, "--port", String(port), "--upstream", server.url.absoluteString,
        "--user", user, "--password", password, "--algorithm", algorithm,
        "--stale-after", String(staleAfter),
      ], port: port, log: folder.url.appendingPathComponent("proxy.log"))
    try process.start()
  }

  deinit { process.stop() }
}
