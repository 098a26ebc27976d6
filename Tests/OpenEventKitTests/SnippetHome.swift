import Foundation
import Testing

@testable import OpenEventKit

/// The folder whose database every snippet's `EKEventStore()` opens, with this test process
/// given full access to events and reminders there, so that no snippet prompts.
let snippetHome: URL = {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent(
    "OpenEventKitSnippets-\(UUID().uuidString)")
  try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  let settings = try? PrivacySettings(folder: url)
  for entity in [EKEntityType.event, .reminder] {
    try? settings?.set(.fullAccess, for: PrivacySettings.currentAppIdentifier, entityType: entity)
  }
  // Removed when the test process exits, as the suites' own temporary folders are.
  atexit { try? FileManager.default.removeItem(at: snippetHome) }
  return url
}()

/// Runs each test of a suite with `OPENEVENTKIT_HOME` set to ``snippetHome`` for that test's
/// task alone (`StoreLocation.taskEnvironment`): `EKEventStore()`, `authorizationStatus(for:)`
/// and `defaultDatabaseFile` read it there, as they read the process's environment in an app,
/// while the suites running at the same time keep the process's environment as it is.
struct SnippetHomeTrait: SuiteTrait, TestTrait, TestScoping {
  var isRecursive: Bool { true }

  func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    var environment = ProcessInfo.processInfo.environment
    environment["OPENEVENTKIT_HOME"] = snippetHome.path
    try await StoreLocation.$taskEnvironment.withValue(environment) { try await function() }
  }
}

extension Trait where Self == SnippetHomeTrait {
  /// `OPENEVENTKIT_HOME` at ``snippetHome`` for each test, not for the process.
  static var inSnippetHome: Self { Self() }
}
