import Foundation
import OpenEventKit

/// Why a CalDAV account could not be added or synced, in words a person can act on. An
/// OpenEventKit addition, for tools (`ekctl account`, `ekctl sync`).
///
/// A sync that fails leaves every local change it did not send in the outbox, for the next
/// try: nothing is lost by a network or server failure.
///
/// ``CalDAVAccounts`` throws it; ``code`` is for a program to act on, ``message`` for the
/// person (OpenEventKit's article Sync, "When things go wrong").
///
/// ```swift
/// do {
///   _ = try await accounts.sync(named: "home")
/// } catch let error as SyncError {
///   switch error.code {
///   case .busy: break  // another process is syncing it
///   case .unauthorized: print("Add the account again with the right password.")
///   default: print(error.message)
///   }
/// }
/// ```
public struct SyncError: Error, LocalizedError, CustomStringConvertible, Sendable, Equatable {
  /// What kind of failure it is, for a program to act on.
  ///
  /// ```swift
  /// do {
  ///   _ = try await accounts.sync(named: "home")
  /// } catch let error as SyncError where error.code == .unreachable || error.code == .busy {
  ///   print("Try again later:", error.message)  // nothing is lost
  /// }
  /// ```
  public enum Code: Sendable, Equatable {
    /// The server refused the user name or password.
    case unauthorized
    /// The server could not be reached (no connection, refused, timed out).
    case unreachable
    /// The URL names no CalDAV server or calendar home, or something on it is gone.
    case notFound
    /// Plain HTTP to a host other than this machine (the password would cross the network
    /// in the clear), an HTTPS server whose certificate is not trusted, a URL with a user
    /// name or password in it (which would be kept and shown with the URL), or a server that
    /// leads to another (a redirect, a calendar home elsewhere), where the password is not
    /// sent.
    case insecure
    /// The server answered something this client cannot use.
    case server
    /// There is no account of that name, or there is one already.
    case noSuchAccount, accountExists
    /// There is no subscribed calendar of that name, or there is one already (of that name or
    /// that URL).
    case noSuchSubscription, subscriptionExists
    /// No password is kept for the account and none could be asked for.
    case noPassword
    /// Another sync of the account is running (in this or another process).
    case busy
    /// The calendar database failed.
    case store
  }

  /// What kind of failure it is.
  public let code: Code
  /// The failure in words a person can act on, such as `the server refused the user name
  /// or password`.
  public let message: String

  /// An error of `code`, said by `message`.
  ///
  /// For code that wraps ``CalDAVAccounts`` and reports its own failures the same way; the
  /// library makes its own.
  ///
  /// ```swift
  /// let error = SyncError(.noPassword, "no password is kept for home; give one with --password")
  /// print(error.code == .noPassword, error.localizedDescription)
  /// // true no password is kept for home; give one with --password
  /// ```
  ///
  /// - Parameters:
  ///   - code: What kind of failure it is.
  ///   - message: The failure in words, as ``message`` gives it.
  public init(_ code: Code, _ message: String) {
    self.code = code
    self.message = message
  }

  /// The ``message``.
  public var description: String { message }
  /// The ``message``, for `localizedDescription`.
  public var errorDescription: String? { message }
}
