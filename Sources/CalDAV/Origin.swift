import Foundation

/// Where a request goes, as browsers compare it (RFC 6454): scheme, host and port. A client
/// talks to one origin only, the one of the URL the person gave: the password goes nowhere
/// they did not name, whatever a redirect or an href says (<doc:Sync>).
package struct Origin: Hashable, Sendable, CustomStringConvertible {
  package let scheme: String
  /// Lowercased, without the brackets of an IPv6 address.
  package let host: String
  /// The URL's port, or its scheme's (80, 443).
  package let port: Int

  /// The origin of an http or https URL with a host; nil for any other.
  package init?(_ url: URL) {
    guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
      let host = url.host(percentEncoded: false)?.lowercased()
        .trimmingCharacters(in: CharacterSet(charactersIn: "[]")),
      !host.isEmpty
    else { return nil }
    self.scheme = scheme
    self.host = host
    port = url.port ?? (scheme == "https" ? 443 : 80)
  }

  /// `scheme://host:port`, the port always said.
  package var description: String {
    "\(scheme)://\(host.contains(":") ? "[\(host)]" : host):\(port)"
  }
}

extension CalDAVClient {
  /// Whether `url` names a member of `collection`: the same origin, and a path inside the
  /// collection's once percent-decoded. A path with `.` or `..` segments, or an empty one
  /// (`//`), even encoded (`%2E%2E`), is never a member: a server could read it as a path
  /// out of the collection.
  package static func isMember(_ url: URL, of collection: URL) -> Bool {
    guard Origin(url) == Origin(collection), let path = segments(url),
      let base = segments(collection), path.count > base.count
    else { return false }
    return Array(path.prefix(base.count)) == base
  }

  /// What names a member whatever its encoding: its origin and decoded segments; nil for a
  /// URL that is no member of anything (see ``isMember(_:of:)``). Two hrefs of a server
  /// with the same key are one resource (`a@b.ics` and `a%40b.ics`).
  package static func memberKey(_ url: URL) -> String? {
    guard let origin = Origin(url), let path = segments(url) else { return nil }
    return origin.description + "/" + path.joined(separator: "/")
  }

  /// The decoded segments of a URL's path (a trailing slash aside); nil when one is empty,
  /// `.` or `..`.
  static func segments(_ url: URL) -> [String]? {
    var parts = url.path(percentEncoded: false).split(
      separator: "/", omittingEmptySubsequences: false
    ).map(String.init)
    if parts.first == "" { parts.removeFirst() }
    if parts.last == "" { parts.removeLast() }
    guard !parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) else { return nil }
    return parts
  }

  /// A URL as a message or a log line may show it: without a user name or password, which a
  /// server's Location or href may hold.
  package static func shown(_ url: URL) -> String {
    guard url.user != nil || url.password != nil,
      var components = URLComponents(url: url, resolvingAgainstBaseURL: true)
    else { return url.absoluteString }
    components.user = nil
    components.password = nil
    return components.url?.absoluteString ?? Origin(url)?.description ?? "?"
  }

  /// Refuses `url` unless it is on the client's origin: `what` led there ("a redirect").
  func checkOrigin(of url: URL, _ what: @autoclosure () -> String) throws(CalDAVError) {
    guard Origin(url) != Origin(baseURL) else { return }
    throw .otherOrigin(
      what: what(), named: baseURL, leadsTo: URL(string: Self.shown(url)) ?? baseURL, user: user)
  }
}
