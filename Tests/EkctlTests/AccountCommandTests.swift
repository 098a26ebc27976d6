import Foundation
import TestSupport
import Testing

/// `ekctl account add` refusing what would leak its password, before it asks for one or
/// reaches a server: a password in the URL, and a password file others can change.
@Suite struct AccountCommandTests {
  let folder: TemporaryFolder
  let database: String
  let passwordFile: URL

  init() throws {
    folder = try TemporaryFolder(prefix: "EkctlAccount")
    database = folder.url.appendingPathComponent("Calendar.sqlite").path
    passwordFile = folder.url.appendingPathComponent("password")
    try Data("secret\n".utf8).write(to: passwordFile)
    try FileManager.default.setAttributes(
      [.posixPermissions: 0o600], ofItemAtPath: passwordFile.path)
    // The store, made by an import, so that --db names one.
    _ = try runEkctl(["import", StoreCommandTests.fixture("google.ics"), "--db", database])
  }

  func add(_ url: String) throws -> ProcessResult {
    try runEkctl([
      "account", "add", "--db", database, "--url", url, "--user", "bob", "--password-file",
      passwordFile.path,
    ])
  }

  @Test func aPasswordInTheURLIsRefusedAndNeverRepeated() throws {
    for url in [
      // Loopback only: were the URL not refused, nothing leaves this machine.
      "http://bob:hunter2@127.0.0.1:1/dav/", "https://bob:hunter2@127.0.0.1:1/",
      "https://bob@localhost:1/", "ftp://bob:hunter2@127.0.0.1:1/",
    ] {
      let result = try add(url)
      #expect(result.status == 1, "\(url): \(result.stdout)")
      #expect(
        result.stderr.contains("the URL holds a user name or password (the part before @)"),
        "\(result.stderr)")
      #expect(!(result.stdout + result.stderr).contains("hunter2"), "\(result.stderr)")
    }
    let accounts = try runEkctl(["accounts", "--db", database])
    #expect(accounts.stdout.hasPrefix("No account."), "\(accounts.stdout)")
  }

  @Test func aPasswordFileOthersCanChangeIsRefused() throws {
    for mode in [0o666, 0o620, 0o602] {
      try FileManager.default.setAttributes(
        [.posixPermissions: mode], ofItemAtPath: passwordFile.path)
      let result = try add("http://127.0.0.1:1/dav/")
      #expect(result.status == 1)
      #expect(
        result.stderr.contains(
          "the password file \(passwordFile.path) can be changed by others (mode "
            + String(mode, radix: 8) + "); make it yours alone with chmod 600"),
        "\(result.stderr)")
    }
    // Readable by others but changed by no one else: read, and the add goes on (to a
    // server that is not there).
    try FileManager.default.setAttributes(
      [.posixPermissions: 0o644], ofItemAtPath: passwordFile.path)
    let result = try add("http://127.0.0.1:1/dav/")
    #expect(result.status == 1)
    #expect(result.stderr.contains("cannot be reached"), "\(result.stderr)")
  }
}
