import Foundation
import TestSupport
import Testing

@testable import OpenEventKit

/// `ekctl account add`, `accounts`, `sync` and `account remove`, as a person runs them.
@Suite struct EkctlSyncTests {
  struct Result {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  func ekctl(_ arguments: [String], input: String = "") throws -> Result {
    let process = Process()
    process.executableURL = BuildProducts.executable("ekctl")
    process.arguments = arguments
    let output = Pipe()
    let errors = Pipe()
    let stdin = Pipe()
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = stdin
    try process.run()
    stdin.fileHandleForWriting.write(Data(input.utf8))
    try stdin.fileHandleForWriting.close()
    let out = output.fileHandleForReading.readDataToEndOfFile()
    let err = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
      stderr: String(decoding: err, as: UTF8.self))
  }

  @Test func addListSyncAndRemoveAnAccount() async throws {
    let fixture = try await SyncFixture()
    let folder = fixture.folder.url.appendingPathComponent("cli")
    let laptop = try Machine(folder: folder)
    let database = laptop.databaseFile.path
    let passwordFile = fixture.folder.url.appendingPathComponent("password")
    try Data("\(SyncFixture.password)\n".utf8).write(to: passwordFile)

    let added = try ekctl([
      "account", "add", "--db", database, "--url", fixture.server.url.absoluteString, "--user",
      SyncFixture.user, "--password-file", passwordFile.path, "--name", "home",
    ])
    #expect(added.status == 0, "\(added.stderr)")
    #expect(added.stdout.contains("Added home"))
    #expect(added.stdout.contains("Home (events)") && added.stdout.contains("Home (reminders)"))

    let again = try ekctl([
      "account", "add", "--db", database, "--url", fixture.server.url.absoluteString, "--user",
      SyncFixture.user, "--password-file", passwordFile.path, "--name", "HOME",
    ])
    #expect(again.status != 0 && again.stderr.contains("there is an account named \"HOME\""))

    try laptop.event("Dinner", start: "2026-03-02T19:00:00Z")
    let synced = try ekctl(["sync", "--db", database])
    #expect(synced.status == 0, "\(synced.stderr)")
    #expect(synced.stdout == "home: 1 out\n")
    let quiet = try ekctl(["sync", "--db", database, "--account", "home"])
    #expect(quiet.stdout == "home: up to date\n")

    let listed = try ekctl(["accounts", "--db", database])
    #expect(
      listed.stdout.hasPrefix(
        "home  \(fixture.server.url.absoluteString)  user alice  last synced "))

    let unknown = try ekctl(["sync", "--db", database, "--account", "work"])
    #expect(unknown.status != 0 && unknown.stderr.contains("no account is named \"work\""))

    let kept = try ekctl(["account", "remove", "--db", database, "home"], input: "n\n")
    #expect(kept.stdout.hasSuffix("Kept.\n"))
    let removed = try ekctl(["account", "remove", "--db", database, "home"], input: "y\n")
    #expect(removed.stdout.hasSuffix("Removed home.\n"))
    laptop.store.refreshSourcesIfNecessaryQuietly()
    #expect(!laptop.store.sources.contains { $0.sourceType == .calDAV })
    let accountsFolder = folder.appendingPathComponent("Accounts")
    let leftovers =
      (try? FileManager.default.contentsOfDirectory(atPath: accountsFolder.path)) ?? []
    #expect(!leftovers.contains { $0.hasSuffix(".password") })
  }

  @Test func aWrongPasswordIsOneClearLine() async throws {
    let fixture = try await SyncFixture()
    let laptop = try Machine(folder: fixture.folder.url.appendingPathComponent("cli"))
    let passwordFile = fixture.folder.url.appendingPathComponent("password")
    try Data("wrong".utf8).write(to: passwordFile)
    let result = try ekctl([
      "account", "add", "--db", laptop.databaseFile.path, "--url",
      fixture.server.url.absoluteString, "--user", SyncFixture.user, "--password-file",
      passwordFile.path,
    ])
    #expect(result.status != 0)
    #expect(result.stderr.hasPrefix("Error: ") && result.stderr.contains("password"))
    #expect(result.stderr.split(separator: "\n").count == 1)
  }
}
