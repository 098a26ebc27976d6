import Foundation
import TestSupport
import Testing

@testable import OpenEventKit

/// `ekctl account add`, `accounts`, `sync` and `account remove`, as a person runs them.
@Suite struct EkctlSyncTests {
  /// An HTTPS server with a certificate of its own is refused, saying why and what to do,
  /// until `SSL_CERT_FILE` names its certificate; then the account is added and syncs, with
  /// Basic authentication inside TLS.
  @Test func anHTTPSServerWithACertificateOfItsOwn() throws {
    let server = try RadicaleServer(users: [SyncFixture.user: SyncFixture.password], tls: true)
    try server.makeCalendar(
      user: SyncFixture.user, name: "home", displayName: "Home", components: ["VEVENT"])
    let folder = try TemporaryFolder(prefix: "SyncTests")
    let laptop = try Machine(folder: folder.url.appendingPathComponent("tls"))
    let passwordFile = folder.url.appendingPathComponent("password")
    try Data("\(SyncFixture.password)\n".utf8).write(to: passwordFile)
    let database = laptop.databaseFile.path
    let add = [
      "account", "add", "--db", database, "--url", server.url.absoluteString, "--user",
      SyncFixture.user, "--password-file", passwordFile.path, "--name", "home",
    ]
    #expect(server.url.scheme == "https")

    let refused = try runEkctl(add, environment: ["SSL_CERT_FILE": ""])
    #expect(refused.status != 0)
    #expect(
      refused.stderr.contains(
        "the server's certificate is not trusted: 127.0.0.1:\(server.port): "
          + "certificate verify failed"), "\(refused.stderr)")
    #expect(refused.stderr.contains("SSL_CERT_FILE"))

    let trust = ["SSL_CERT_FILE": try #require(server.certificate).path]
    let added = try runEkctl(add, environment: trust)
    #expect(added.status == 0, "\(added.stderr)")
    #expect(added.stdout.contains("Added home"))
    laptop.store.dropCatalog()
    try laptop.event("Dinner", start: "2026-03-02T19:00:00Z")
    let synced = try runEkctl(["sync", "--db", database], environment: trust)
    #expect(synced.status == 0, "\(synced.stderr)")
    #expect(synced.stdout == "home: 1 out\n")
    let collection = server.storage.appendingPathComponent("collection-root/alice/home")
    let stored = try FileManager.default.contentsOfDirectory(atPath: collection.path)
      .filter { $0.hasSuffix(".ics") }
    #expect(stored.count == 1)
  }

  /// `ekctl calendars` in a CalDAV account: a calendar its server lets no one change is
  /// refused, saying so; one added with `--source` (the account's name) is made on the server
  /// at the next sync.
  @Test func calendarsInAnAccount() throws {
    let server = try RadicaleServer(users: [SyncFixture.user: SyncFixture.password])
    try server.makeCalendar(
      user: SyncFixture.user, name: "\(RadicaleServer.readOnlyPrefix)team",
      displayName: "Team days", components: ["VEVENT"])
    let folder = try TemporaryFolder(prefix: "SyncTests")
    let (database, added) = try Self.addAccount(of: server, in: folder, store: "calendars")
    #expect(added.status == 0, "\(added.stderr)")

    let listed = try runEkctl(["calendars", "--db", database]).stdout
    #expect(
      listed.split(separator: "\n").contains {
        $0.hasPrefix("Team days ") && $0.contains(" read-only ")
      }, "\(listed)")
    for (arguments, action) in [
      (["rename", "Team days", "Days"], "rename"), (["rm", "team days", "--yes"], "remove"),
    ] {
      let result = try runEkctl(["calendars"] + arguments + ["--db", database])
      #expect(result.status != 0)
      #expect(
        result.stderr
          == "Error: cannot \(action) \"Team days\": it is read-only, as its source, \"home\", "
          + "keeps it\n")
    }
    #expect(try runEkctl(["calendars", "--db", database]).stdout == listed)

    let made = try runEkctl(["calendars", "add", "Work", "--source", "HOME", "--db", database])
    #expect(made.status == 0, "\(made.stderr)")
    #expect(made.stdout.hasPrefix("Added the calendar \"Work\" in home: "))
    let synced = try runEkctl(["sync", "--db", database])
    #expect(synced.status == 0, "\(synced.stderr)")
    let home = server.storage.appendingPathComponent("collection-root/\(SyncFixture.user)")
    let titles = try FileManager.default.contentsOfDirectory(atPath: home.path).compactMap {
      try? String(
        contentsOf: home.appendingPathComponent("\($0)/.Radicale.props"), encoding: .utf8)
    }
    #expect(titles.contains { $0.contains("\"Work\"") }, "\(titles)")
  }

  /// A server's displayname holding C1 controls and a bidi override, which XML carries
  /// (issue 42): `account add` and `calendars` show it inert, `calendars --json` exact.
  @Test func aHostileDisplayNameIsShownInert() throws {
    let server = try RadicaleServer(users: [SyncFixture.user: SyncFixture.password])
    let name = "Team" + HostileText.c1ControlSequence + HostileText.c1Command + HostileText.override
    try server.makeCalendar(
      user: SyncFixture.user, name: "team", displayName: name, components: ["VEVENT"])
    let folder = try TemporaryFolder(prefix: "SyncTests")
    let (database, added) = try Self.addAccount(of: server, in: folder, store: "hostile")
    #expect(added.status == 0, "\(added.stderr)")
    #expect(added.stdout.contains("\n  \(HostileText.shown(name)) (events)\n"), "\(added.stdout)")
    #expect(HostileText.activeCharacters(in: added.stdout + added.stderr) == [])
    let synced = try runEkctl(["sync", "--db", database])
    #expect(synced.status == 0, "\(synced.stderr)")

    let listed = try runEkctl(["calendars", "--db", database])
    #expect(HostileText.activeCharacters(in: listed.stdout + listed.stderr) == [])
    #expect(
      listed.stdout.split(separator: "\n").contains { $0.hasPrefix(HostileText.shown(name) + " ") },
      "\(listed.stdout)")
    let json = try runEkctl(["calendars", "--json", "--db", database])
    let titles = json.stdout.split(separator: "\n").compactMap {
      (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["title"]
        as? String
    }
    #expect(titles.contains(name), "\(titles)")
  }

  @Test func addListSyncAndRemoveAnAccount() async throws {
    let fixture = try await SyncFixture()
    let folder = fixture.folder.url.appendingPathComponent("cli")
    let laptop = try Machine(folder: folder)
    let database = laptop.databaseFile.path
    let passwordFile = fixture.folder.url.appendingPathComponent("password")
    try Data("\(SyncFixture.password)\n".utf8).write(to: passwordFile)

    let added = try runEkctl([
      "account", "add", "--db", database, "--url", fixture.server.url.absoluteString, "--user",
      SyncFixture.user, "--password-file", passwordFile.path, "--name", "home",
    ])
    #expect(added.status == 0, "\(added.stderr)")
    #expect(added.stdout.contains("Added home"))
    #expect(added.stdout.contains("Home (events)") && added.stdout.contains("Home (reminders)"))

    let again = try runEkctl([
      "account", "add", "--db", database, "--url", fixture.server.url.absoluteString, "--user",
      SyncFixture.user, "--password-file", passwordFile.path, "--name", "HOME",
    ])
    #expect(again.status != 0 && again.stderr.contains("there is an account named \"HOME\""))

    try laptop.event("Dinner", start: "2026-03-02T19:00:00Z")
    let synced = try runEkctl(["sync", "--db", database])
    #expect(synced.status == 0, "\(synced.stderr)")
    #expect(synced.stdout == "home: 1 out\n")
    let quiet = try runEkctl(["sync", "--db", database, "--account", "home"])
    #expect(quiet.stdout == "home: up to date\n")
    #expect(quiet.stderr.isEmpty, "\(quiet.stderr)")
    // OPENEVENTKIT_LOG=debug: each CalDAV request, its status and time, and no password.
    let traced = try runEkctl(
      ["sync", "--db", database, "--account", "home"], environment: ["OPENEVENTKIT_LOG": "debug"])
    #expect(traced.stdout == "home: up to date\n")
    let requests = traced.stderr.split(separator: "\n").filter {
      $0.contains(" debug org.openeventkit.caldav: ")
    }
    #expect(
      requests.contains { $0.contains(": PROPFIND http://127.0.0.1:") && $0.contains("→ 207") })
    #expect(requests.contains { $0.contains(": REPORT http://127.0.0.1:") })
    #expect(traced.stderr.contains(" debug org.openeventkit.sync: home: 0 in, "))
    #expect(!traced.stderr.contains(SyncFixture.password))

    let listed = try runEkctl(["accounts", "--db", database])
    #expect(
      listed.stdout.hasPrefix(
        "home  \(fixture.server.url.absoluteString)  user alice  last synced "))

    let unknown = try runEkctl(["sync", "--db", database, "--account", "work"])
    #expect(unknown.status != 0 && unknown.stderr.contains("no account is named \"work\""))

    // The account's password is kept in the store's Accounts folder until it is removed.
    let accountsFolder = folder.appendingPathComponent("Accounts")
    let before = try FileManager.default.contentsOfDirectory(atPath: accountsFolder.path)
    #expect(before.contains { $0.hasSuffix(".password") }, "\(before)")
    let kept = try runEkctl(["account", "remove", "--db", database, "home"], input: "n\n")
    #expect(kept.stdout.hasSuffix("Kept.\n"))
    let removed = try runEkctl(["account", "remove", "--db", database, "home"], input: "y\n")
    #expect(removed.stdout.hasSuffix("Removed home.\n"))
    laptop.store.dropCatalog()
    #expect(!laptop.store.sources.contains { $0.sourceType == .calDAV })
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: accountsFolder.path)
    #expect(!leftovers.contains { $0.hasSuffix(".password") }, "\(leftovers)")
  }

  @Test func aWrongPasswordIsOneClearLine() async throws {
    let fixture = try await SyncFixture()
    let laptop = try Machine(folder: fixture.folder.url.appendingPathComponent("cli"))
    let passwordFile = fixture.folder.url.appendingPathComponent("password")
    try Data("wrong".utf8).write(to: passwordFile)
    let result = try runEkctl([
      "account", "add", "--db", laptop.databaseFile.path, "--url",
      fixture.server.url.absoluteString, "--user", SyncFixture.user, "--password-file",
      passwordFile.path,
    ])
    #expect(result.status != 0)
    #expect(result.stderr.hasPrefix("Error: ") && result.stderr.contains("password"))
    #expect(result.stderr.split(separator: "\n").count == 1)
  }

  /// `ekctl account add` of the server's alice (password from a file), on a new store in
  /// `folder`: the store's database path, and what ekctl said.
  static func addAccount(of server: RadicaleServer, in folder: TemporaryFolder, store: String)
    throws -> (database: String, added: ProcessResult)
  {
    let laptop = try Machine(folder: folder.url.appendingPathComponent(store))
    let passwordFile = folder.url.appendingPathComponent("password")
    try Data("\(SyncFixture.password)\n".utf8).write(to: passwordFile)
    let database = laptop.databaseFile.path
    let added = try runEkctl([
      "account", "add", "--db", database, "--url", server.url.absoluteString, "--user",
      SyncFixture.user, "--password-file", passwordFile.path, "--name", "home",
    ])
    return (database, added)
  }
}
