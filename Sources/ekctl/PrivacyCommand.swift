import ArgumentParser
import EkctlKit
import Foundation
import OpenEventKit
import REPLKit

/// `ekctl privacy`: see and change which apps may use the person's events and reminders.
struct PrivacyCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "privacy",
    abstract: "See and change which apps may use your events and reminders.",
    discussion: """
      Apps ask for access the first time they need it, and you answer once. These commands \
      show those answers and change them; `reset` forgets them, so that the app asks again. \
      The answers are kept beside the Calendar.sqlite that --db names.
      """,
    subcommands: [List.self, Set.self, Reset.self])

  /// Where the privacy decisions are: beside the Calendar.sqlite that --db names. The store's
  /// own option group, so that `--db` before the subcommand reaches it (``StoreOptions``).
  struct Location: ParsableArguments {
    @OptionGroup var store: StoreOptions

    /// The folder named by --db, or nil for the user's store.
    var folder: URL? {
      store.database.map { URL(fileURLWithPath: $0).deletingLastPathComponent() }
    }

    func settings() throws -> PrivacySettings {
      try failing { try folder.map(PrivacySettings.init(folder:)) ?? PrivacySettings() }
    }
  }

  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list",
      abstract: "List every decision: app, entity, status and when it was made.")

    @OptionGroup var location: Location

    func run() throws {
      let decisions = try failing { try location.settings().decisions() }
      guard !decisions.isEmpty else {
        print("No app has asked for access yet.")
        return
      }
      let formatter = ISO8601DateFormatter()
      // An app's name is data (its executable's file name): TextTable measures it and shows
      // it inert.
      var table = TextTable(
        rows: decisions.map { decision in
          [
            decision.bundleIdentifier, EntityChoice(decision.entityType).rawValue,
            StatusChoice(decision.status).rawValue
              + (decision.fullAccessRefused ? " (full access refused)" : ""),
            formatter.string(from: decision.decidedAt),
            decision.how,
          ]
        },
        header: ["app", "entity", "status", "decided", "how"])
      table.minimumWidths = [0, 9, 11, 20]
      for line in table.lines { print(line) }
    }
  }

  struct Set: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "set",
      abstract: "Decide for an app, as if you had answered its request.",
      discussion: """
        Example: ekctl privacy set --app org.example.loans --entity events full
        """)

    @OptionGroup var location: Location

    @Option(help: "The app's bundle identifier (CFBundleIdentifier in its Info.plist).")
    var app: String

    @Option(help: "events or reminders.")
    var entity: EntityChoice

    @Argument(help: "full, write-only (events only), denied or restricted.")
    var status: StatusChoice

    func run() throws {
      guard status != .notDetermined else {
        throw ValidationError("Use `ekctl privacy reset --app \(app)` to forget a decision.")
      }
      let settings = try location.settings()
      try failing { try settings.set(status.status, for: app, entityType: entity.entityType) }
    }
  }

  struct Reset: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "reset",
      abstract: "Forget decisions, so that the app asks again (every app without --app).",
      discussion: """
        Without --app, a damaged privacy database is moved aside (Privacy.sqlite.damaged-DATE) \
        and every app asks again.
        """)

    @OptionGroup var location: Location

    @Option(help: "Only this app's decisions.")
    var app: String?

    func run() throws {
      if app == nil,
        let aside = try failing({ try PrivacySettings.setAsideIfDamaged(folder: location.folder) })
      {
        print(
          "The privacy database could not be read, so it was moved to \(aside.path). "
            + "Every app will ask for access again.")
        return
      }
      let settings = try location.settings()
      try failing { try settings.reset(bundleIdentifier: app) }
    }
  }
}

/// An entity type as the command line names it.
enum EntityChoice: String, ExpressibleByArgument, CaseIterable {
  case events, reminders

  init(_ type: EKEntityType) { self = type == .event ? .events : .reminders }

  var entityType: EKEntityType { self == .events ? .event : .reminder }
}

/// A status as the command line names it.
enum StatusChoice: String, ExpressibleByArgument, CaseIterable {
  /// What `set` accepts (forgetting a decision is `reset`).
  static var allValueStrings: [String] { ["full", "write-only", "denied", "restricted"] }

  case full
  case writeOnly = "write-only"
  case denied, restricted
  case notDetermined = "not-determined"

  init(_ status: EKAuthorizationStatus) {
    switch status {
    case .fullAccess: self = .full
    case .writeOnly: self = .writeOnly
    case .denied: self = .denied
    case .restricted: self = .restricted
    default: self = .notDetermined
    }
  }

  var status: EKAuthorizationStatus {
    switch self {
    case .full: .fullAccess
    case .writeOnly: .writeOnly
    case .denied: .denied
    case .restricted: .restricted
    case .notDetermined: .notDetermined
    }
  }
}
