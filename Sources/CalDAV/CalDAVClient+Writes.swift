import Foundation

extension CalDAVClient {
  /// Writes a resource (text/calendar). With no `ifMatch` it must be new (`If-None-Match: *`);
  /// otherwise the server must still have that ETag (`If-Match`). Returns the new ETag when
  /// the server gives one, strong or weak as given. 412 is
  /// ``CalDAVError/preconditionFailed``; a refusal naming CALDAV:no-uid-conflict is
  /// ``CalDAVError/uidConflict``, whatever its status (Radicale answers 409, Xandikos 412).
  package func put(_ resource: URL, data: Data, ifMatch: String?) async throws -> String? {
    let condition = ifMatch.map { ("If-Match", Self.entityTag($0)) } ?? ("If-None-Match", "*")
    let result = try await send(
      "PUT", resource,
      headers: [("Content-Type", "text/calendar; charset=utf-8"), condition], body: data)
    if [403, 409, 412].contains(result.status),
      preconditions(in: result.body).contains("no-uid-conflict")
    {
      throw CalDAVError.uidConflict
    }
    guard (200..<300).contains(result.status) else { throw Self.failure(result) }
    return result.etag
  }

  /// Removes a resource, only if the server still has `ifMatch` when given. 412 is
  /// ``CalDAVError/preconditionFailed``, 404 ``CalDAVError/notFound``.
  package func delete(_ resource: URL, ifMatch: String?) async throws {
    let headers = ifMatch.map { [("If-Match", Self.entityTag($0))] } ?? []
    let result = try await send("DELETE", resource, headers: headers)
    guard (200..<300).contains(result.status) else { throw Self.failure(result) }
  }

  /// The ETag of one resource (PROPFIND Depth 0), nil when the server gives none.
  package func etag(_ resource: URL) async throws -> String? {
    let result = try await propfind(resource, depth: 0, ["D:getetag"])
    let responses = try Self.multistatus(result).responses
    let own =
      responses.first {
        $0.hrefs.contains {
          Self.resolve($0, against: result.url).map { Self.samePath($0, resource) } ?? false
        }
      } ?? responses.first
    if let status = own?.status, status == 404 || status == 410 { throw CalDAVError.notFound }
    return own?.found.etag
  }

  /// Makes a calendar collection in `home` (MKCALENDAR, RFC 4791 §5.3.1) named `name`, or
  /// under a fresh name, with its display name, Apple's calendar-color and the components it
  /// takes; returns its URL. (A caller that names it after its own calendar finds it again
  /// after a crash between the server's answer and its own record of it.)
  package func makeCalendar(
    home: URL, name: String? = nil, displayName: String, color: String?,
    components: Set<String>
  ) async throws -> URL {
    let url = home.appendingPathComponent(name ?? UUID().uuidString, isDirectory: true)
    let result = try await send(
      "MKCALENDAR", url, headers: [("Content-Type", "application/xml; charset=utf-8")],
      body: RequestBodies.makeCalendar(
        displayName: displayName, color: color, components: components))
    if result.status == 405 || result.status == 501 {
      throw CalDAVError.unsupported(
        "MKCALENDAR in \(home.absoluteString) (it answered \(result.status))")
    }
    guard (200..<300).contains(result.status) else { throw Self.failure(result) }
    return url
  }

  /// Renames and recolours a collection (PROPPATCH); a nil colour removes it.
  package func updateCalendar(_ collection: URL, displayName: String, color: String?) async throws {
    let result = try await send(
      "PROPPATCH", collection, headers: [("Content-Type", "application/xml; charset=utf-8")],
      body: RequestBodies.updateCalendar(displayName: displayName, color: color))
    if result.status == 207 {
      // Every property succeeds or none does (RFC 4918 §9.2): a failed propstat is the answer.
      for response in try Multistatus.parse(result.body, from: result.url).responses {
        let refused = response.propstats.compactMap(\.status).filter { !(200..<300).contains($0) }
        let status =
          refused.first { $0 != 424 } ?? refused.first
          ?? response.status.flatMap {
            (200..<300).contains($0) ? nil : $0
          }
        if let status {
          throw CalDAVError.server(
            status: status, url: result.url, excerpt: "the calendar's name or colour was refused")
        }
      }
      return
    }
    guard (200..<300).contains(result.status) else { throw Self.failure(result) }
  }

  /// Removes a collection and everything in it; one already gone is not an error.
  package func deleteCollection(_ collection: URL) async throws {
    let result = try await send("DELETE", collection)
    if result.status == 404 || result.status == 410 { return }
    guard (200..<300).contains(result.status) else { throw Self.failure(result) }
  }

  /// An ETag as a header wants it: quoted (or weak, `W/"…"`) as servers give them; a bare
  /// value is quoted.
  static func entityTag(_ etag: String) -> String {
    let etag = etag.trimmingCharacters(in: .whitespaces)
    if etag.hasPrefix("\"") || etag.hasPrefix("W/\"") || etag == "*" { return etag }
    return "\"\(etag)\""
  }
}
