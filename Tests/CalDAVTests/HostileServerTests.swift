import Foundation
import Synchronization
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
      executable: try Python.executable(),
      arguments: [script.path, "--port", String(port)], port: port,
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
    print("hostile: a trickling answer ended after \(ContinuousClock.now - start)")
    await client.shutdown()
    // The server was answering, byte by byte, when the client gave up.
    #expect(server.output.contains("PROPFIND"), "\(server.output)")
  }

  /// A 307 from 127.0.0.1 to localhost (another origin: the host differs) during discovery
  /// is refused before anything goes there, saying what to run for a person who trusts it
  /// (issue 42). The credentials went there with the redirect before.
  @Test(.timeLimit(.minutes(2)))
  func aRedirectToAnotherOriginIsRefusedAndGetsNoPassword() async throws {
    let server = try HostileCalDAVServer(mode: "redirect")
    let client = try CalDAVClient(baseURL: server.url, user: "alice", password: "alice")
    do {
      let found = try await client.discover()
      Issue.record("a redirect to another origin was followed: \(found.homeURL)")
    } catch {
      let said = "\(error)"
      #expect(said.contains("a redirect (307) from http://127.0.0.1:\(server.port)/"), "\(said)")
      #expect(said.contains("leads to http://localhost:\(server.otherPort)"), "\(said)")
      #expect(
        said.hasSuffix(
          "ekctl account add --url http://localhost:\(server.otherPort)/dav/ --user alice"),
        "\(said)")
    }
    await client.shutdown()
    #expect(server.requests.contains { $0.contains(" PROPFIND ") }, "\(server.requests)")
    #expect(server.requestsElsewhere.isEmpty, "\(server.requestsElsewhere)")
  }

  /// A calendar-home-set on another origin is refused the same way: nothing is asked there.
  @Test(.timeLimit(.minutes(2)))
  func aCalendarHomeOnAnotherOriginIsRefused() async throws {
    let server = try HostileCalDAVServer(mode: "home-elsewhere")
    let client = try CalDAVClient(baseURL: server.url, user: "alice", password: "alice")
    do {
      let found = try await client.discover()
      Issue.record("a home on another origin was taken: \(found.homeURL)")
    } catch {
      let said = "\(error)"
      #expect(said.hasPrefix("the calendar home that http://127.0.0.1:\(server.port)/"), "\(said)")
      #expect(
        said.hasSuffix(
          "ekctl account add --url http://localhost:\(server.otherPort)/dav/ --user alice"),
        "\(said)")
    }
    await client.shutdown()
    #expect(server.requestsElsewhere.isEmpty, "\(server.requestsElsewhere)")
  }

  /// Origins as RFC 6454 compares them, and the members of a collection: an href with dot
  /// segments, even percent-encoded, or on another origin is none.
  @Test func originsAndMembers() throws {
    let collection = URL(string: "http://127.0.0.1:5232/alice/cal/")!
    func member(_ href: String) -> Bool {
      CalDAVClient.resolve(href, against: collection).map {
        CalDAVClient.isMember($0, of: collection)
      } ?? false
    }
    #expect(member("/alice/cal/a.ics"))
    #expect(member("a%40b.ics"))
    #expect(member("http://127.0.0.1:5232/alice/cal/a.ics"))
    #expect(!member("/etc/passwd"))
    #expect(!member("/other.ics"))
    #expect(!member("http://127.0.0.2:1/evil.ics"))
    #expect(!member("http://localhost:5232/alice/cal/a.ics"))
    #expect(!member("https://127.0.0.1:5232/alice/cal/a.ics"))
    #expect(!member("//127.0.0.2/alice/cal/a.ics"))
    #expect(!member("/alice/cal/"))
    #expect(!member("/alice/cal"))
    #expect(!member("/alice/calendar/a.ics"))
    #expect(!member("/alice/cal/../other/a.ics"))
    #expect(!member("/alice/cal/%2E%2E/%2E%2E/etc/passwd"))
    #expect(!member("/alice/cal/a%2F..%2F..%2Fb.ics"))
    #expect(!member("/alice/cal//a.ics"))
    #expect(
      Origin(URL(string: "https://Example.com/a")!)
        == Origin(URL(string: "https://example.com:443/b")!))
    #expect(
      Origin(URL(string: "http://example.com/")!) != Origin(URL(string: "https://example.com/")!))
    #expect(
      CalDAVClient.memberKey(URL(string: "http://h/c/a%40b.ics")!)
        == CalDAVClient.memberKey(URL(string: "http://h/c/a@b.ics")!))
  }

  /// A sync report that never ends (its first response's calendar data is text without end)
  /// is read as it comes and stopped at its budget: ``CalDAVError/answerTooLarge(_:limit:)``
  /// once one response is over the most read at once (here 1 MB), asked again without the
  /// data and stopped so again, and nothing was handed over to be written (issue 48).
  @Test(.timeLimit(.minutes(2)))
  func anEndlessSyncReportStopsAtItsBudget() async throws {
    let server = try HostileCalDAVServer(mode: "endless-report")
    let client = try CalDAVClient(
      baseURL: server.url, user: "alice", password: "alice", maximumBodySize: 1 << 20)
    let calendar = server.url.appendingPathComponent("dav/cal/")
    let handed = Mutex(0)
    await #expect(throws: CalDAVError.answerTooLarge(calendar, limit: 1 << 20)) {
      _ = try await client.syncCollection(calendar, token: nil, calendarData: true) { batch in
        handed.withLock { $0 += batch.count }
      }
    }
    await client.shutdown()
    #expect(handed.withLock { $0 } == 0)
    let reports = server.requests.filter { $0.contains(" REPORT ") }
    #expect(reports.count == 2, "\(reports)")
  }
}
