import Foundation
import OpenEventKit

/// A CalDAV account as a tool shows it (`ekctl accounts`): the source of type `.calDAV` that
/// holds its calendars, where its server is, and how its sync stands. An OpenEventKit
/// addition.
///
/// A value read from the database when asked for (``CalDAVAccounts/accounts()``,
/// ``CalDAVAccounts/account(named:)``): it does not change as syncs go on; ask again for the
/// news. An app sees the same account as the `EKSource` whose `sourceIdentifier` is
/// ``sourceIdentifier``. See OpenEventKit's article Sync, "Accounts and passwords".
///
/// ```swift
/// let account = try CalDAVAccounts().account(named: "home")
/// print(account.name, account.user, account.url, account.homeURL)
/// for calendar in account.calendars {
///   print(calendar.title, calendar.entityType == .event ? "events" : "reminders")
/// }
/// if let error = account.lastError { print("last sync failed:", error) }
/// print(account.pendingChanges, "changes wait to be sent")
/// ```
public struct CalDAVAccount: Hashable, Sendable {
  /// One of its calendars.
  ///
  /// A server collection that takes both events and to-dos is two calendars here, one of each
  /// entity type, with the same ``url``.
  ///
  /// ```swift
  /// for account in try CalDAVAccounts().accounts() {
  ///   for calendar in account.calendars where !calendar.isReadOnly {
  ///     print(account.name, calendar.title, calendar.url.path)
  ///   }
  /// }
  /// ```
  public struct Calendar: Hashable, Sendable {
    /// The calendar's title, as the store's `EKCalendar` has it.
    public let title: String
    /// The store's `EKCalendar.calendarIdentifier` for it: what
    /// `EKEventStore.calendar(withIdentifier:)` takes.
    public let calendarIdentifier: String
    /// Whether it holds events (`.event`) or reminders (`.reminder`).
    public let entityType: EKEntityType
    /// Whether the server refuses changes to it (the store's `allowsContentModifications`
    /// is false).
    public let isReadOnly: Bool
    /// The collection's URL on the server.
    public let url: URL
  }

  /// The account's name, unique in the store (compared ignoring case): the server's host
  /// unless another was given to ``CalDAVAccounts/add(url:user:password:name:keepPassword:)``.
  public let name: String
  /// The source's `sourceIdentifier`.
  public let sourceIdentifier: String
  /// The URL the account was added with.
  public let url: URL
  /// The calendar home discovery found from ``url``: where the account's calendars are, and
  /// where a calendar made here is made. Always on the same server (scheme, host and port)
  /// as ``url``: discovery refuses a home elsewhere, since the password goes only to the
  /// server the person named (OpenEventKit's article Sync, "Accounts and passwords").
  public let homeURL: URL
  /// The user name the server knows the person by.
  public let user: String
  /// Its calendars, events' and reminders', as the last sync (or the adding) found them.
  public let calendars: [Calendar]
  /// When the last sync finished; nil before the first.
  public let lastSync: Date?
  /// Why the last sync failed, if it did.
  public let lastError: String?
  /// Local changes not yet sent.
  public let pendingChanges: Int
}
