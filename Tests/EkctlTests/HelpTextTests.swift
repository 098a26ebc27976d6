import Foundation
import TestSupport
import Testing

/// What `ekctl` says about its network words (`sync`, `account`, `accounts`, `subscribe`,
/// `subscriptions`, `unsubscribe`), `mcp` and itself:
/// help, usage errors and their exit statuses, word for word as recorded in
/// Tests/Fixtures/ekctl-help. These words run in programs of their own, `ekctl-sync` and
/// `ekctl-mcp`, that `ekctl` execs (issues 44 and 47); a person must not see the difference. Re-record on purpose only:
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
    // ekctl mcp, whose work is ekctl-mcp's: its help and usage errors stay ekctl's.
    ("mcp", ["mcp", "--help"]),
    ("mcp-unknown-option", ["mcp", "--colour"]),
    ("mcp-no-database", ["mcp", "--db", "/nonexistent/Calendar.sqlite"]),
    // What the words say once they run, through ekctl-sync: recorded from the ekctl that ran
    // them itself.
    ("sync-no-database", ["sync", "--db", "/nonexistent/Calendar.sqlite"]),
    ("sync-db-first", ["--db", "/nonexistent/Calendar.sqlite", "sync", "--account", "work"]),
    ("account-remove-no-database", ["account", "remove", "work", "--db", "/nonexistent/x"]),
    ("accounts-empty", ["accounts"]),
    ("accounts-json-empty", ["accounts", "--json"]),
    ("subscribe", ["subscribe", "--help"]),
    ("subscribe-bad-refresh", ["subscribe", "https://example.com/f.ics", "--refresh", "soon"]),
    ("subscriptions-empty", ["subscriptions"]),
    ("unsubscribe-unknown", ["unsubscribe", "Holidays"]),
  ]

  static func fixture(_ name: String) -> URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fixtures/ekctl-help/\(name).txt")
  }

  /// What a person sees: the status, then standard output, then standard error.
  static func transcript(_ run: ProcessResult) -> String {
    "status: \(run.status)\n--- stdout\n\(run.stdout)--- stderr\n\(run.stderr)"
  }

  /// A fixed width and a home of its own: help wraps at the terminal's width.
  static func environment(_ folder: TemporaryFolder) -> [String: String] {
    ["COLUMNS": "80", "OPENEVENTKIT_HOME": folder.url.path]
  }

  @Test(arguments: cases.map(\.0))
  func whatEkctlSaysIsAsRecorded(_ name: String) throws {
    let arguments = try #require(Self.cases.first { $0.0 == name }?.1)
    let folder = try TemporaryFolder(prefix: "EkctlHelp")
    let run = try runEkctl(arguments, environment: Self.environment(folder))
    let seen = Self.transcript(run)
    let file = Self.fixture(name)
    if ProcessInfo.processInfo.environment["OPENEVENTKIT_RECORD_HELP"] == "1" {
      try seen.write(to: file, atomically: true, encoding: .utf8)
    }
    let recorded = try String(contentsOf: file, encoding: .utf8)
    #expect(seen == recorded, "ekctl \(arguments.joined(separator: " "))")
  }

  /// ekctl-sync (ekctl-mcp for `mcp`) run by itself says what ekctl says for the words it
  /// carries, help and usage errors included: both build them from EkctlKit, and each calls
  /// itself ekctl.
  @Test(arguments: cases.map(\.0).filter { $0 != "root" })
  func theCompanionSaysWhatEkctlSays(_ name: String) throws {
    let arguments = try #require(Self.cases.first { $0.0 == name }?.1)
    let folder = try TemporaryFolder(prefix: "EkctlHelp")
    let ekctl = try runEkctl(arguments, environment: Self.environment(folder))
    let companion = arguments.first == "mcp" ? "ekctl-mcp" : "ekctl-sync"
    let helper = try runProgram(
      BuildProducts.executable(companion), arguments, input: nil,
      environment: ProcessInfo.processInfo.environment.merging(Self.environment(folder)) { $1 })
    #expect(Self.transcript(helper) == Self.transcript(ekctl), "\(arguments)")
  }
}
