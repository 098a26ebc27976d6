import Foundation
import Testing

/// `ekctl privacy list|set|reset` on a database of its own.
@Suite struct PrivacyCommandTests {
  @Test func setListAndReset() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("EkctlPrivacy-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let database = folder.appendingPathComponent("Calendar.sqlite").path

    var result = try runEkctl(["privacy", "list", "--db", database])
    #expect(result.status == 0 && result.stdout == "No app has asked for access yet.\n")

    result = try runEkctl([
      "privacy", "set", "--db", database, "--app", "org.example.loans", "--entity", "events",
      "full",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    result = try runEkctl([
      "privacy", "set", "--db", database, "--app", "org.example.poker", "--entity", "events",
      "write-only",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    result = try runEkctl(["privacy", "list", "--db", database])
    let lines = result.stdout.split(separator: "\n")
    #expect(lines.count == 3)
    #expect(lines[1].hasPrefix("org.example.loans  events     full"))
    #expect(lines[2].hasPrefix("org.example.poker  events     write-only"))
    #expect(lines[1].hasSuffix("ekctl"))

    // Bad input is one clear line and a non-zero exit.
    result = try runEkctl([
      "privacy", "set", "--db", database, "--app", "org.example.poker", "--entity", "reminders",
      "write-only",
    ])
    #expect(
      result.status != 0 && result.stderr.contains("Write-only access exists for events only"))
    result = try runEkctl([
      "privacy", "set", "--db", database, "--app", "x", "--entity", "calendars", "full",
    ])
    #expect(result.status != 0 && result.stderr.contains("calendars"))

    result = try runEkctl(["privacy", "reset", "--db", database, "--app", "org.example.loans"])
    #expect(result.status == 0)
    result = try runEkctl(["privacy", "list", "--db", database])
    #expect(result.stdout.split(separator: "\n").count == 2)
    result = try runEkctl(["privacy", "reset", "--db", database])
    result = try runEkctl(["privacy", "list", "--db", database])
    #expect(result.stdout == "No app has asked for access yet.\n")
  }
}
