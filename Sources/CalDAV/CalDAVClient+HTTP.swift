import AsyncHTTPClient
import Foundation
import Logging
import NIOSSL

/// A response read to its end.
struct HTTPResult: Sendable {
  var status: Int
  /// The `ETag` header, as given.
  var etag: String?
  var body: Data
  /// The URL that answered: the one asked, or where redirects led.
  var url: URL
}

extension CalDAVClient {
  /// Sends one request and reads its answer, authenticating as needed: Basic at once (the
  /// URL is HTTPS or this machine, `checkScheme` saw to it), Digest once the server asks for
  /// it, a new nonce when the server says the old one is stale. Follows redirects (at most
  /// five) only when asked; every URL on the way is checked like the base URL.
  ///
  /// Every request, and every redirect before it is followed, stays on the base URL's
  /// origin (``CalDAVError/otherOrigin(what:named:leadsTo:user:)``): the credentials go with
  /// each request, and only to the server the person named.
  ///
  /// With `streaming`, a 207 answer's body is handed to it piece by piece as it comes, and
  /// not kept (the result's body is empty): the caller bounds what it reads, not
  /// ``maximumBodySize``. Any other answer is read whole as without it. An error `streaming`
  /// throws stops the answer, and `send` throws a ``CalDAVError`` in its place: a caller that
  /// needs its own error keeps it.
  func send(
    _ method: String, _ url: URL, headers: [(String, String)] = [], body: Data? = nil,
    followRedirects: Bool = false,
    streaming: (@Sendable ([UInt8]) async throws -> Void)? = nil
  ) async throws(CalDAVError) -> HTTPResult {
    var url = url
    var redirects = 0
    var challenges = 0
    while true {
      try Self.checkScheme(of: url)
      try checkOrigin(of: url, "a request to \(Self.shown(url))")
      var request = HTTPClientRequest(url: url.absoluteString)
      request.method = .RAW(value: method)
      request.headers.add(name: "User-Agent", value: "OpenEventKit")
      for (name, value) in headers {
        // A line break in a value (an ETag from a hostile server) would end the header.
        let value = String(value.unicodeScalars.filter { $0 != "\r" && $0 != "\n" })
        request.headers.add(name: name, value: value)
      }
      if let body { request.body = .bytes(body) }
      let (authorization, usedDigest) = authorization(method: method, url: url, body: body)
      request.headers.add(name: "Authorization", value: authorization)

      let status: Int
      let data: Data
      let response: HTTPClientResponse
      let start = ContinuousClock.now
      do {
        // The whole answer within the deadline: the head, then the body.
        (response, data) = try await Self.within(requestDeadline) {
          [http, request, maximumBodySize] in
          let response = try await http.execute(request, timeout: .seconds(300))
          if let streaming, response.status.code == 207 {
            for try await piece in response.body {
              try await streaming(Array(piece.readableBytesView))
            }
            return (response, Data())
          }
          let buffer = try await response.body.collect(upTo: maximumBodySize)
          return (response, Data(buffer.readableBytesView))
        }
        status = Int(response.status.code)
      } catch is DeadlinePassed {
        let failure = CalDAVError.unreachable(
          "\(Self.place(of: url)): no whole answer within \(requestDeadline.components.seconds) s; "
            + "the server may be overloaded, or sending slowly on purpose")
        Self.log.debug("\(method) \(url.absoluteString): \(failure)")
        throw failure
      } catch  where Self.isTooManyBytes(error) {
        let failure = CalDAVError.answerTooLarge(url, limit: maximumBodySize)
        Self.log.debug("\(method) \(url.absoluteString): \(failure)")
        throw failure
      } catch {
        let failure = Self.transportError(error, url: url)
        Self.log.debug("\(method) \(url.absoluteString): \(failure)")
        throw failure
      }
      let took = ContinuousClock.now - start
      Self.log.debug(
        "\(method) \(url.absoluteString) \(body?.count ?? 0) bytes → \(status), \(data.count) bytes in \(took)"
      )

      if status == 401 {
        challenges += 1
        let offered = AuthenticationChallenge.parse(response.headers["WWW-Authenticate"])
        let stale = offered.contains { $0.scheme == "digest" && DigestAuthentication.isStale($0) }
        // Basic refused, or a Digest nonce the server dropped (stale, or not said so once):
        // answer the new challenge. Refused again with a fresh nonce: the password is wrong.
        if challenges <= 2, let fresh = DigestAuthentication.best(of: offered),
          !usedDigest || stale || challenges == 1
        {
          digest.withLock { $0 = fresh }
          continue
        }
        throw .unauthorized(url)
      }
      if followRedirects, [301, 302, 303, 307, 308].contains(status),
        let location = response.headers.first(name: "Location"),
        let next = URL(string: location, relativeTo: url)?.absoluteURL
      {
        redirects += 1
        guard redirects <= 5 else {
          throw .server(status: status, url: url, excerpt: "more than 5 redirects")
        }
        try checkOrigin(of: next, "a redirect (\(status)) from \(Self.shown(url))")
        url = next
        continue
      }
      return HTTPResult(
        status: status, etag: response.headers.first(name: "ETag"), body: data, url: url)
    }
  }

  /// The `Authorization` header for a request, and whether it is Digest's.
  private func authorization(method: String, url: URL, body: Data?) -> (String, Bool) {
    let target = Self.requestTarget(url)
    let digestAnswer = digest.withLock { state -> String? in
      guard state != nil else { return nil }
      return state?.authorization(
        method: method, uri: target, body: body, user: user, password: password)
    }
    if let digestAnswer { return (digestAnswer, true) }
    return ("Basic " + Data("\(user):\(password)".utf8).base64EncodedString(), false)
  }

  /// The path and query as async-http-client writes them on the request line, which Digest
  /// signs.
  static func requestTarget(_ url: URL) -> String {
    var target =
      url.path.isEmpty
      ? "/"
      : URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedPath ?? url.path
    if let query = url.query { target += "?" + query }
    return target
  }

  /// `body`'s result, or ``DeadlinePassed`` once `limit` has passed, `body` then cancelled
  /// (async-http-client ends a request whose task is cancelled, its body's reading too).
  package static func within<Value: Sendable>(
    _ limit: Duration, _ body: @escaping @Sendable () async throws -> Value
  ) async throws -> Value {
    try await withThrowingTaskGroup(of: Value?.self) { group in
      group.addTask { try await body() }
      group.addTask {
        try await Task.sleep(for: limit)
        return nil
      }
      defer { group.cancelAll() }
      guard let first = try await group.next(), let value = first else { throw DeadlinePassed() }
      return value
    }
  }

  /// A request's deadline passed before its whole answer came.
  package struct DeadlinePassed: Error {}

  /// `host:port` of a URL, as the errors say it.
  static func place(of url: URL) -> String {
    let host = url.host(percentEncoded: false) ?? "?"
    let port = url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
    return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
  }

  /// What went wrong below HTTP, as a ``CalDAVError``.
  package static func transportError(_ error: any Error, url: URL) -> CalDAVError {
    let place = place(of: url)
    if error is CancellationError { return .unreachable("\(place): the request was cancelled") }
    let text = String(describing: error)
    if let error = error as? HTTPClientError {
      switch error {
      case .connectTimeout: return .unreachable("\(place): timed out connecting")
      case .readTimeout, .deadlineExceeded:
        return .unreachable("\(place): timed out waiting for an answer")
      case .remoteConnectionClosed:
        return .unreachable("\(place): the server closed the connection")
      case .alreadyShutdown: return .unreachable("\(place): this client has been shut down")
      case .cancelled: return .unreachable("\(place): the request was cancelled")
      default: return .unreachable("\(place): \(text)")
      }
    }
    switch error {
    case NIOSSLError.handshakeFailed(let underlying):
      let reason =
        "\(underlying)".contains("CERTIFICATE_VERIFY_FAILED")
        ? "certificate verify failed" : "the TLS handshake failed (\(underlying))"
      return .untrustedCertificate("\(place): \(reason)")
    case let error as NIOSSLExtraError where error == .failedToValidateHostname:
      return .untrustedCertificate("\(place): the certificate is for another host")
    default: break
    }
    if isTooManyBytes(error) {
      return .answerTooLarge(url, limit: defaultMaximumBodySize)
    }
    let lowered = text.lowercased()
    if lowered.contains("refused") { return .unreachable("\(place): connection refused") }
    if lowered.contains("timeout") || lowered.contains("timed out") {
      return .unreachable("\(place): timed out")
    }
    if lowered.contains("unreachable") { return .unreachable("\(place): network unreachable") }
    return .unreachable("\(place): \(text)")
  }

  /// Whether `error` is a body's reading stopped at its limit (NIO's `NIOTooManyBytesError`).
  static func isTooManyBytes(_ error: any Error) -> Bool {
    String(describing: type(of: error)).contains("TooManyBytes")
  }

  /// The error for a status the caller did not expect.
  static func failure(_ result: HTTPResult) -> CalDAVError {
    switch result.status {
    case 401: return .unauthorized(result.url)
    case 404, 410: return .notFound
    case 412: return .preconditionFailed
    default: return .server(status: result.status, url: result.url, excerpt: excerpt(result.body))
    }
  }

  /// The start of a body as one line of text, for error messages.
  static func excerpt(_ body: Data) -> String {
    let text = String(decoding: body.prefix(400), as: UTF8.self)
    let words = text.split(whereSeparator: { $0.isWhitespace || $0.isNewline })
    let line = words.joined(separator: " ")
    return line.count > 200 ? String(line.prefix(200)) + "…" : line
  }
}
