import Foundation
import Synchronization
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

  /// A sync report with calendar data over its budget (a server ignoring the limit, with a
  /// large calendar; here 60,000 bytes and 58 more a response, where each is about 900) is
  /// asked again without the data: the members come with their ETags, for the caller to
  /// fetch.
  @Test func aSyncReportWithDataTooLargeIsAskedAgainWithoutIt() async throws {
    let server = try CraftedServer(events: 200, limit: .ignore, syncData: true)
    let client = try CalDAVClient(
      baseURL: server.url, user: "alice", password: "alice", maximumBodySize: 60_000)
    let changes: SyncCollectionChanges
    do {
      changes = try await client.syncCollection(server.calendar, token: nil, calendarData: true)
    } catch {
      await client.shutdown()
      throw error
    }
    await client.shutdown()
    #expect(changes.changed.count == 200)
    #expect(changes.data.isEmpty)
    #expect(
      server.requests.filter { $0.hasPrefix("SYNC") } == [
        "SYNC token=- limit=1000 data -> 200 of 200", "SYNC token=- limit=1000 -> 200 of 200",
      ])
  }

  /// calendar-multiget asks a batch of ``CalDAVClient/multigetBatchSize`` hrefs at a time.
  @Test func multigetAsksInBatches() async throws {
    let batch = CalDAVClient.multigetBatchSize
    let server = try CraftedServer(events: 2 * batch + batch / 2)
    let found = try await withClient(server) { client in
      let members = try await client.etags(server.calendar)
      return try await client.multiget(server.calendar, members.map(\.url))
    }
    #expect(found.count == 2 * batch + batch / 2)
    #expect(
      server.requests.filter { $0.hasPrefix("MULTIGET") } == [
        "MULTIGET \(batch)", "MULTIGET \(batch)", "MULTIGET \(batch / 2)",
      ])
  }

  /// A batch whose answer is over the most the client reads at once (here 100 KB; events
  /// with large attachments at the real 64 MB) is asked again in halves until each answer
  /// fits, every resource once; a single resource over it fails, saying so.
  @Test func aMultigetAnswerTooLargeIsAskedInHalves() async throws {
    let batch = CalDAVClient.multigetBatchSize
    let server = try CraftedServer(events: batch)
    let client = try CalDAVClient(
      baseURL: server.url, user: "alice", password: "alice", maximumBodySize: 100_000)
    do {
      let members = try await client.etags(server.calendar)
      let found = try await client.multiget(server.calendar, members.map(\.url))
      #expect(found.count == batch)
      #expect(Set(found.map(\.url)).count == batch)
      let sizes = server.requests.filter { $0.hasPrefix("MULTIGET") }
        .compactMap { Int($0.split(separator: " ")[1]) }
      // The whole batch first, then halves of halves: every resource asked in the answers
      // that fit, once.
      #expect(sizes.first == batch && sizes.count > 2, "\(sizes)")
      let one = try #require(members.first)
      let tiny = try CalDAVClient(
        baseURL: server.url, user: "alice", password: "alice", maximumBodySize: 100)
      await #expect(throws: CalDAVError.answerTooLarge(server.calendar, limit: 100)) {
        _ = try await tiny.multiget(server.calendar, [one.url])
      }
      await tiny.shutdown()
    } catch {
      await client.shutdown()
      throw error
    }
    await client.shutdown()
  }

  /// Radicale's sync report with the data of 1,500 events of about a kilobyte (1.7 MB) to a
  /// client that reads at most 1 MB at once: the answer is read as it comes, each member's
  /// data handed over in batches of ``CalDAVClient/multigetBatchSize`` while it is read, all
  /// of them from the one report (none asked again without the data), and none kept in
  /// ``SyncCollectionChanges/data`` (issue 48: the first sync of 100,000 events, 90 MB, was
  /// asked again without the data, then fetched by multiget).
  @Test func aSyncReportOverTheLimitIsReadAsItComes() async throws {
    let count = 1_500
    try await withServer { server, tight in
      let calendar = try await makeCalendar(tight, server)
      // Written straight into Radicale's folder: it reads what its folder holds.
      let folder = server.storage.appendingPathComponent(
        "collection-root/alice/\(calendar.lastPathComponent)")
      let description = String(repeating: "Agenda item. ", count: 60)
      for index in 0..<count {
        let text = String(
          decoding: event(uid: "e\(index)", summary: "Event \(index)"), as: UTF8.self
        )
        .replacingOccurrences(
          of: "END:VEVENT", with: "DESCRIPTION:\(description)\r\nEND:VEVENT")
        try Data(text.utf8).write(to: folder.appendingPathComponent("e\(index).ics"))
      }
      let client = try CalDAVClient(
        baseURL: server.url, user: "alice", password: "alice", maximumBodySize: 1 << 20)
      let batches = Mutex<[Int]>([])
      let handed = Mutex<[String: Data]>([:])
      let changes: SyncCollectionChanges
      do {
        changes = try await client.syncCollection(calendar, token: nil, calendarData: true) {
          batch in
          batches.withLock { $0.append(batch.count) }
          handed.withLock {
            for resource in batch { $0[resource.url.lastPathComponent] = resource.data }
          }
        }
      } catch {
        await client.shutdown()
        throw error
      }
      await client.shutdown()
      #expect(changes.changed.count == count)
      #expect(changes.data.isEmpty)
      #expect(changes.token != nil)
      #expect(batches.withLock { $0 } == [500, 500, 500])
      let data = handed.withLock { $0 }
      #expect(data.count == count)
      let total = data.values.reduce(0) { $0 + $1.count }
      #expect(total > 1 << 20, "\(total) bytes of calendar data")
      let text = String(decoding: try #require(data["e7.ics"]), as: UTF8.self)
      #expect(text.hasPrefix("BEGIN:VCALENDAR\r\n") && text.contains("\r\nSUMMARY:Event 7\r\n"))
      #expect(text.hasSuffix("END:VCALENDAR\r\n"))
    }
  }

  /// Radicale refuses with 400 a report whose calendar data holds more events than its
  /// `max_expand_occurrence` (10,000 unless set; here 5): the sync report with the data is
  /// asked again without it, and lists every member for the caller to fetch, where the 400
  /// was taken for a refused DAV:limit and the report then for unsupported (issue 48: a
  /// first sync of 100,000 events from Radicale).
  @Test func aSyncReportWithDataRefusedIsAskedAgainWithoutIt() async throws {
    let server = try RadicaleServer(reportLimit: 5)
    let client = try CalDAVClient(baseURL: server.url, user: "alice", password: "alice")
    do {
      let calendar = try await makeCalendar(client, server)
      for index in 0..<8 {
        _ = try await client.put(
          calendar.appendingPathComponent("e\(index).ics"), data: event(uid: "e\(index)"),
          ifMatch: nil)
      }
      let handed = Mutex(0)
      let changes = try await client.syncCollection(calendar, token: nil, calendarData: true) {
        batch in handed.withLock { $0 += batch.count }
      }
      #expect(changes.changed.count == 8)
      #expect(changes.data.isEmpty)
      #expect(changes.token != nil)
      #expect(handed.withLock { $0 } == 0)
      let few = try await client.multiget(calendar, changes.changed.prefix(4).map(\.url))
      #expect(few.count == 4)
    } catch {
      await client.shutdown()
      throw error
    }
    await client.shutdown()
  }
}
