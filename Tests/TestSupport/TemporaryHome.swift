import Foundation
import GRDB
import OpenEventKit

/// A temporary `OPENEVENTKIT_HOME` for one test: the shared calendar store, the privacy
/// decisions and each sample's own database, in a private folder (0700) removed afterwards.
public final class TemporaryHome: Sendable {
  private let folder: TemporaryFolder

  /// Creates the empty home.
  public init() throws {
    folder = try TemporaryFolder(prefix: "OpenEventKitHome")
  }

  /// The home folder.
  public var url: URL { folder.url }

  /// This process's environment with the home in it: `OPENEVENTKIT_HOME` and `XDG_STATE_HOME`
  /// (readline's history) inside it, `TZ` set to Paris and `NO_COLOR` set.
  ///
  /// The samples run in Paris; the store keeps all-day events on the wall clock, so the test
  /// process reads the same days on its own clock.
  public var environment: [String: String] {
    var environment = ProcessInfo.processInfo.environment
    environment["OPENEVENTKIT_HOME"] = url.path
    environment["XDG_STATE_HOME"] = url.appendingPathComponent("state").path
    environment["TZ"] = "Europe/Paris"
    environment["NO_COLOR"] = "1"
    return environment
  }

  /// The calendar database of this home, `Calendar.sqlite`.
  public var calendarDatabase: URL { url.appendingPathComponent("Calendar.sqlite") }

  /// The calendar store, opened as its owner (the test is not one of the apps).
  public func store() throws -> EKEventStore { try EKEventStore(ownerOf: calendarDatabase) }

  /// A sample's own database, `file` in the folder named `app`, read-only.
  public func database(app: String, file: String) throws -> DatabaseQueue {
    var configuration = Configuration()
    configuration.readonly = true
    return try DatabaseQueue(
      path: url.appendingPathComponent(app).appendingPathComponent(file).path,
      configuration: configuration)
  }

  /// Decides for the person, with `ekctl privacy set`, what the app `bundleIdentifier` may do
  /// with `entity` (`events` or `reminders`): `full`, `write-only`, `denied` or `restricted`;
  /// throws with ekctl's output when it refuses.
  public func decide(_ decision: String, app bundleIdentifier: String, entity: String) throws {
    let run = try ekctl([
      "privacy", "set", "--app", bundleIdentifier, "--entity", entity, decision,
      "--db", calendarDatabase.path,
    ])
    guard run.status == 0 else { throw EkctlFailed(status: run.status, output: run.output) }
  }

  /// `ekctl` refused what a test asked of it.
  public struct EkctlFailed: Error, CustomStringConvertible {
    public let status: Int32
    public let output: String
    public var description: String { "ekctl exited with \(status):\n\(output)" }
  }

  /// Runs `ekctl` on this home's store with `arguments` and no input; its output (standard
  /// output and standard error together) and its exit status.
  @discardableResult
  public func ekctl(_ arguments: [String]) throws -> (output: String, status: Int32) {
    let run = try SampleRun(executable: "ekctl", arguments: arguments, home: self)
    return try run.finish()
  }
}

extension TemporaryHome {
  /// A new home as a person has it who moved `app` to another calendar database: this home's
  /// calendar titled `exported` (every calendar when nil) exported with `ekctl` and imported
  /// there into the calendar titled `calendar`, and this home's `app` folder copied over.
  /// Throws ``EkctlFailed`` when the export or the import fails.
  public func copy(app: String, exporting exported: String? = nil, into calendar: String)
    throws -> TemporaryHome
  {
    let file = url.appendingPathComponent("\(app).ics")
    let export = try ekctl(
      ["export", "-o", file.path, "--db", calendarDatabase.path]
        + (exported.map { ["--calendar", $0] } ?? []))
    guard export.status == 0 else {
      throw EkctlFailed(status: export.status, output: export.output)
    }
    let other = try TemporaryHome()
    let imported = try other.ekctl(
      ["import", file.path, "--calendar", calendar, "--db", other.calendarDatabase.path])
    guard imported.status == 0 else {
      throw EkctlFailed(status: imported.status, output: imported.output)
    }
    try FileManager.default.copyItem(
      at: url.appendingPathComponent(app), to: other.url.appendingPathComponent(app))
    return other
  }
}

/// The name the sample tests know the temporary home by.
public typealias SampleHome = TemporaryHome
