import Foundation
import OpenEventKit
import TestSupport
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

    result = try runEkctl([
      "privacy", "set", "--db", database, "--app", "x", "--entity", "events", "not-determined",
    ])
    #expect(result.status != 0 && result.stderr.contains("ekctl privacy reset --app x"))

    result = try runEkctl(["privacy", "reset", "--db", database, "--app", "org.example.loans"])
    #expect(result.status == 0)
    result = try runEkctl(["privacy", "list", "--db", database])
    #expect(result.stdout.split(separator: "\n").count == 2)
    result = try runEkctl(["privacy", "reset", "--db", database])
    result = try runEkctl(["privacy", "list", "--db", database])
    #expect(result.stdout == "No app has asked for access yet.\n")
  }

  /// The columns after an app whose identifier has wide characters start where the others'
  /// do, and the identifier is whole.
  @Test func listLinesUpWideIdentifiers() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("EkctlPrivacy-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let database = folder.appendingPathComponent("Calendar.sqlite").path
    // 15 characters but 18 columns: the ideographs and the joker take two each.
    let wide = "org.example.お金🃏"
    for app in ["org.example.loans", wide] {
      let result = try runEkctl([
        "privacy", "set", "--db", database, "--app", app, "--entity", "events", "full",
      ])
      #expect(result.status == 0, "\(result.stderr)")
    }
    let result = try runEkctl(["privacy", "list", "--db", database])
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 3, "\(result.stdout)")
    // The column is 18 wide, then two spaces.
    #expect(lines.first?.hasPrefix("app" + String(repeating: " ", count: 17) + "entity") == true)
    #expect(lines.contains { $0.hasPrefix(wide + "  events     full") }, "\(result.stdout)")
    #expect(lines.contains { $0.hasPrefix("org.example.loans   events     full") })
  }

  @Test func aRunningAppNoticesADecisionChangedByEkctl() async throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("EkctlPrivacy-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let me = PrivacySettings.currentAppIdentifier
    try PrivacySettings(folder: folder).set(.fullAccess, for: me, entityType: .event)
    let store = EKEventStore(folder: folder)
    #expect(store.calendars(for: .event).count == 2)
    let changed = Changed()
    let token = NotificationCenter.default.addObserver(
      forName: .EKEventStoreChanged, object: store, queue: nil
    ) { _ in changed.mark() }
    defer { NotificationCenter.default.removeObserver(token) }

    let result = try runEkctl([
      "privacy", "set", "--db", folder.appendingPathComponent("Calendar.sqlite").path, "--app", me,
      "--entity", "events", "denied",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    for _ in 0..<100 where !changed.isMarked { try await Task.sleep(for: .milliseconds(20)) }
    #expect(changed.isMarked)
    #expect(store.calendars(for: .event).isEmpty)
    #expect(store.defaultCalendarForNewEvents == nil)
  }
}

/// A flag set from the notification's queue.
final class Changed: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false
  func mark() { lock.withLock { value = true } }
  var isMarked: Bool { lock.withLock { value } }
}
