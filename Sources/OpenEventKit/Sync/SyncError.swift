import Foundation

/// Why a CalDAV account could not be added or synced, in words a person can act on. An
/// OpenEventKit addition, for tools (`ekctl account`, `ekctl sync`).
///
/// A sync that fails leaves every local change it did not send in the outbox, for the next
/// try: nothing is lost by a network or server failure.
public struct SyncError: Error, LocalizedError, CustomStringConvertible, Sendable, Equatable {
  public enum Code: Sendable, Equatable {
    /// The server refused the user name or password.
    case unauthorized
    /// The server could not be reached (no connection, refused, timed out).
    case unreachable
    /// The URL names no CalDAV server or calendar home, or something on it is gone.
    case notFound
    /// Plain HTTP to a host other than this machine (the password would cross the network
    /// in the clear), or an HTTPS server whose certificate is not trusted.
    case insecure
    /// The server answered something this client cannot use.
    case server
    /// There is no account of that name, or there is one already.
    case noSuchAccount, accountExists
    /// No password is kept for the account and none could be asked for.
    case noPassword
    /// Another sync of the account is running (in this or another process).
    case busy
    /// The calendar database failed.
    case store
  }

  public let code: Code
  public let message: String

  public init(_ code: Code, _ message: String) {
    self.code = code
    self.message = message
  }

  public var description: String { message }
  public var errorDescription: String? { message }
}
