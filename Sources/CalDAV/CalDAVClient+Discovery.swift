import Foundation

extension CalDAVClient {
  /// Finds the account's principal, calendar home and calendars (RFC 6764 §5, RFC 4791
  /// §6.2.1): from a bare host, `/.well-known/caldav` first (redirects followed), then the
  /// base URL itself; then `current-user-principal`, its `calendar-home-set`, and the
  /// calendars in the home. A base URL that is a calendar or the home leads to the same home,
  /// through the principal the server names, or as the calendar's parent when it names none.
  ///
  /// A redirect, principal, home or calendar on another origin than the base URL's is
  /// refused (``CalDAVError/otherOrigin(what:named:leadsTo:user:)``) before anything is sent
  /// there: the person named one server, and the password goes to it alone.
  package func discover() async throws -> CalDAVDiscovery {
    let (start, properties) = try await firstContext()
    let principal =
      properties.currentUserPrincipal.flatMap { Self.resolve($0, against: start) }
      ?? properties.principalURL.flatMap { Self.resolve($0, against: start) }
    if let principal {
      try checkOrigin(of: principal, "the principal that \(Self.shown(start)) names")
    }
    var home = properties.calendarHomeSet?.first.flatMap { Self.resolve($0, against: start) }
    if let found = home {
      try checkOrigin(of: found, "the calendar home that \(Self.shown(start)) names")
    }
    if home == nil, let principal {
      let result = try await propfind(principal, depth: 0, ["C:calendar-home-set"])
      let found = try Self.multistatus(result).responses.first?.found
      home = found?.calendarHomeSet?.first.flatMap { Self.resolve($0, against: result.url) }
      if let found = home {
        try checkOrigin(of: found, "the calendar home that \(Self.shown(principal)) names")
      }
    }
    if home == nil {
      // No principal or no home set: the base URL is the home, or a calendar in it.
      let isCalendar = properties.resourceTypes?.contains("calendar") ?? false
      home = isCalendar ? start.deletingLastPathComponent() : start
    }
    guard let home else { throw CalDAVError.malformed("no calendar home found") }
    let calendars = try await calendars(home: home)
    return CalDAVDiscovery(principalURL: principal ?? home, homeURL: home, calendars: calendars)
  }

  /// The first context path that answers a PROPFIND: the well-known URL for a bare host,
  /// then the base URL. Returns the URL that answered (after redirects) and its properties.
  private func firstContext() async throws(CalDAVError) -> (URL, Properties) {
    let path = baseURL.path(percentEncoded: true)
    var candidates = [baseURL]
    if path.isEmpty || path == "/" {
      var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: true)
      components?.path = "/.well-known/caldav"
      components?.query = nil
      if let wellKnown = components?.url { candidates.insert(wellKnown, at: 0) }
    }
    let asked = [
      "D:current-user-principal", "D:principal-URL", "C:calendar-home-set", "D:resourcetype",
    ]
    var lastError: CalDAVError?
    for candidate in candidates {
      let result = try await propfind(candidate, depth: 0, asked, followRedirects: true)
      guard result.status == 207 else {
        lastError = Self.failure(result)
        continue
      }
      let multistatus: Multistatus
      do {
        multistatus = try Self.multistatus(result)
      } catch {
        lastError = error
        continue
      }
      let response =
        multistatus.responses.first {
          $0.hrefs.contains {
            Self.resolve($0, against: result.url).map { Self.samePath($0, result.url) } ?? false
          }
        } ?? multistatus.responses.first
      return (result.url, response?.found ?? Properties())
    }
    throw lastError ?? CalDAVError.malformed("no CalDAV service found at \(baseURL.absoluteString)")
  }

  /// The calendar collections in `home` (PROPFIND Depth 1): other members are left out, and
  /// so are hrefs outside the home (logged); a calendar on another origin is refused, as
  /// discovery refuses a home there.
  ///
  /// The listing asks for no CTag or sync token: a server may compute them from every member
  /// (Radicale 3.9 takes 0.6 s for each in a calendar of 10,000 events, against 3 ms for the
  /// rest), and each calendar's own sync request says whether it changed.
  package func calendars(home: URL) async throws -> [RemoteCalendar] {
    let result = try await propfind(
      home, depth: 1,
      [
        "D:resourcetype", "D:displayname", "I:calendar-color", "C:supported-calendar-component-set",
        "D:current-user-privilege-set",
      ])
    var calendars: [RemoteCalendar] = []
    for response in try Self.multistatus(result).responses {
      guard let href = response.hrefs.first, let url = Self.resolve(href, against: result.url),
        !Self.samePath(url, home)
      else { continue }
      let properties = response.found
      guard properties.resourceTypes?.contains("calendar") ?? false else { continue }
      try checkOrigin(of: url, "a calendar that \(Self.shown(home)) lists")
      guard Self.isMember(url, of: home) else {
        Self.log.warning(
          "\(Self.shown(home)) lists \(Self.shown(url)), which is not in it; ignored")
        continue
      }
      let components = Set(properties.components ?? [])
      let privileges = properties.privileges
      calendars.append(
        RemoteCalendar(
          url: url, displayName: properties.displayName, color: properties.calendarColor,
          components: components.isEmpty ? ["VEVENT", "VTODO", "VJOURNAL"] : components,
          isReadOnly: privileges.map { $0.isDisjoint(with: ["write", "write-content", "all"]) }
            ?? false))
    }
    return calendars
  }

  /// A PROPFIND of `properties` (prefixed names, see ``RequestBodies``); any answer but 207
  /// is an error, except for the context search, which looks at it itself.
  func propfind(
    _ url: URL, depth: Int, _ properties: [String], followRedirects: Bool = false
  ) async throws(CalDAVError) -> HTTPResult {
    let result = try await send(
      "PROPFIND", url,
      headers: [("Depth", String(depth)), ("Content-Type", "application/xml; charset=utf-8")],
      body: RequestBodies.propfind(properties), followRedirects: followRedirects)
    if result.status != 207 && !followRedirects { throw Self.failure(result) }
    return result
  }

  /// The multistatus of a 207 answer; any other status is an error.
  static func multistatus(_ result: HTTPResult) throws(CalDAVError) -> Multistatus {
    guard result.status == 207 else { throw failure(result) }
    return try Multistatus.parse(result.body, from: result.url)
  }

  /// An href from a response (a path, possibly percent-encoded, or an absolute URL)
  /// resolved against the URL asked; nil when it is not an http(s) URL.
  static func resolve(_ href: String, against base: URL) -> URL? {
    let url =
      URL(string: href, relativeTo: base)?.absoluteURL
      ?? href.addingPercentEncoding(withAllowedCharacters: hrefCharacters)
      .flatMap { URL(string: $0, relativeTo: base)?.absoluteURL }
    guard let url, let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https"
    else { return nil }
    return url
  }

  private static let hrefCharacters = CharacterSet.urlPathAllowed.union(
    CharacterSet(charactersIn: ":?#"))

  /// Whether two URLs name the same resource: the same decoded path, a trailing slash aside.
  static func samePath(_ first: URL, _ second: URL) -> Bool {
    func normal(_ url: URL) -> String {
      var path = url.path(percentEncoded: false)
      while path.hasSuffix("/") { path.removeLast() }
      return path
    }
    return normal(first) == normal(second)
  }
}
