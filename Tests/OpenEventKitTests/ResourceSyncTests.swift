import Foundation
import GRDB
import Testing

@testable import OpenEventKit

/// The store's side of a sync, without a server: the server's resources written into a
/// calendar, a resource read back for sending, and the three-way merge of a conflict.
@Suite struct ResourceSyncTests {
  static func resource(_ uid: String, summary: String, location: String? = nil, extra: String = "")
    -> Data
  {
    var lines = [
      "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//EN", "BEGIN:VEVENT", "UID:\(uid)",
      "DTSTAMP:20260101T000000Z", "DTSTART:20260302T090000Z", "DTEND:20260302T100000Z",
      "SUMMARY:\(summary)",
    ]
    if let location { lines.append("LOCATION:\(location)") }
    if !extra.isEmpty { lines += extra.components(separatedBy: "\n") }
    lines += ["END:VEVENT", "END:VCALENDAR"]
    return Data((lines.joined(separator: "\r\n") + "\r\n").utf8)
  }

  @Test func theServersResourcesReplaceTheirRowsKeepingIdentifiers() throws {
    let synced = try OutboxTests.SyncedStore()
    let calendarId = synced.events.calendarIdentifier
    let series = """
      BEGIN:VCALENDAR
      VERSION:2.0
      PRODID:-//Test//EN
      BEGIN:VEVENT
      UID:series-1
      DTSTAMP:20260101T000000Z
      DTSTART:20260302T090000Z
      DTEND:20260302T093000Z
      RRULE:FREQ=DAILY;COUNT=5
      SUMMARY:Stand-up
      END:VEVENT
      BEGIN:VEVENT
      UID:series-1
      DTSTAMP:20260101T000000Z
      RECURRENCE-ID:20260303T090000Z
      DTSTART:20260303T110000Z
      DTEND:20260303T113000Z
      SUMMARY:Stand-up (late)
      END:VEVENT
      END:VCALENDAR

      """.replacingOccurrences(of: "\n", with: "\r\n")
    func apply(_ resources: [ServerResource]) throws -> ResourceRows.Applied {
      try synced.database.write { db in
        try ResourceRows.apply(resources, db, calendarId: calendarId, kind: .event)
      }
    }
    let first = try apply([
      ServerResource(
        href: "/alice/home/a.ics", etag: "\"1\"", data: Self.resource("a", summary: "Dinner")),
      ServerResource(href: "/alice/home/s.ics", etag: "\"1\"", data: Data(series.utf8)),
    ])
    #expect(first.written.sorted() == ["a", "series-1"])
    let dinner = try #require(synced.store.calendarItems(withExternalIdentifier: "a").first)
    #expect(
      synced.fixture.titles("2026-03-02T00:00:00Z", "2026-03-04T00:00:00Z", in: synced.store)
        .sorted() == ["Dinner", "Stand-up", "Stand-up (late)"])

    // The server changes the dinner and drops the override: the dinner keeps its identifier,
    // the override's row goes.
    let withoutOverride =
      series.components(
        separatedBy: "BEGIN:VEVENT\r\nUID:series-1\r\nDTSTAMP:20260101T000000Z\r\nRECURRENCE-ID")[0]
      + "END:VCALENDAR\r\n"
    _ = try apply([
      ServerResource(
        href: "/alice/home/a.ics", etag: "\"2\"", data: Self.resource("a", summary: "Supper")),
      ServerResource(href: "/alice/home/s.ics", etag: "\"2\"", data: Data(withoutOverride.utf8)),
    ])
    let store = synced.fixture.secondStore()
    #expect(store.calendarItem(withIdentifier: dinner.calendarItemIdentifier)?.title == "Supper")
    #expect(
      synced.fixture.titles("2026-03-02T00:00:00Z", "2026-03-04T00:00:00Z", in: store).sorted()
        == ["Stand-up", "Stand-up", "Supper"])
    // Nothing of the server's writes is to be sent back.
    #expect(try synced.outbox().isEmpty)

    // A resource the server removed goes with its rows; one it cannot read is reported and
    // leaves nothing changed.
    let bad = try apply([
      ServerResource(
        href: "/alice/home/s.ics", etag: "\"3\"", data: Data("BEGIN:VCALENDAR\r\n".utf8))
    ])
    #expect(bad.unreadable.map(\.href) == ["/alice/home/s.ics"])
    let removed = try synced.database.write { db in
      try ResourceRows.remove(href: "/alice/home/s.ics", db, calendarId: calendarId)
    }
    #expect(removed == "series-1")
    #expect(
      synced.fixture.titles("2026-03-02T00:00:00Z", "2026-03-04T00:00:00Z", in: store) == ["Supper"]
    )
  }

  /// A batch reads the rows it replaces in one query, by UID: rows of other UIDs, of other
  /// resources or made here, are left alone; an item made here comes back from the server
  /// (its identifier is its UID) as the same row; a href that now holds another UID drops
  /// the old one's rows.
  @Test func aBatchReplacesTheRowsOfItsOwnUIDsOnly() throws {
    let synced = try OutboxTests.SyncedStore()
    let calendarId = synced.events.calendarIdentifier
    let local = try synced.event("Made here", in: synced.events)
    let sent = try synced.event("Sent before", in: synced.events)
    let sentUID = try #require(sent.calendarItemExternalIdentifier)
    func apply(_ resources: [ServerResource]) throws -> ResourceRows.Applied {
      try synced.database.write { db in
        try ResourceRows.apply(resources, db, calendarId: calendarId, kind: .event)
      }
    }
    func resource(_ name: String, _ uid: String, _ summary: String) -> ServerResource {
      ServerResource(
        href: "/alice/home/\(name).ics", etag: "\"\(summary)\"",
        data: Self.resource(uid, summary: summary))
    }
    _ = try apply([resource("a", "a", "A"), resource("b", "b", "B"), resource("c", "c", "C")])
    let a = try #require(synced.store.calendarItems(withExternalIdentifier: "a").first)
    let c = try #require(synced.store.calendarItems(withExternalIdentifier: "c").first)

    let second = try apply([
      resource("a", "a", "A2"), resource("b", "b2", "B2"), resource("sent", sentUID, "Sent2"),
    ])
    #expect(second.written.sorted() == ["a", "b2", sentUID].sorted())
    let store = synced.fixture.secondStore()
    #expect(store.calendarItem(withIdentifier: a.calendarItemIdentifier)?.title == "A2")
    #expect(store.calendarItem(withIdentifier: c.calendarItemIdentifier)?.title == "C")
    #expect(store.calendarItem(withIdentifier: local.calendarItemIdentifier)?.title == "Made here")
    #expect(store.calendarItem(withIdentifier: sent.calendarItemIdentifier)?.title == "Sent2")
    #expect(store.calendarItems(withExternalIdentifier: "b").isEmpty)
    #expect(
      synced.fixture.titles("2026-03-02T00:00:00Z", "2026-03-03T00:00:00Z", in: store).sorted()
        == ["A2", "B2", "C", "Made here", "Sent2"])
    let hrefs = try synced.database.pool.read { db in
      try String.fetchAll(db, sql: "SELECT uid || ' ' || href FROM resource ORDER BY uid")
    }
    #expect(
      hrefs.sorted()
        == [
          "a /alice/home/a.ics", "b2 /alice/home/b.ics", "c /alice/home/c.ics",
          "\(sentUID) /alice/home/sent.ics",
        ].sorted())
  }

  /// Writing a batch reads the rows of its UIDs by the UID index (and identifiers), never by
  /// the index on `calendarId`: that would read the whole calendar for each batch, and a
  /// first sync would slow as the calendar grows.
  @Test func writingResourcesReadsOnlyTheirOwnRows() throws {
    let synced = try OutboxTests.SyncedStore()
    let calendarId = synced.events.calendarIdentifier
    func plan(_ sql: String, _ arguments: StatementArguments) throws -> [String] {
      try synced.database.pool.read { db in
        try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments).map {
          $0["detail"] as String
        }
      }
    }
    let plans = [
      try plan(ItemRows.importKeysSQL(count: 3), [calendarId, "a", "b", "c", "a", "b", "c"]),
      try plan(ItemRows.resourceSQL, [calendarId, "a", "a"]),
    ]
    for steps in plans {
      #expect(steps.contains { $0.contains("item_uid") }, "\(steps)")
      #expect(!steps.contains { $0.contains("calendarId") }, "\(steps)")
      #expect(!steps.contains { $0.hasPrefix("SCAN item") }, "\(steps)")
    }
  }

  /// More UIDs than one statement may name (SQLite takes 32,766 arguments; each UID takes
  /// two) are asked in parts of 10,000: a row is found whichever part its UID falls in.
  @Test func theRowsOfMoreUIDsThanAStatementHoldsAreAllRead() throws {
    let synced = try OutboxTests.SyncedStore()
    let calendarId = synced.events.calendarIdentifier
    let first = try synced.event("First", in: synced.events)
    let last = try synced.event("Last", in: synced.events)
    let uids = [first, last].map(\.calendarItemExternalIdentifier!)
    // 20,001 UIDs: 40,003 arguments, were they asked in one statement.
    let asked = [uids[0]] + (1..<20_000).map { "absent-\($0)" } + [uids[1]]
    let rows = try synced.database.pool.read { db in
      try ItemRows.importKeys(db, calendarId: calendarId, uids: asked)
    }
    #expect(rows.map { $0[1] as String } == uids)
    let one = try synced.database.pool.read { db in
      try ItemRows.importKeys(db, calendarId: calendarId, uids: [uids[1]])
    }
    #expect(one.map { $0[1] as String } == [uids[1]])
  }

  @Test func aResourceReadsBackWithItsOverrides() throws {
    let synced = try OutboxTests.SyncedStore()
    let series = try synced.event(
      "Stand-up", in: synced.events,
      rule: EKRecurrenceRule(recurrenceWith: .daily, interval: 1, end: nil))
    let predicate = synced.store.predicateForEvents(
      withStart: StoreFixture.date("2026-03-04T00:00:00Z"),
      end: StoreFixture.date("2026-03-05T00:00:00Z"), calendars: [synced.events])
    let third = try #require(synced.store.events(matching: predicate).first)
    third.title = "Stand-up (moved)"
    try synced.store.save(third, span: .thisEvent)
    let uid = try #require(series.calendarItemExternalIdentifier)
    let data = try #require(
      try synced.database.pool.read { db in
        try ResourceRows.document(db, calendarId: synced.events.calendarIdentifier, uid: uid)
      })
    let text = String(decoding: data, as: UTF8.self)
    #expect(text.components(separatedBy: "BEGIN:VEVENT").count == 3)
    #expect(text.contains("RECURRENCE-ID:20260304T090000Z"))
    #expect(text.contains("RRULE:FREQ=DAILY"))
  }

  @Test func differentPropertiesMergeAndTheSamePropertyConflicts() throws {
    let base = Self.resource("m", summary: "Dinner", location: "Home")
    let local = Self.resource("m", summary: "Dinner at eight", location: "Home")
    let server = Self.resource("m", summary: "Dinner", location: "Bistro")
    guard case .merged(let merged) = ResourceMerge.merge(base: base, local: local, server: server)
    else {
      Issue.record("expected a merge")
      return
    }
    let text = String(decoding: merged, as: UTF8.self)
    #expect(text.contains("SUMMARY:Dinner at eight") && text.contains("LOCATION:Bistro"))

    let clash = Self.resource("m", summary: "Supper", location: "Home")
    #expect(
      ResourceMerge.merge(base: base, local: local, server: clash)
        == .conflict(properties: ["VEVENT SUMMARY"]))
    // Stamps are not changes; the same change on both sides is no conflict.
    let restamped = Self.resource("m", summary: "Dinner at eight", location: "Home")
      .replacing(Data("DTSTAMP:20260101".utf8), with: Data("DTSTAMP:20270101".utf8))
    #expect(ResourceMerge.merge(base: base, local: local, server: restamped) == .same)
    // An alarm added on one side and a summary changed on the other merge.
    let alarmed = Self.resource(
      "m", summary: "Dinner", location: "Home",
      extra: "BEGIN:VALARM\nACTION:DISPLAY\nDESCRIPTION:Dinner\nTRIGGER:-PT15M\nEND:VALARM")
    guard case .merged(let both) = ResourceMerge.merge(base: base, local: local, server: alarmed)
    else {
      Issue.record("expected a merge")
      return
    }
    let bothText = String(decoding: both, as: UTF8.self)
    #expect(bothText.contains("TRIGGER:-PT15M") && bothText.contains("SUMMARY:Dinner at eight"))
  }
}
