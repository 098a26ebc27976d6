import Foundation

/// A real CalDAV server a test starts on 127.0.0.1 with one user: Radicale
/// (``RadicaleServer``) or Xandikos (``XandikosServer``), two code bases, so that a sync test
/// run against both checks the protocol rather than one server's reading of it. Each can be
/// stopped and started again on the same port and storage, and stops when the last reference
/// goes.
public protocol LocalCalDAVServer: AnyObject, Sendable {
  /// `http://127.0.0.1:PORT/`: what an account is added with (discovery starts there).
  var url: URL { get }
  /// The port of ``url``.
  var port: Int { get }
  /// The URL of a user's calendar home, where MKCALENDAR makes calendars.
  func home(user: String) -> URL
  /// Starts the server (again), on the same port and storage; waits until it answers.
  func start() throws
  /// Stops the server and waits for it to end.
  func stop()
  /// Whether the server runs.
  var isRunning: Bool { get }
  /// What the server logged, for a failure's message.
  var log: String { get }
}

/// Which server: a test's argument, named in its results.
public enum CalDAVServerKind: String, CaseIterable, Sendable, CustomStringConvertible {
  case radicale, xandikos

  public var description: String { rawValue }

  /// Starts a server of this kind with one user.
  public func start(user: String, password: String) throws -> any LocalCalDAVServer {
    switch self {
    case .radicale: try RadicaleServer(users: [user: password])
    case .xandikos: try XandikosServer(user: user, password: password)
    }
  }
}

extension RadicaleServer: LocalCalDAVServer {
  public func home(user: String) -> URL { url(user: user, "") }
}
