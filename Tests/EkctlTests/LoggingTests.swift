import Foundation
import TestSupport
import Testing

/// What ekctl says on standard error of the libraries' log records: nothing when all is
/// well, and with `OPENEVENTKIT_LOG=debug` the store's SQL with its timings.
@Suite struct LoggingTests {
  @Test func debugShowsTheStoresStatementsWithTheirTimes() throws {
    let folder = try TemporaryFolder(prefix: "EkctlLogging")
    let database = folder.url.appendingPathComponent("Calendar.sqlite").path
    let ics = folder.url.appendingPathComponent("one.ics")
    try Data(
      """
      BEGIN:VCALENDAR\r
      VERSION:2.0\r
      PRODID:-//tests//EN\r
      BEGIN:VEVENT\r
      UID:one\r
      DTSTAMP:20260101T000000Z\r
      DTSTART:20260302T190000Z\r
      SUMMARY:Dinner\r
      END:VEVENT\r
      END:VCALENDAR\r

      """.utf8
    ).write(to: ics)
    let imported = try runEkctl(["import", ics.path, "--db", database])
    #expect(imported.status == 0, "\(imported.stderr)")
    #expect(imported.stderr.isEmpty)

    let quiet = try runEkctl(["calendars", "--db", database])
    #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet.stderr)")
    let loud = try runEkctl(
      ["calendars", "--db", database], environment: ["OPENEVENTKIT_LOG": "debug"])
    #expect(loud.status == 0)
    #expect(loud.stdout == quiet.stdout)
    let statements = loud.stderr.split(separator: "\n").filter {
      $0.contains(" debug org.openeventkit.store: ") && $0.contains("SELECT")
    }
    #expect(!statements.isEmpty, "\(loud.stderr)")
    // GRDB's profile: the time the statement took, in seconds, before it.
    #expect(statements.allSatisfy { $0.contains("s SELECT") })
  }
}
