import Foundation

/// A CalDAV account as a tool shows it (`ekctl accounts`): the source of type `.calDAV` that
/// holds its calendars, where its server is, and how its sync stands. An OpenEventKit
/// addition.
public struct CalDAVAccount: Hashable, Sendable {
  /// One of its calendars.
  public struct Calendar: Hashable, Sendable {
    public let title: String
    public let calendarIdentifier: String
    public let entityType: EKEntityType
    public let isReadOnly: Bool
    /// The collection's URL on the server.
    public let url: URL
  }

  public let name: String
  /// The source's `sourceIdentifier`.
  public let sourceIdentifier: String
  /// The URL the account was added with.
  public let url: URL
  public let user: String
  public let calendars: [Calendar]
  /// When the last sync finished; nil before the first.
  public let lastSync: Date?
  /// Why the last sync failed, if it did.
  public let lastError: String?
  /// Local changes not yet sent.
  public let pendingChanges: Int
}
