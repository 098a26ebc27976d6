import Foundation
import TestSupport
import Testing

@testable import OpenEventKit

/// `ekctl` against the hostile CalDAV server of Tests/Fixtures/caldav (hostile-caldav.py):
/// the password never leaves the server named, and nothing a server names outside a
/// collection is kept, or written to (issue 42).
@Suite struct HostileServerSyncTests {
  /// A folder with a store and a password file, and the database path in it.
  struct Setup {
    let folder: TemporaryFolder
    let machine: Machine
    let database: String
    let passwordFile: String

    init() throws {
      folder = try TemporaryFolder(prefix: "SyncTests")
      machine = try Machine(folder: folder.url.appendingPathComponent("store"))
      database = machine.databaseFile.path
      let file = folder.url.appendingPathComponent("password")
      try Data("alice-secret\n".utf8).write(to: file)
      passwordFile = file.path
    }

    func add(_ url: URL) throws -> ProcessResult {
      try runEkctl([
        "account", "add", "--db", database, "--url", url.absoluteString, "--user", "alice",
        "--password-file", passwordFile, "--name", "home",
      ])
    }
  }

  /// `ekctl account add` at a server that redirects to another origin: refused with the
  /// command to run, nothing stored, and no request (with or without the password) reached
  /// the other origin.
  @Test func anAccountWhoseServerRedirectsElsewhereIsRefused() throws {
    let server = try HostileCalDAVServer(mode: "redirect")
    let setup = try Setup()
    let added = try setup.add(server.url)
    #expect(added.status != 0)
    #expect(
      added.stderr.hasSuffix(
        "ekctl account add --url http://localhost:\(server.otherPort)/dav/ --user alice\n"),
      "\(added.stderr)")
    #expect(server.requestsElsewhere.isEmpty, "\(server.requestsElsewhere)")
    let listed = try runEkctl(["accounts", "--db", setup.database, "--json"])
    #expect(listed.status == 0 && listed.stdout.isEmpty, "\(listed.stdout)\(listed.stderr)")
  }

  /// A multiget answer naming hrefs nobody asked for (outside the collection, on another
  /// host, or inside it unasked) keeps none of them, logs each, and after `ekctl rm` of
  /// everything there is, the sync deletes only inside the collection.
  @Test func foreignHrefsAreIgnoredAndNothingIsDeletedOutsideTheCollection() throws {
    let server = try HostileCalDAVServer(mode: "foreign-hrefs")
    let setup = try Setup()
    let added = try setup.add(server.url)
    #expect(added.status == 0, "\(added.stderr)")

    let synced = try runEkctl(["sync", "--db", setup.database])
    #expect(synced.status == 0, "\(synced.stderr)")
    #expect(synced.stdout == "home: 1 in\n")
    let here = "http://127.0.0.1:\(server.port)"
    for href in [
      "\(here)/etc/passwd", "\(here)/other.ics", "http://127.0.0.2:1/evil.ics",
      "\(here)/dav/cal/unasked.ics",
    ] {
      #expect(
        synced.stderr.contains(
          "the server answered \(href) for /dav/cal/, which was not asked "
            + "for; ignored"), "\(synced.stderr)")
    }
    #expect(!synced.stderr.contains("alice-secret"))

    let events = try runEkctl([
      "events", "--db", setup.database, "--from", "2026-03-01", "--to", "2026-04-01", "--json",
    ])
    let objects = events.stdout.split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
    #expect(objects.compactMap { $0["title"] as? String } == ["Own"], "\(events.stdout)")
    for object in objects {
      let identifier = try #require(object["eventIdentifier"] as? String)
      let removed = try runEkctl(["rm", identifier, "--db", setup.database])
      #expect(removed.status == 0, "\(removed.stderr)")
    }
    let again = try runEkctl(["sync", "--db", setup.database])
    #expect(again.status == 0, "\(again.stderr)")
    let deletes = server.requests.filter { $0.contains(" DELETE ") }
    #expect(deletes == ["\(server.port) DELETE /dav/cal/own.ics authorization=yes"], "\(deletes)")
  }

  /// A store where an older version kept a calendar home on another origin: its sync is
  /// refused, saying what to run, and `ekctl accounts` shows where that home is.
  @Test func aStoredHomeOnAnotherOriginIsNotSyncedWith() throws {
    let server = try HostileCalDAVServer(mode: "foreign-hrefs")
    let setup = try Setup()
    let added = try setup.add(server.url)
    #expect(added.status == 0, "\(added.stderr)")
    let listed = try runEkctl(["accounts", "--db", setup.database])
    #expect(listed.stdout.contains("\n  calendar home http://127.0.0.1:\(server.port)/dav/\n"))

    let elsewhere = "http://localhost:\(server.otherPort)/dav/"
    let sqlite = try runProgram(
      try Programs.path("sqlite3"),
      [setup.database, "UPDATE account SET homeURL = '\(elsewhere)'"], input: nil,
      environment: ProcessInfo.processInfo.environment)
    #expect(sqlite.status == 0, "\(sqlite.stderr)")

    let synced = try runEkctl(["sync", "--db", setup.database])
    #expect(synced.status != 0)
    #expect(
      synced.stderr.contains(
        "ekctl account remove home, then ekctl account add --url \(elsewhere) --user alice"),
      "\(synced.stderr)")
    #expect(server.requestsElsewhere.isEmpty, "\(server.requestsElsewhere)")

    let json = try runEkctl(["accounts", "--db", setup.database, "--json"])
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect(object["url"] as? String == server.url.absoluteString)
    #expect(object["homeURL"] as? String == elsewhere)
    #expect((object["lastError"] as? String)?.contains("another server") == true)
  }

  /// A server whose sync report never ends: the sync fails at the report's budget (one
  /// response over 64 MB), saying so, and writes nothing: no event, no sync token (the next
  /// sync asks from none again).
  @Test(.timeLimit(.minutes(3)))
  func anEndlessSyncReportFailsAndWritesNothing() throws {
    let server = try HostileCalDAVServer(mode: "endless-report")
    let setup = try Setup()
    let added = try setup.add(server.url)
    #expect(added.status == 0, "\(added.stderr)")
    for _ in 0..<2 {
      let synced = try runEkctl(["sync", "--db", setup.database])
      #expect(synced.status != 0)
      #expect(synced.stderr.contains("is larger than 64 MB"), "\(synced.stderr)")
      let events = try runEkctl([
        "events", "--db", setup.database, "--from", "2026-01-01", "--to", "2027-01-01", "--json",
      ])
      #expect(events.status == 0, "\(events.stderr)")
      // The store's own calendars (Holidays) have events; the server's calendar has none.
      let calendars = events.stdout.split(separator: "\n").compactMap {
        (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["calendar"]
          as? String
      }
      #expect(!calendars.contains("Cal"), "\(events.stdout)")
    }
    let reports = server.requests.filter { $0.contains(" REPORT ") }
    // Each sync asks from no token, with the data and again without it.
    #expect(reports.count == 4, "\(reports)")
  }
}
