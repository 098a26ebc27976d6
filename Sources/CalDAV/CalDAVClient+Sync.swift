import Foundation

extension CalDAVClient {
  /// The members changed and removed since `token` (RFC 6578 sync-collection REPORT, sync
  /// level 1); every member when `token` is nil.
  ///
  /// Each answer is asked to hold at most ``syncPageSize`` members (DAV:limit, §3.7), so that
  /// a calendar of 100,000 events comes in answers of a few hundred kilobytes rather than one
  /// of tens of megabytes. A page truncated so (507 on the collection, §3.6) is followed by
  /// the next, asked from the token it gave, until the report is whole. A server that cannot
  /// keep to a limit (507 with number-of-matches-within-limits, or 400) is asked again
  /// without one; one that ignores it answers everything at once, which the client reads up
  /// to ``defaultMaximumBodySize``.
  ///
  /// A page of exactly the limit that is not marked truncated may be whole, or cut short
  /// without a word under a token that claims it whole (Xandikos 0.4 stops at the limit and
  /// gives the collection's newest token, so a listing taken as whole loses every member past
  /// it and, from no token, removes them here): it is asked again from the same token
  /// without a limit, one more request for a report that was whole.
  ///
  /// With `calendarData`, each member's calendar data is asked too (a CalDAV property the
  /// report may return, RFC 6578 §3.2's DAV:prop), in ``SyncCollectionChanges/data``: one
  /// request then brings what a listing and multigets of every member would, and costs the
  /// server about what the listing alone does (Radicale: 1.71 s with the data and 1.57 s
  /// without, for 10,000 events, against 1.41 s more for their multigets;
  /// docs/PERFORMANCE.md). A server may leave it out (Xandikos answers 404 for it): members
  /// without it are for the caller to fetch. An answer too large to read at once
  /// (``CalDAVError/answerTooLarge(_:limit:)``: a server that ignores the limit, with a large
  /// calendar) is asked again without the data.
  ///
  /// Throws ``CalDAVError/invalidSyncToken`` when the server no longer takes the token, and
  /// ``CalDAVError/unsupported(_:)`` when it does not offer the report.
  package func syncCollection(_ collection: URL, token: String?, calendarData: Bool = false)
    async throws -> SyncCollectionChanges
  {
    var token = token
    var calendarData = calendarData
    var limit: Int? = Self.syncPageSize
    var order: [String] = []
    var changes: [String: (url: URL, etag: String?, removed: Bool, data: Data?)] = [:]
    var tokens: Set<String> = []
    while true {
      let result: HTTPResult
      do {
        result = try await send(
          "REPORT", collection,
          headers: [("Depth", "0"), ("Content-Type", "application/xml; charset=utf-8")],
          body: RequestBodies.syncCollection(
            token: token, limit: limit, calendarData: calendarData))
      } catch {
        guard case .answerTooLarge = error, calendarData else { throw error }
        Self.log.debug(
          "\(collection.absoluteString): \(error); its sync report asked again without the data")
        calendarData = false
        continue
      }
      if limit != nil, [400, 507].contains(result.status) {
        Self.log.debug("\(collection.absoluteString) took no DAV:limit (\(result.status))")
        limit = nil
        continue
      }
      guard result.status == 207 else { throw Self.syncFailure(result) }
      let multistatus = try Multistatus.parse(result.body, from: result.url)
      var truncated = false
      var new = 0
      var members = 0
      for response in multistatus.responses {
        for href in response.hrefs {
          guard let url = Self.resolve(href, against: result.url) else { continue }
          if Self.samePath(url, collection) {
            truncated = truncated || response.status == 507
            continue
          }
          members += 1
          let key = url.path(percentEncoded: false)
          if changes[key] == nil {
            order.append(key)
            new += 1
          }
          if response.status == 404 || response.status == 410 {
            changes[key] = (url, nil, true, nil)
          } else {
            let found = response.found
            let data = found.calendarData.map { Data(Self.crlf($0).utf8) }
            changes[key] = (url, found.etag, false, data)
          }
        }
      }
      let next = multistatus.syncToken
      if let asked = limit, !truncated, members == asked {
        Self.log.debug(
          """
          \(collection.absoluteString) answered \(members) members to a limit of \(asked) \
          without saying it truncated; asked again without a limit
          """)
        limit = nil
        continue
      }
      guard truncated else {
        let entries = order.compactMap { changes[$0] }
        var data: [URL: Data] = [:]
        for entry in entries where !entry.removed {
          if let text = entry.data { data[entry.url] = text }
        }
        return SyncCollectionChanges(
          changed: entries.filter { !$0.removed }.map { (url: $0.url, etag: $0.etag) },
          removed: entries.filter(\.removed).map(\.url), token: next ?? token, data: data)
      }
      // Each page brings members not seen yet, under a token not seen yet: a server going
      // round in circles is stopped, rather than its report taken as whole (a listing from
      // no token that is taken as whole removes here every member it lacks).
      guard let next, next != token, new > 0, tokens.insert(next).inserted else {
        throw CalDAVError.malformed(
          "\(collection.absoluteString) kept truncating its sync report without progress")
      }
      token = next
    }
  }

  /// A sync report's refusal: the token refused, the report not offered, or another error.
  /// The token is refused with 403 or 409 (RFC 4918's statuses for a precondition), or with
  /// 412 by Xandikos: a 412 whose body names valid-sync-token is that refusal, which the sync
  /// answers with a listing from no token, not a write's conflict.
  private static func syncFailure(_ result: HTTPResult) -> CalDAVError {
    let named = preconditions(in: result.body)
    if [403, 409, 412].contains(result.status), named.contains("valid-sync-token") {
      return .invalidSyncToken
    }
    if [403, 501].contains(result.status), named.contains("supported-report") {
      return .unsupported("the sync-collection report (RFC 6578) on \(result.url.absoluteString)")
    }
    if [400, 405, 415, 501].contains(result.status) {
      return .unsupported(
        "the sync-collection report (RFC 6578) on \(result.url.absoluteString) "
          + "(it answered \(result.status))")
    }
    return failure(result)
  }

  /// Every member resource of `collection` with its ETag (PROPFIND Depth 1): not the
  /// collection itself, nor collections inside it.
  package func etags(_ collection: URL) async throws -> [(url: URL, etag: String?)] {
    let result = try await propfind(collection, depth: 1, ["D:getetag", "D:resourcetype"])
    var members: [(url: URL, etag: String?)] = []
    for response in try Self.multistatus(result).responses {
      guard response.status.map({ (200..<300).contains($0) }) ?? true,
        let href = response.hrefs.first, let url = Self.resolve(href, against: result.url),
        !Self.samePath(url, collection)
      else { continue }
      let properties = response.found
      if properties.resourceTypes?.contains("collection") ?? false { continue }
      members.append((url: url, etag: properties.etag))
    }
    return members
  }

  /// The collection's CTag (CalendarServer's getctag), nil when the server keeps none.
  package func ctag(_ collection: URL) async throws -> String? {
    let result = try await propfind(collection, depth: 0, ["CS:getctag"])
    let responses = try Self.multistatus(result).responses
    let own =
      responses.first {
        $0.hrefs.contains {
          Self.resolve($0, against: result.url).map { Self.samePath($0, collection) } ?? false
        }
      }
      ?? responses.first
    return own?.found.ctag
  }

  /// The calendar data and ETags of `resources` (calendar-multiget REPORT, RFC 4791 §7.9),
  /// asked in batches of ``multigetBatchSize``. Resources the server does not have are absent
  /// from the answer.
  ///
  /// A batch whose answer is larger than the client reads at once (resources with large
  /// attachments) is asked again in halves, down to one resource; one resource larger than
  /// that fails with ``CalDAVError/answerTooLarge(_:limit:)``.
  package func multiget(_ collection: URL, _ resources: [URL]) async throws -> [(
    url: URL, etag: String?, data: Data
  )] {
    var found: [(url: URL, etag: String?, data: Data)] = []
    var start = 0
    while start < resources.count {
      let batch = resources[start..<min(start + Self.multigetBatchSize, resources.count)]
      start += batch.count
      try await multiget(collection, batch, into: &found)
    }
    return found
  }

  /// One calendar-multiget request for `batch`, its resources added to `found`; in halves
  /// when its answer is too large.
  private func multiget(
    _ collection: URL, _ batch: ArraySlice<URL>,
    into found: inout [(url: URL, etag: String?, data: Data)]
  ) async throws {
    let result: HTTPResult
    do {
      result = try await send(
        "REPORT", collection,
        headers: [("Depth", "1"), ("Content-Type", "application/xml; charset=utf-8")],
        body: RequestBodies.multiget(hrefs: batch.map { Self.requestTarget($0) }))
    } catch {
      // (A `catch .answerTooLarge(…) where …` clause crashes Swift 6.3's ownership checker.)
      guard case .answerTooLarge(_, let limit) = error, batch.count > 1 else { throw error }
      Self.log.debug(
        """
        \(collection.absoluteString): a multiget of \(batch.count) answered more than \
        \(limit) bytes; asked again in halves
        """)
      let half = batch.startIndex + batch.count / 2
      try await multiget(collection, batch[..<half], into: &found)
      try await multiget(collection, batch[half...], into: &found)
      return
    }
    if [400, 405, 415, 501].contains(result.status) {
      throw CalDAVError.unsupported(
        "the calendar-multiget report (RFC 4791) on \(result.url.absoluteString) "
          + "(it answered \(result.status))")
    }
    for response in try Self.multistatus(result).responses {
      guard response.status.map({ (200..<300).contains($0) }) ?? true,
        let href = response.hrefs.first, let url = Self.resolve(href, against: result.url)
      else { continue }
      let properties = response.found
      guard let text = properties.calendarData else { continue }
      found.append((url: url, etag: properties.etag, data: Data(Self.crlf(text).utf8)))
    }
  }

  /// iCalendar text with CRLF line ends (RFC 5545 §3.1), which XML's reading turns to LF,
  /// without the indentation a pretty-printed response puts around it.
  ///
  /// One pass over the UTF-8 bytes: CR LF, CR and LF each become CR LF, and a CR LF ends the
  /// text, which starts and ends with no white space or line end (Foundation's three
  /// `replacingOccurrences` and a trim took a tenth of a first sync's processor time).
  static func crlf(_ text: String) -> String {
    let scalars = text.unicodeScalars
    let blank = CharacterSet.whitespacesAndNewlines
    guard let first = scalars.firstIndex(where: { !blank.contains($0) }),
      let last = scalars.lastIndex(where: { !blank.contains($0) })
    else { return "" }
    let body = text.utf8[first..<scalars.index(after: last)]
    var bytes: [UInt8] = []
    bytes.reserveCapacity(body.count + body.count / 32 + 2)
    var afterCR = false
    for byte in body {
      switch byte {
      case 0x0D:
        bytes.append(0x0D)
        bytes.append(0x0A)
        afterCR = true
      case 0x0A:
        if !afterCR {
          bytes.append(0x0D)
          bytes.append(0x0A)
        }
        afterCR = false
      default:
        bytes.append(byte)
        afterCR = false
      }
    }
    bytes.append(0x0D)
    bytes.append(0x0A)
    return String(decoding: bytes, as: UTF8.self)
  }
}
