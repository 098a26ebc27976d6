import AsyncHTTPClient
import CalDAV
import Foundation

/// One conditional GET of a subscribed calendar's feed (RFC 7232): `If-None-Match` with the
/// last `ETag`, `If-Modified-Since` with the last `Last-Modified`, so that a feed that has not
/// changed answers 304 and costs neither side a body. Redirects are followed by hand, at most
/// ``maximumRedirects``, each URL checked as the first; the body is read up to
/// ``maximumBodySize``; the whole answer must come within the deadline. Every failure is a
/// ``SyncError`` whose message says why in words (a feed's status, a loop, a body too large),
/// for `ekctl subscriptions` to show.
struct FeedFetch {
  /// What the feed answered.
  enum Answer {
    /// 304: what the store holds is current.
    case notModified
    /// 200 with the whole body, and the validators to send next time.
    case content(Data, etag: String?, lastModified: String?)
  }

  /// The most a feed's body may hold: a university's timetable or a season of fixtures is a
  /// few megabytes; more is not a calendar anyone subscribes to, and is not read into memory.
  static let maximumBodySize = 20 << 20
  /// Redirects followed before the feed is given up as a loop (as browsers, more or less).
  static let maximumRedirects = 5
  /// The longest one fetch may take, its whole answer included, unless told otherwise.
  static let defaultDeadline: Duration = .seconds(60)

  let http: HTTPClient
  let deadline: Duration

  /// A feed's URL as the store keeps it: `webcal://` (and `webcals://`) become `https://`,
  /// as Apple's Calendar reads them; `https://` as it is; `http://` only to this machine
  /// (a test's server, a feed on localhost), since a feed over plain HTTP could be changed on
  /// the way.
  static func normalized(_ text: String) throws(SyncError) -> URL {
    var text = text.trimmingCharacters(in: .whitespaces)
    for scheme in ["webcals://", "webcal://"] where text.lowercased().hasPrefix(scheme) {
      text = "https://" + text.dropFirst(scheme.count)
    }
    guard let url = URL(string: text) else {
      throw SyncError(.notFound, "\(text) is not a URL")
    }
    try check(url)
    return url
  }

  /// https with a host, or http to this machine; no user or password in it.
  static func check(_ url: URL) throws(SyncError) {
    if url.user != nil || url.password != nil {
      throw SyncError(
        .insecure,
        "the URL holds a user name or password (the part before @), which would be kept and "
          + "shown with it; private feeds put their secret in the path instead")
    }
    guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
      let host = url.host(percentEncoded: false), !host.isEmpty
    else {
      throw SyncError(
        .notFound, "\(url.absoluteString) is not a webcal://, https:// or http:// URL with a host")
    }
    if scheme == "http" && !CalDAVClient.isLoopback(host) {
      throw SyncError(
        .insecure,
        "refusing \(url.absoluteString): a feed over plain http:// could be changed on the "
          + "way; use https:// or webcal:// (plain http:// only to this machine)")
    }
  }

  /// Asks for the feed at `url`, conditionally on the validators of the content kept.
  func get(_ url: URL, etag: String?, lastModified: String?) async throws(SyncError) -> Answer {
    var url = url
    var redirects = 0
    while true {
      try Self.check(url)
      var request = HTTPClientRequest(url: url.absoluteString)
      request.method = .GET
      request.headers.add(name: "User-Agent", value: "OpenEventKit")
      request.headers.add(name: "Accept", value: "text/calendar, */*;q=0.5")
      if let etag { request.headers.add(name: "If-None-Match", value: Self.headerValue(etag)) }
      if let lastModified {
        request.headers.add(name: "If-Modified-Since", value: Self.headerValue(lastModified))
      }
      let response: HTTPClientResponse
      let body: Data
      do {
        (response, body) = try await CalDAVClient.within(deadline) { [http, request] in
          let response = try await http.execute(request, timeout: .seconds(300))
          // Only a 200's body is read; the others' are dropped as they come.
          guard response.status.code == 200 else { return (response, Data()) }
          let buffer = try await response.body.collect(upTo: Self.maximumBodySize)
          return (response, Data(buffer.readableBytesView))
        }
      } catch is CalDAVClient.DeadlinePassed {
        throw SyncError(
          .unreachable,
          "\(Self.shown(url)) sent no whole answer within \(deadline.components.seconds) s")
      } catch {
        if String(describing: type(of: error)).contains("TooManyBytes") {
          throw SyncError(
            .server,
            "\(Self.shown(url)) sent more than \(Self.maximumBodySize >> 20) MB, more than a "
              + "calendar holds; not read")
        }
        throw SyncError(translating: CalDAVClient.transportError(error, url: url))
      }
      let status = Int(response.status.code)
      switch status {
      case 200:
        return .content(
          body, etag: response.headers.first(name: "ETag"),
          lastModified: response.headers.first(name: "Last-Modified"))
      case 304:
        return .notModified
      case 301, 302, 303, 307, 308:
        guard let location = response.headers.first(name: "Location"),
          let next = URL(string: location, relativeTo: url)?.absoluteURL
        else {
          throw SyncError(.server, "\(Self.shown(url)) redirected (\(status)) to nowhere")
        }
        redirects += 1
        guard redirects <= Self.maximumRedirects else {
          throw SyncError(
            .server,
            "\(Self.shown(url)) redirected more than \(Self.maximumRedirects) times "
              + "(a redirect loop?); the last to \(Self.shown(next))")
        }
        url = next
      case 404, 410:
        throw SyncError(
          .notFound,
          "\(Self.shown(url)) answered \(status) \(response.status.reasonPhrase): the feed is "
            + "not there (any more)")
      default:
        throw SyncError(
          .server, "\(Self.shown(url)) answered \(status) \(response.status.reasonPhrase)")
      }
    }
  }

  /// A URL as messages show it: without its query, where private feeds often keep a token.
  static func shown(_ url: URL) -> String {
    guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true),
      components.query != nil
    else { return url.absoluteString }
    components.query = nil
    return (components.string ?? "") + "?…"
  }

  /// A validator as sent back: a line break in one (from a hostile server) would end the
  /// header.
  private static func headerValue(_ text: String) -> String {
    String(text.unicodeScalars.filter { $0 != "\r" && $0 != "\n" })
  }
}
