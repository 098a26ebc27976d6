import Foundation

/// The person's privacy decisions as a settings tool sees and changes them (`ekctl privacy`):
/// which app may use events and reminders. Apps never use this; they ask with
/// `EKEventStore`'s request methods, and the person answers.
///
/// An OpenEventKit addition: on Apple's platforms, the Settings app. The decisions live in
/// `Privacy.sqlite`, beside the calendar database; a change reaches running apps within a
/// second (<doc:Privacy#Changing-a-decision>).
///
/// Every method that fails throws ``EKError`` with code ``EKError/Code/internalFailure``, whose
/// message names the file and what is wrong with it (a damaged file: see
/// ``setAsideIfDamaged(folder:)``).
///
/// ```swift
/// let settings = try PrivacySettings()  // or PrivacySettings(folder:)
/// for decision in try settings.decisions() {
///   print(decision.bundleIdentifier, decision.entityType, decision.status, decision.how)
/// }
/// try settings.set(.denied, for: "org.example.loans", entityType: .reminder)
/// try settings.set(.notDetermined, for: "org.example.loans", entityType: .event)  // forgets
/// try settings.reset(bundleIdentifier: nil)  // forgets every app's decisions
/// ```
public final class PrivacySettings: Sendable {
  /// One decision of the person about one app and one entity type.
  ///
  /// ```swift
  /// for decision in try settings.decisions() where decision.status == .denied {
  ///   let what = decision.entityType == .event ? "events" : "reminders"
  ///   print("\(decision.bundleIdentifier) may not use \(what) (since \(decision.decidedAt))")
  /// }
  /// ```
  public struct Decision: Hashable, Sendable {
    /// The app the decision is about.
    public let bundleIdentifier: String
    /// Events (`.event`) or reminders (`.reminder`).
    public let entityType: EKEntityType
    /// What was decided: `.fullAccess`, `.writeOnly` (events only), `.denied` or
    /// `.restricted`; never `.notDetermined`, which is the absence of a decision.
    public let status: EKAuthorizationStatus
    /// When it was decided.
    public let decidedAt: Date
    /// How it was decided: `prompt` (the person answered the app's request), `ekctl`…
    public let how: String
    /// Whether the person refused full access at the prompt to an app they had given
    /// write-only access (`status` stays `.writeOnly`): its requests for full access are then
    /// answered false at once, without the prompt, until a new decision.
    public let fullAccessRefused: Bool
  }

  let database: PrivacyDatabase

  /// The decisions kept beside the user's calendar database (`OPENEVENTKIT_HOME` and the XDG
  /// folders apply, as for `EKEventStore()`).
  ///
  /// Opens `Privacy.sqlite`, creating it (mode 0600) when missing.
  ///
  /// ```swift
  /// let settings = try PrivacySettings()
  /// print(settings.path)  // …/Privacy.sqlite, beside the user's Calendar.sqlite
  /// ```
  ///
  /// - Throws: ``EKError`` with code ``EKError/Code/internalFailure`` when the privacy database
  ///   cannot be opened: its folder cannot be made or written, the file is a symbolic link,
  ///   read-only, damaged, or changed by a newer version of OpenEventKit.
  public convenience init() throws {
    try self.init(location: .current())
  }

  /// The decisions kept in `folder`, beside the `Calendar.sqlite` there.
  ///
  /// ```swift
  /// let folder = FileManager.default.temporaryDirectory.appendingPathComponent("test-store")
  /// let settings = try PrivacySettings(folder: folder)
  /// try settings.set(.fullAccess, for: "org.example.tests", entityType: .event)
  /// print(try settings.status(of: "org.example.tests", for: .event) == .fullAccess)  // true
  /// ```
  ///
  /// - Parameter folder: The store's folder, as `OPENEVENTKIT_HOME` would name it; created
  ///   (mode 0700) when missing.
  /// - Throws: ``EKError`` with code ``EKError/Code/internalFailure`` when the privacy database
  ///   cannot be opened, as for ``init()``.
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
  ///
  /// The file is renamed `Privacy.sqlite.damaged-<date>`, with its `-wal` and `-shm` files.
  ///
  /// ```swift
  /// if let aside = try PrivacySettings.setAsideIfDamaged() {
  ///   print("The damaged decisions were moved to \(aside.path); every app will ask again.")
  /// }
  /// ```
  ///
  /// - Parameter folder: The store's folder; nil for the user's (`OPENEVENTKIT_HOME` and the
  ///   XDG folders apply).
  /// - Returns: Where the damaged file went, or nil when nothing was moved.
  /// - Throws: ``EKError`` with code ``EKError/Code/internalFailure`` when the file cannot be
  ///   checked (it is a symbolic link, say) or moved.
  public static func setAsideIfDamaged(folder: URL? = nil) throws -> URL? {
    try PrivacyDatabase.setAsideIfDamaged(folder.map(StoreLocation.init(folder:)) ?? .current())
  }

  /// The bundle identifier this process asks as: its Info.plist's `CFBundleIdentifier`, or
  /// its executable's name.
  public static var currentAppIdentifier: String { AppIdentity.current.bundleIdentifier }

  /// The path of the privacy database (`Privacy.sqlite`).
  public var path: String { database.path }

  /// Every decision, by app and entity type.
  ///
  /// ```swift
  /// let settings = try PrivacySettings()
  /// for decision in try settings.decisions() {
  ///   print(decision.bundleIdentifier, decision.entityType, decision.status, decision.how)
  /// }
  /// ```
  ///
  /// - Returns: The decisions, sorted by bundle identifier and then entity type; empty when
  ///   no app has asked.
  /// - Throws: ``EKError`` with code ``EKError/Code/internalFailure`` when the database cannot be
  ///   read.
  public func decisions() throws -> [Decision] {
    try database.decisions().map {
      Decision(
        bundleIdentifier: $0.bundleIdentifier, entityType: $0.entityType, status: $0.status,
        decidedAt: $0.decidedAt, how: $0.how, fullAccessRefused: $0.fullAccessRefused)
    }
  }

  /// An app's status for an entity type (`.notDetermined` when it never asked).
  ///
  /// ```swift
  /// let status = try settings.status(of: "org.example.loans", for: .event)
  /// ```
  ///
  /// - Parameters:
  ///   - bundleIdentifier: The app's bundle identifier.
  ///   - entityType: Events or reminders.
  /// - Returns: The decision, or `.notDetermined` when there is none: what
  ///   `EKEventStore.authorizationStatus(for:)` reports in that app.
  /// - Throws: ``EKError`` with code ``EKError/Code/internalFailure`` when the database cannot be
  ///   read.
  public func status(of bundleIdentifier: String, for entityType: EKEntityType) throws
    -> EKAuthorizationStatus
  {
    try database.status(of: bundleIdentifier, for: entityType)
  }

  /// Decides for the person. `.notDetermined` forgets the decision instead, so that the app
  /// asks again.
  ///
  /// The decision replaces any earlier one for the app and entity type; a running app sees
  /// it within a second.
  ///
  /// ```swift
  /// try settings.set(.fullAccess, for: PrivacySettings.currentAppIdentifier, entityType: .event)
  /// ```
  ///
  /// - Parameters:
  ///   - status: The decision: `.fullAccess`, `.writeOnly` (events only), `.denied`,
  ///     `.restricted`, or `.notDetermined` to forget it.
  ///   - bundleIdentifier: The app's bundle identifier.
  ///   - entityType: Events or reminders.
  ///   - how: How it was decided, as ``Decision/how`` shows it.
  /// - Throws: ``EKError`` with code ``EKError/Code/invalidEntityType`` for `.writeOnly` with
  ///   `.reminder`, or ``EKError/Code/internalFailure`` when the database cannot be written.
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
  ///
  /// ```swift
  /// // The app asks again at its next request, for events and reminders alike.
  /// try settings.reset(bundleIdentifier: "org.example.loans")
  /// print(try settings.status(of: "org.example.loans", for: .event) == .notDetermined)  // true
  /// ```
  ///
  /// - Parameter bundleIdentifier: The app whose decisions to forget; nil for every app.
  /// - Throws: ``EKError`` with code ``EKError/Code/internalFailure`` when the database cannot be
  ///   written.
  public func reset(bundleIdentifier: String?) throws {
    try database.reset(bundleIdentifier)
    EKEventStore.decisionGeneration.add(1, ordering: .releasing)
  }
}
