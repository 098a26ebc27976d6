import AsyncHTTPClient
import Foundation
import Logging
import NIOSSL
import Synchronization

/// A CalDAV client for one account: discovery (RFC 6764, RFC 4791 §6), calendar collections
/// (MKCALENDAR, PROPPATCH, DELETE), sync (RFC 6578 sync-collection, or CTag and ETags),
/// calendar-multiget, and conditional PUT and DELETE of resources. It keeps no store: the
/// sync engine decides what to ask.
///
/// Requests go through one `HTTPClient` (async-http-client) on the shared event loops; call
/// ``shutdown()`` when done. Authentication is Basic, sent at once over HTTPS or to this
/// machine, or Digest (RFC 7616, MD5 or SHA-256) when the server asks for it. Every failure
/// is a ``CalDAVError``.
///
/// HTTPS servers are trusted by the system's certificate authorities, or by those of the PEM
/// file `SSL_CERT_FILE` names when it is set, as OpenSSL's tools do: a server with a
/// certificate of its own (a Radicale at home) is reached by naming its certificate there.
package final class CalDAVClient: Sendable {
  /// The URL the account was set up with.
  package let baseURL: URL
  let user: String
  let password: String
  let http: HTTPClient
  /// The Digest challenge in use, once a server has asked for Digest.
  let digest = Mutex<DigestAuthentication?>(nil)
  private let isShutDown = Mutex(false)

  /// Each request, its answer's status and size and how long it took, at `debug`; never a
  /// header (the Authorization one holds the password) nor a body.
  static let log = Logger(label: "org.openeventkit.caldav")

  /// The most a response body may hold unless a test says otherwise: a calendar-multiget
  /// batch of large events fits, and one that does not is asked again in halves.
  package static let defaultMaximumBodySize = 64 << 20
  /// Resources per calendar-multiget request. Radicale spends about 10 ms on any multiget
  /// before its first resource (it lists the collection's folder), so larger batches ask less
  /// of it: the 10,000 events of `ekbench sync` took it 2.07 s in multigets of 100, 1.41 s in
  /// 500, 1.37 s in 1,000 (docs/PERFORMANCE.md). An answer of 500 everyday events (about
  /// 900 bytes each) is about 0.45 MB; one over ``maximumBodySize`` is asked again in halves.
  package static let multigetBatchSize = 500
  /// Members asked per page of a sync-collection report (DAV:limit, RFC 6578 §3.7).
  package static let syncPageSize = 1_000

  /// The longest one request may take, its whole answer included. The read timeout alone
  /// does not bound it: a server that trickles a byte a second resets that timeout with each
  /// byte, and would hold the sync, and the account's sync lock, for ever. Ten minutes is
  /// room for a 64 MB answer (``defaultMaximumBodySize``) at about 110 KB/s.
  package static let defaultRequestDeadline: Duration = .seconds(600)

  /// The longest one request may take here (``defaultRequestDeadline`` unless a test says
  /// otherwise).
  let requestDeadline: Duration
  /// The most an answer's body may hold here (``defaultMaximumBodySize`` unless a test says
  /// otherwise): past it, the request fails with ``CalDAVError/answerTooLarge(_:limit:)``.
  let maximumBodySize: Int

  /// A client for the server at `baseURL` (http or https). Plain http is refused with
  /// ``CalDAVError/insecure(_:)`` unless the host is this machine (127.0.0.1, ::1,
  /// localhost), since the password would cross the network in clear.
  package init(
    baseURL: URL, user: String, password: String,
    requestDeadline: Duration = CalDAVClient.defaultRequestDeadline,
    maximumBodySize: Int = CalDAVClient.defaultMaximumBodySize
  ) throws(CalDAVError) {
    try Self.checkScheme(of: baseURL)
    self.baseURL = baseURL
    self.user = user
    self.password = password
    self.requestDeadline = requestDeadline
    self.maximumBodySize = maximumBodySize
    // The read timeout is the longest silence allowed within an answer. Servers are slow on
    // a large collection's listing and say nothing until it is made: Radicale 3.9 takes
    // about 50 s to index 10,000 events on this class of machine before its first byte, and
    // 160 s to list 100,000 whose cache it has (300 s when it must make the cache first), so
    // it is generous; the request's deadline still bounds the whole answer.
    var configuration = HTTPClient.Configuration(
      tlsConfiguration: Self.tlsConfiguration(),
      redirectConfiguration: .disallow,
      timeout: .init(connect: .seconds(10), read: .seconds(300)))
    // A refused connection is an answer: say so at once rather than retry until the
    // connect timeout.
    configuration.connectionPool.retryConnectionEstablishment = false
    http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
  }

  deinit {
    // The HTTPClient must be shut down before it goes; when the owner did not, start it.
    let wasShutDown = isShutDown.withLock { value in
      defer { value = true }
      return value
    }
    if !wasShutDown { http.shutdown { _ in } }
  }

  /// Shuts the HTTP client down; requests after it fail. Safe to call twice.
  package func shutdown() async {
    let wasShutDown = isShutDown.withLock { value in
      defer { value = true }
      return value
    }
    if !wasShutDown { try? await http.shutdown() }
  }

  /// The system's trust roots, or only those of `SSL_CERT_FILE` when it names a file, as
  /// OpenSSL reads it (`X509_get_default_cert_file_env`).
  package static func tlsConfiguration(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> TLSConfiguration {
    var configuration = TLSConfiguration.makeClientConfiguration()
    if let file = environment["SSL_CERT_FILE"], !file.isEmpty {
      configuration.trustRoots = .file(file)
    }
    return configuration
  }

  /// http or https with a host, and no user or password in it; http only to this machine.
  static func checkScheme(of url: URL) throws(CalDAVError) {
    // First: the other messages show the URL.
    if url.user != nil || url.password != nil { throw .credentialsInURL }
    guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
      let host = url.host(percentEncoded: false), !host.isEmpty
    else {
      throw .malformed("\(url.absoluteString) is not an http:// or https:// URL with a host")
    }
    if scheme == "http" && !isLoopback(host) { throw .insecure(url) }
  }

  package static func isLoopback(_ host: String) -> Bool {
    let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
    return host == "localhost" || host == "127.0.0.1" || host == "::1"
  }
}
