import Foundation
import OpenEventKit

/// What one sync of an account did: what came in, what went out, and the conflicts, each
/// resolved without losing either side (OpenEventKit's article Sync). An OpenEventKit
/// addition.
///
/// ``CalDAVAccounts/sync(named:password:deadline:progress:)`` returns one for each account it synced.
///
/// ```swift
/// for report in try await CalDAVAccounts().sync() {
///   print("\(report.account): \(report.received) in, \(report.sent) out")
///   for conflict in report.conflicts {
///     switch conflict.resolution {
///     case .merged: print("merged", conflict.title)
///     case .serverWon(let copy): print("server won", conflict.title, copy ?? "no copy")
///     }
///   }
///   for resource in report.unreadable { print("unreadable:", resource) }
/// }
/// ```
public struct SyncReport: Hashable, Sendable {
  /// A resource changed both here and on the server.
  ///
  /// OpenEventKit's article Sync, "Conflicts", says how each is resolved.
  ///
  /// ```swift
  /// for report in try await accounts.sync() {
  ///   for conflict in report.conflicts {
  ///     let both = conflict.properties.joined(separator: ", ")
  ///     print("\(conflict.title) in \(conflict.calendarTitle): both sides changed \(both)")
  ///   }
  /// }
  /// ```
  public struct Conflict: Hashable, Sendable {
    /// The item's title, as the server has it (or as it was here, when the server removed it).
    public let title: String
    /// The title of the calendar that holds the item here.
    public let calendarTitle: String
    /// How it was resolved.
    public let resolution: Resolution
    /// What both sides changed differently (`VEVENT SUMMARY`, …).
    public let properties: [String]
  }

  /// How a conflict was resolved.
  ///
  /// ```swift
  /// for report in try await accounts.sync(named: "home") {
  ///   for conflict in report.conflicts {
  ///     if case .serverWon(let copy?) = conflict.resolution,
  ///       let kept = store.calendarItem(withIdentifier: copy)
  ///     {
  ///       print("Your version of \(conflict.title) is kept as \(kept.title ?? "")")
  ///     }
  ///   }
  /// }
  /// ```
  public enum Resolution: Hashable, Sendable {
    /// The two sides changed different properties: both changes are kept, here and there.
    case merged
    /// The server's version won; the local one is kept in the local calendar "Conflicts",
    /// with this `calendarItemIdentifier`.
    ///
    /// The identifier is nil when there was no local version to keep: the item was removed
    /// here and changed on the server, which restores it.
    case serverWon(copyIdentifier: String?)
  }

  /// The name of the account synced (``CalDAVAccount/name``).
  public let account: String
  /// Items added or changed here from the server.
  public internal(set) var received = 0
  /// Items removed here because the server removed them.
  public internal(set) var receivedRemovals = 0
  /// Items sent to the server (added or changed there).
  public internal(set) var sent = 0
  /// Items removed on the server.
  public internal(set) var sentRemovals = 0
  /// Calendars made or removed here because of the server, or on the server, each in words
  /// (such as `made on the server: Work`).
  public internal(set) var calendarChanges: [String] = []
  /// The resources changed both here and on the server, and how each was resolved.
  public internal(set) var conflicts: [Conflict] = []
  /// Resources the server holds that could not be read (by URL, with why); they are left
  /// as they were here.
  public internal(set) var unreadable: [String] = []

  init(account: String) { self.account = account }

  /// Whether anything moved either way.
  public var isEmpty: Bool {
    received == 0 && receivedRemovals == 0 && sent == 0 && sentRemovals == 0
      && calendarChanges.isEmpty && conflicts.isEmpty && unreadable.isEmpty
  }
}
