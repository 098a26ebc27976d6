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
