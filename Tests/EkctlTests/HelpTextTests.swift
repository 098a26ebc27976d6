import Foundation
import TestSupport
import Testing

/// What `ekctl` says about its network words (`sync`, `account`, `accounts`) and about itself:
/// help, usage errors and their exit statuses, word for word as recorded in
/// Tests/Fixtures/ekctl-help. These words are to move to a program of their own that `ekctl`
/// runs (issue 44); a person must not see the difference. Re-record on purpose only:
/// `OPENEVENTKIT_RECORD_HELP=1 swift test --filter HelpTextTests`.
@Suite struct HelpTextTests {
  /// Each case: the fixture's name and the arguments.
  static let cases: [(String, [String])] = [
    ("root", ["--help"]),
    ("sync", ["sync", "--help"]),
    ("help-sync", ["help", "sync"]),
    ("account", ["account", "--help"]),
    ("account-add", ["account", "add", "--help"]),
    ("account-remove", ["account", "remove", "--help"]),
    ("accounts", ["accounts", "--help"]),
    ("account-add-no-url", ["account", "add"]),
    ("sync-bad-interval", ["sync", "--watch", "--interval", "0"]),
    ("sync-unknown-option", ["sync", "--colour"]),
  ]

  static func fixture(_ name: String) -> URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fixtures/ekctl-help/\(name).txt")
  }

  /// What a person sees: the status, then standard output, then standard error.
  static func transcript(_ run: ProcessResult) -> String {
    "status: \(run.status)\n--- stdout\n\(run.stdout)--- stderr\n\(run.stderr)"
  }

  @Test(arguments: cases.map(\.0))
  func whatEkctlSaysIsAsRecorded(_ name: String) throws {
    let arguments = try #require(Self.cases.first { $0.0 == name }?.1)
    let folder = try TemporaryFolder(prefix: "EkctlHelp")
    // A fixed width and a home of its own: help wraps at the terminal's width.
    let run = try runEkctl(
      arguments, environment: ["COLUMNS": "80", "OPENEVENTKIT_HOME": folder.url.path])
    let seen = Self.transcript(run)
    let file = Self.fixture(name)
    if ProcessInfo.processInfo.environment["OPENEVENTKIT_RECORD_HELP"] == "1" {
      try seen.write(to: file, atomically: true, encoding: .utf8)
    }
    let recorded = try String(contentsOf: file, encoding: .utf8)
    #expect(seen == recorded, "ekctl \(arguments.joined(separator: " "))")
  }
}
