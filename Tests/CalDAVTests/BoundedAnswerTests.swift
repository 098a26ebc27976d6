import Foundation
import TestSupport
import Testing

@testable import CalDAV

/// Large calendars in bounded answers, against the crafted server of Tests/Fixtures/caldav:
/// listings far over 10 MB read whole, sync reports asked in pages (DAV:limit) and the
/// servers that do not page, multiget in batches (issue 42).
@Suite struct BoundedAnswerTests {
  /// A client of the crafted server, shut down after `body`.
  func withClient<Result>(
    _ server: CraftedServer, _ body: (CalDAVClient) async throws -> Result
  ) async throws -> Result {
    let client = try CalDAVClient(baseURL: server.url, user: "alice", password: "alice")
    do {
      let result = try await body(client)
      await client.shutdown()
      return result
    } catch {
      await client.shutdown()
      throw error
    }
  }

  /// 60,000 members listed at once, by PROPFIND (a server without sync reports) and by a
  /// sync report that ignores the limit (as Radicale does): each answer is over 10 MB,
  /// where the parser stopped (`NSXMLParserErrorDomain Code=1`), so the first sync of a
  /// calendar of 50,000 events never finished.
  @Test func aListingOfSixtyThousandMembersIsRead() async throws {
    let server = try CraftedServer(events: 60_000, limit: .ignore)
    try await withClient(server) { client in
      var start = ContinuousClock.now
      let listed = try await client.etags(server.calendar)
      print("hostile: PROPFIND of 60,000 members: \(ContinuousClock.now - start)")
      #expect(listed.count == 60_000)
      #expect(listed.last?.etag == #""v1-e-60000.ics""#)

      start = ContinuousClock.now
      let changes = try await client.syncCollection(server.calendar, token: nil)
      print("hostile: sync report of 60,000 members in one answer: \(ContinuousClock.now - start)")
      #expect(changes.changed.count == 60_000)
      #expect(changes.token == "http://crafted.example/sync/60000")
    }
    #expect(server.requests.contains("SYNC token=- limit=1000 -> 60000 of 60000"))
  }

  /// The report is asked in pages of ``CalDAVClient/syncPageSize`` (DAV:limit, RFC 6578
  /// §3.7); each truncated page (507 on the collection, §3.6) is followed from its token.
  @Test func theSyncReportIsAskedInPages() async throws {
    let server = try CraftedServer(events: 2_500, limit: .honour)
    let changes = try await withClient(server) { client in
      try await client.syncCollection(server.calendar, token: nil)
    }
    #expect(changes.changed.count == 2_500)
    #expect(Set(changes.changed.map(\.url.lastPathComponent)).count == 2_500)
    #expect(changes.token == "http://crafted.example/sync/2500")
    let token = "http://crafted.example/sync/"
    #expect(
      server.requests.filter { $0.hasPrefix("SYNC") } == [
        "SYNC token=- limit=1000 -> 1000 of 2500, 507",
        "SYNC token=\(token)1000 limit=1000 -> 1000 of 2500, 507",
        "SYNC token=\(token)2000 limit=1000 -> 500 of 2500",
      ])
  }

  /// A server that cannot keep to a limit says so (507 number-of-matches-within-limits,
  /// §3.7): the report is asked again without one.
  @Test func aRefusedLimitIsAskedAgainWithoutOne() async throws {
    let server = try CraftedServer(events: 2_500, limit: .refuse)
    let changes = try await withClient(server) { client in
      try await client.syncCollection(server.calendar, token: nil)
    }
    #expect(changes.changed.count == 2_500)
    #expect(
      server.requests.filter { $0.hasPrefix("SYNC") } == [
        "SYNC token=- limit=1000 -> 507 refused", "SYNC token=- limit=- -> 2500 of 2500",
      ])
  }

  /// A server that truncates every page and brings nothing new is stopped after its second
  /// page, not followed for ever.
  @Test func aReportTruncatedWithoutProgressIsStopped() async throws {
    let server = try CraftedServer(events: 2_500, limit: .loop)
    _ = try await withClient(server) { client in
      await #expect(
        throws: CalDAVError.malformed(
          "\(server.calendar.absoluteString) kept truncating its sync report without progress")
      ) {
        _ = try await client.syncCollection(server.calendar, token: nil)
      }
    }
    #expect(server.requests.filter { $0.hasPrefix("SYNC") }.count == 2)
  }

  /// calendar-multiget asks a batch of ``CalDAVClient/multigetBatchSize`` hrefs at a time.
  @Test func multigetAsksInBatches() async throws {
    let server = try CraftedServer(events: 250)
    let found = try await withClient(server) { client in
      let members = try await client.etags(server.calendar)
      return try await client.multiget(server.calendar, members.map(\.url))
    }
    #expect(found.count == 250)
    #expect(
      server.requests.filter { $0.hasPrefix("MULTIGET") } == [
        "MULTIGET 100", "MULTIGET 100", "MULTIGET 50",
      ])
  }
}
