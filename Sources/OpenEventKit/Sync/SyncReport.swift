import Foundation

/// What one sync of an account did: what came in, what went out, and the conflicts, each
/// resolved without losing either side (<doc:Sync>). An OpenEventKit addition.
public struct SyncReport: Hashable, Sendable {
  /// A resource changed both here and on the server.
  public struct Conflict: Hashable, Sendable {
    /// The item's title, as the server has it (or as it was here, when the server removed it).
    public let title: String
    public let calendarTitle: String
    /// How it was resolved.
    public let resolution: Resolution
    /// What both sides changed differently (`VEVENT SUMMARY`, …).
    public let properties: [String]
  }

  public enum Resolution: Hashable, Sendable {
    /// The two sides changed different properties: both changes are kept, here and there.
    case merged
    /// The server's version won; the local one is kept in the local calendar "Conflicts",
    /// with this `calendarItemIdentifier`.
    case serverWon(copyIdentifier: String?)
  }

  public let account: String
  /// Items added or changed here from the server.
  public internal(set) var received = 0
  /// Items removed here because the server removed them.
  public internal(set) var receivedRemovals = 0
  /// Items sent to the server (added or changed there).
  public internal(set) var sent = 0
  /// Items removed on the server.
  public internal(set) var sentRemovals = 0
  /// Calendars made or removed here because of the server, or on the server.
  public internal(set) var calendarChanges: [String] = []
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
