import Foundation

/// The person's privacy decisions as a settings tool sees and changes them (`ekctl privacy`):
/// which app may use events and reminders. Apps never use this; they ask with
/// `EKEventStore`'s request methods, and the person answers.
public final class PrivacySettings: Sendable {
  /// One decision of the person about one app and one entity type.
  public struct Decision: Hashable, Sendable {
    public let bundleIdentifier: String
    public let entityType: EKEntityType
    public let status: EKAuthorizationStatus
    public let decidedAt: Date
    /// How it was decided: `prompt` (the person answered the app's request), `ekctl`…
    public let how: String
  }

  let database: PrivacyDatabase

  /// The decisions kept beside the user's calendar database (`OPENEVENTKIT_HOME` and the XDG
  /// folders apply, as for `EKEventStore()`).
  public convenience init() throws {
    try self.init(location: .current())
  }

  /// The decisions kept in `folder`, beside the `Calendar.sqlite` there.
  public convenience init(folder: URL) throws {
    try self.init(location: StoreLocation(folder: folder))
  }

  init(location: StoreLocation) throws(EKError) {
    database = try PrivacyDatabase(location: location)
  }

  /// Moves a damaged privacy database in `folder` (or the user's store folder) aside, so
  /// that the next use starts with no decisions and every app asks again; returns where the
  /// damaged file went, or nil when the file is sound or absent. For `ekctl privacy reset`,
  /// which a person runs to recover: nothing else replaces a damaged file, since a new one
  /// would silently reset every decision.
  public static func setAsideIfDamaged(folder: URL? = nil) throws -> URL? {
    try PrivacyDatabase.setAsideIfDamaged(folder.map(StoreLocation.init(folder:)) ?? .current())
  }

  /// The bundle identifier this process asks as: its Info.plist's `CFBundleIdentifier`, or
  /// its executable's name.
  public static var currentAppIdentifier: String { AppIdentity.current.bundleIdentifier }

  /// The path of the privacy database.
  public var path: String { database.path }

  /// Every decision, by app and entity type.
  public func decisions() throws -> [Decision] {
    try database.decisions().map {
      Decision(
        bundleIdentifier: $0.bundleIdentifier, entityType: $0.entityType, status: $0.status,
        decidedAt: $0.decidedAt, how: $0.how)
    }
  }

  /// An app's status for an entity type (`.notDetermined` when it never asked).
  public func status(of bundleIdentifier: String, for entityType: EKEntityType) throws
    -> EKAuthorizationStatus
  {
    try database.status(of: bundleIdentifier, for: entityType)
  }

  /// Decides for the person. `.notDetermined` forgets the decision instead, so that the app
  /// asks again.
  public func set(
    _ status: EKAuthorizationStatus, for bundleIdentifier: String, entityType: EKEntityType,
    how: String = "ekctl"
  ) throws {
    guard status != .notDetermined else {
      try database.forget(bundleIdentifier, entityType: entityType)
      EKEventStore.decisionGeneration.add(1, ordering: .releasing)
      return
    }
    guard status != .writeOnly || entityType == .event else {
      throw EKError(.invalidEntityType, "Write-only access exists for events only.")
    }
    try database.decide(status, for: bundleIdentifier, entityType: entityType, how: how)
    EKEventStore.decisionGeneration.add(1, ordering: .releasing)
  }

  /// Forgets the decisions of one app, or of every app when nil: they will be asked again.
  public func reset(bundleIdentifier: String?) throws {
    try database.reset(bundleIdentifier)
    EKEventStore.decisionGeneration.add(1, ordering: .releasing)
  }
}
