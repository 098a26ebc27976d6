import Foundation
import TestSupport
import Testing

/// `--db` before the subcommand or after it, read by ArgumentParser where it stands (the root
/// commands hold the store's option group), and passed to ekctl-sync as typed.
@Suite struct DatabaseOptionTests {
  let folder: TemporaryFolder
  let database: String
  let environment: [String: String]

  init() throws {
    folder = try TemporaryFolder(prefix: "EkctlDatabaseOption")
    database = folder.url.appendingPathComponent("Calendar.sqlite").path
    // A home of its own: nothing may reach the person's store.
    environment = ["OPENEVENTKIT_HOME": folder.url.appendingPathComponent("home").path]
    let file = folder.url.appendingPathComponent("one.ics")
    try [
      "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//test//EN", "BEGIN:VEVENT",
      "UID:one@example.com", "DTSTAMP:20250101T000000Z", "DTSTART:20250303T090000Z",
      "DTEND:20250303T100000Z", "SUMMARY:会議 🍰", "END:VEVENT", "END:VCALENDAR", "",
    ].joined(separator: "\r\n").write(to: file, atomically: true, encoding: .utf8)
    // --db=PATH before the subcommand; import makes the database.
    let imported = try runEkctl(
      ["--db=\(database)", "import", file.path], environment: environment)
    #expect(imported.status == 0, "\(imported.stderr)")
  }

  func ekctl(_ arguments: [String]) throws -> ProcessResult {
    try runEkctl(arguments, environment: environment)
  }

  @Test func aStoreCommandReadsItBeforeOrAfter() throws {
    let window = ["--from", "2025-03-03", "--to", "2025-03-04", "--json"]
    let before = try ekctl(["--db", database, "events"] + window)
    #expect(before.status == 0 && before.stdout.contains("会議 🍰"), "\(before.stderr)")
    #expect(try ekctl(["events"] + window + ["--db", database]).stdout == before.stdout)
    #expect(try ekctl(["events", "--db=\(database)"] + window).stdout == before.stdout)
    // A group's subcommand: --db before the group, between it and its subcommand, after.
    let listed = try ekctl(["--db", database, "calendars", "list", "--json"])
    #expect(listed.status == 0 && listed.stdout.contains("calendarIdentifier"), "\(listed.stderr)")
    #expect(try ekctl(["calendars", "--db", database, "list", "--json"]).stdout == listed.stdout)
    #expect(try ekctl(["calendars", "list", "--json", "--db", database]).stdout == listed.stdout)
  }

  /// `privacy` keeps its decisions beside the database --db names, wherever --db is written.
  @Test func privacyReadsItBeforeTheSubcommand() throws {
    let set = try ekctl([
      "--db", database, "privacy", "set", "--app", "org.example.x", "--entity", "events", "full",
    ])
    #expect(set.status == 0, "\(set.stderr)")
    let listed = try ekctl(["privacy", "list", "--db", database])
    #expect(listed.stdout.contains("org.example.x  events     full"), "\(listed.stdout)")
    #expect(try ekctl(["privacy", "--db", database, "list"]).stdout == listed.stdout)
    // Not in the home's store.
    #expect(try ekctl(["privacy", "list"]).stdout == "No app has asked for access yet.\n")
  }

  /// ekctl execs ekctl-sync with the arguments as typed, and ekctl-sync reads --db before its
  /// subcommand too.
  @Test func theNetworkWordsGetItAsTyped() throws {
    let accounts = try ekctl(["--db", database, "accounts", "--json"])
    #expect(accounts.status == 0 && accounts.stdout.isEmpty, "\(accounts.stderr)")
    let missing = folder.url.appendingPathComponent("missing/Calendar.sqlite").path
    for arguments in [["--db=\(missing)", "accounts"], ["accounts", "--db", missing]] {
      let run = try ekctl(arguments)
      #expect(run.status == 1, "\(arguments)")
      #expect(run.stderr == "Error: no calendar database at \(missing)\n", "\(arguments)")
    }
  }

  /// rrule reads no store: --db, before or after it, is refused rather than ignored.
  /// `--db` is the root command's too, so its missing value is found there: the usage shown is
  /// still that of the command typed.
  @Test func aMissingPathIsToldWithTheUsageOfTheCommandTyped() throws {
    let events = try ekctl(["events", "--db"])
    #expect(events.status == 64)
    #expect(
      events.stderr.hasPrefix("Error: Missing value for '--db'\nUsage: ekctl events [--db <path>]"),
      "\(events.stderr)")
    #expect(events.stderr.contains("See 'ekctl events --help'"), "\(events.stderr)")
    let add = try ekctl(["calendars", "add", "--db"])
    #expect(add.stderr.contains("Usage: ekctl calendars add [--db <path>]"), "\(add.stderr)")
    // Typed before any command: the root's usage, which lists the commands.
    let bare = try ekctl(["--db"])
    #expect(bare.status == 64)
    #expect(bare.stderr.contains("Usage: ekctl <subcommand>"), "\(bare.stderr)")
  }

  @Test func rruleRefusesIt() throws {
    let rule = ["--dtstart", "20250101", "FREQ=DAILY;COUNT=2"]
    #expect(try ekctl(["rrule"] + rule).stdout == "20250101\n20250102\n")
    for arguments in [["--db", database, "rrule"] + rule, ["rrule"] + rule + ["--db", database]] {
      let run = try ekctl(arguments)
      #expect(run.status != 0 && run.stdout.isEmpty, "\(arguments)")
      #expect(run.stderr.contains("--db is not one of its options"), "\(run.stderr)")
    }
  }
}
