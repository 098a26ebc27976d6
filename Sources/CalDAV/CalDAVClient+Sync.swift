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
  /// without one; one that ignores it (Radicale) answers everything at once.
  ///
  /// A page of exactly the limit that is not marked truncated may be whole, or cut short
  /// without a word under a token that claims it whole (Xandikos 0.4 stops at the limit and
  /// gives the collection's newest token, so a listing taken as whole loses every member past
  /// it and, from no token, removes them here): it is asked again from the same token
  /// without a limit, one more request for a report that was whole.
  ///
  /// With `calendarData`, each member's calendar data is asked too (a CalDAV property the
  /// report may return, RFC 6578 §3.2's DAV:prop): one request then brings what a listing
  /// and multigets of every member would, and costs the server about what the listing alone
  /// does (Radicale: 1.71 s with the data and 1.57 s without, for 10,000 events, against
  /// 1.41 s more for their multigets; docs/PERFORMANCE.md). A server may leave it out
  /// (Xandikos answers 404 for it): members without it are for the caller to fetch. A
  /// report with the data refused with 400 is asked again without it (Radicale refuses one
  /// of more than 10,000 events so), before a 400 is taken for a refused limit.
  ///
  /// Each answer is read as it comes (``MultistatusStream``), never held whole: with
  /// `deliver`, the members that came with their data are handed to it in batches of up to
  /// ``multigetBatchSize`` while the answer is read (each once, unless its ETag changed
  /// between pages), and ``SyncCollectionChanges/data`` stays empty; without it, their data is
  /// in ``SyncCollectionChanges/data``. What an answer may hold is bounded as it is read
  /// (``answerBudget(responses:)``): one response over ``maximumBodySize`` bytes, or an
  /// answer over its budget, fails with ``CalDAVError/answerTooLarge(_:limit:)`` and is asked
  /// again without the data (what `deliver` was given stays given), and fails so without it.
  /// An error `deliver` throws stops the report and is thrown as it is.
  ///
  /// Throws ``CalDAVError/invalidSyncToken`` when the server no longer takes the token, and
  /// ``CalDAVError/unsupported(_:)`` when it does not offer the report.
  package func syncCollection(
    _ collection: URL, token: String?, calendarData: Bool = false,
    deliver: (@Sendable ([(url: URL, etag: String?, data: Data)]) async throws -> Void)? = nil
  ) async throws -> SyncCollectionChanges {
    var token = token
    var calendarData = calendarData
    var limit: Int? = Self.syncPageSize
    var order: [String] = []
    var changes: [String: (url: URL, etag: String?, removed: Bool, data: Data?)] = [:]
    var tokens: Set<String> = []
    // What `deliver` was given, by path: given again only under another ETag.
    var delivered: [String: String?] = [:]
    while true {
      var truncated = false
      var new = 0
      var members = 0
      var batch: [(url: URL, etag: String?, data: Data)] = []
      // Each response as the answer is read: recorded, and its data handed on in batches.
      func record(_ responses: [Response]) async throws {
        for response in responses {
          for href in response.hrefs {
            guard let url = Self.resolve(href, against: collection) else { continue }
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
              continue
            }
            let found = response.found
            let data = found.calendarData.map { Data(Self.crlf($0).utf8) }
            guard let deliver, let data else {
              changes[key] = (url, found.etag, false, data)
              continue
            }
            changes[key] = (url, found.etag, false, nil)
            if delivered[key] != .some(found.etag) {
              delivered[key] = .some(found.etag)
              batch.append((url, found.etag, data))
            }
            if batch.count >= Self.multigetBatchSize {
              let full = batch
              batch = []
              try await deliver(full)
            }
          }
        }
      }
      let page: (status: Int, body: Data, token: String?)
      do {
        page = try await syncPage(
          collection, token: token, limit: limit, calendarData: calendarData, each: record)
      } catch let error as CalDAVError {
        guard case .answerTooLarge = error, calendarData else { throw error }
        Self.log.debug(
          "\(collection.absoluteString): \(error); its sync report asked again without the data")
        calendarData = false
        continue
      }
      // Radicale 3.9 refuses with 400 any report whose calendar data holds more than
      // 10,000 events ([reporting] max_expand_occurrence), after making it (172 s for
      // 100,000): without the data it lists them.
      if calendarData, page.status == 400 {
        Self.log.debug(
          "\(collection.absoluteString) refused its sync report with the data (400); asked again without it"
        )
        calendarData = false
        continue
      }
      if limit != nil, [400, 507].contains(page.status) {
        Self.log.debug("\(collection.absoluteString) took no DAV:limit (\(page.status))")
        limit = nil
        continue
      }
      guard page.status == 207 else {
        throw Self.syncFailure(
          HTTPResult(status: page.status, etag: nil, body: page.body, url: collection))
      }
      if let deliver, !batch.isEmpty {
        let last = batch
        batch = []
        try await deliver(last)
      }
      let next = page.token
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

  /// The most a multistatus answer read as it comes may hold once `responses` responses of
  /// it are read: ``maximumBodySize`` (64 MB), and a 1,024th of it (64 KB) more for each
  /// response. A report of 100,000 everyday events (about 90 MB) is well inside it (6.4 GB at
  /// its end); an endless answer is not, whatever it holds: without responses it stops at
  /// 64 MB, and with them once they average over 64 KB.
  func answerBudget(responses: Int) -> Int {
    maximumBodySize.addingReportingOverflow(
      responses.multipliedReportingOverflow(by: maximumBodySize >> 10).partialValue
    ).partialValue
  }

  /// Asks one page of the sync report and reads its 207 answer as it comes, giving each
  /// group of responses to `each` as they close; the status, the body of any other status,
  /// and the report's sync token.
  ///
  /// The request runs in a task of its own, handing each piece of the body through a
  /// ``PieceChannel`` to a ``MultistatusStream`` here: the request waits until its piece is
  /// taken, so the answer is read no faster than it is parsed and `each` keeps up, and the
  /// request's deadline (``send(_:_:headers:body:followRedirects:streaming:)``) covers it all.
  private func syncPage(
    _ collection: URL, token: String?, limit: Int?, calendarData: Bool,
    each: ([Response]) async throws -> Void
  ) async throws -> (status: Int, body: Data, token: String?) {
    try await streamedReport(
      collection, depth: "0",
      body: RequestBodies.syncCollection(token: token, limit: limit, calendarData: calendarData),
      each: each)
  }

  /// One REPORT whose 207 answer is read as it comes (``syncPage(_:token:limit:calendarData:each:)``
  /// says how); the status, the body of any other status, and the answer's sync token.
  private func streamedReport(
    _ collection: URL, depth: String, body: Data, each: ([Response]) async throws -> Void
  ) async throws -> (status: Int, body: Data, token: String?) {
    let channel = PieceChannel()
    let request = Task { [self] in
      do {
        let result = try await send(
          "REPORT", collection,
          headers: [("Depth", depth), ("Content-Type", "application/xml; charset=utf-8")],
          body: body,
          streaming: { piece in try await channel.put(piece) })
        channel.close(status: result.status, body: result.body)
      } catch {
        channel.close(failure: error)
      }
    }
    let stream = MultistatusStream()
    defer {
      stream.cancel()
      request.cancel()
    }
    return try await withTaskCancellationHandler {
      let status = try await channel.head()
      guard status.code == 207 else { return (status.code, status.body, nil) }
      var total = 0
      var sinceResponse = 0
      var responses = 0
      do {
        while let piece = try await channel.next() {
          total += piece.count
          sinceResponse += piece.count
          let progress = try await stream.feed(piece)
          if let root = progress.root, root != "multistatus" {
            throw CalDAVError.malformed(
              "\(collection.absoluteString) answered <\(root)> where a multistatus belongs")
          }
          if !progress.responses.isEmpty { sinceResponse = 0 }
          responses += progress.responses.count
          // One response over the most read at once, or the answer over its budget.
          if sinceResponse > maximumBodySize || total > answerBudget(responses: responses) {
            throw CalDAVError.answerTooLarge(collection, limit: maximumBodySize)
          }
          try await each(progress.responses)
          if progress.finished { break }
        }
        let (root, token, last) = try await stream.finish()
        guard root == "multistatus" else {
          throw CalDAVError.malformed(
            "\(collection.absoluteString) answered <\(root)> where a multistatus belongs")
        }
        try await each(last)
        return (207, Data(), token)
      } catch let fault as XMLFault {
        channel.fail()
        throw CalDAVError.unreadableXML(collection, fault)
      } catch {
        channel.fail()
        throw error
      }
    } onCancel: {
      request.cancel()
    }
  }

  /// Every member of `collection` with its ETag and calendar data, for a calendar's first
  /// sync: the collection's sync token read first (PROPFIND of DAV:sync-token, RFC 6578 §4),
  /// then one calendar-query REPORT of every resource (RFC 4791 §7.8, no filter but
  /// VCALENDAR), read as it comes as the sync report is, its members with their data handed
  /// to `deliver` in batches of ``multigetBatchSize``; members without their data are in
  /// ``SyncCollectionChanges/changed`` for the caller to fetch, and none is removed.
  ///
  /// Why: Radicale answers a query without checking each member it names against its folder,
  /// which it does for every member of a sync report or multiget (a list search each, so
  /// quadratic in the calendar's size): 11.3 s for the query of 100,000 events against
  /// 58.7 s for the sync report with the data (docs/PERFORMANCE.md). The token read before
  /// the query names a state no later than what the query lists: a change made meanwhile
  /// comes again in the next sync, and changes nothing when it is already here.
  ///
  /// Throws ``CalDAVError/unsupported(_:)`` when the collection has no sync token, and the
  /// query's refusal as ``CalDAVError/server(status:url:excerpt:)`` (Radicale: 400 for more
  /// than 10,000 events, its `max_expand_occurrence`): the caller then uses the sync report.
  package func firstListing(
    _ collection: URL,
    deliver: @Sendable ([(url: URL, etag: String?, data: Data)]) async throws -> Void
  ) async throws -> SyncCollectionChanges {
    guard let token = try await currentSyncToken(collection) else {
      throw CalDAVError.unsupported("DAV:sync-token on \(collection.absoluteString)")
    }
    var order: [(url: URL, etag: String?)] = []
    var seen: Set<String> = []
    var batch: [(url: URL, etag: String?, data: Data)] = []
    func record(_ responses: [Response]) async throws {
      for response in responses {
        guard response.status.map({ (200..<300).contains($0) }) ?? true,
          let href = response.hrefs.first, let url = Self.resolve(href, against: collection),
          !Self.samePath(url, collection)
        else { continue }
        guard seen.insert(url.path(percentEncoded: false)).inserted else { continue }
        let found = response.found
        order.append((url, found.etag))
        if let text = found.calendarData {
          batch.append((url, found.etag, Data(Self.crlf(text).utf8)))
        }
        if batch.count >= Self.multigetBatchSize {
          let full = batch
          batch = []
          try await deliver(full)
        }
      }
    }
    let answer = try await streamedReport(
      collection, depth: "1", body: RequestBodies.calendarQueryOfEverything(), each: record)
    guard answer.status == 207 else {
      throw Self.failure(
        HTTPResult(status: answer.status, etag: nil, body: answer.body, url: collection))
    }
    if !batch.isEmpty { try await deliver(batch) }
    return SyncCollectionChanges(changed: order, removed: [], token: token)
  }

  /// The collection's sync token now (its DAV:sync-token property), nil when it has none.
  package func currentSyncToken(_ collection: URL) async throws -> String? {
    try await ownProperties(collection, ["D:sync-token"])?.syncToken
  }

  /// The properties `names` of `collection` itself (PROPFIND Depth 0): those of the response
  /// for its own href, else of the first response.
  private func ownProperties(_ collection: URL, _ names: [String]) async throws -> Properties? {
    let result = try await propfind(collection, depth: 0, names)
    let responses = try Self.multistatus(result).responses
    let own =
      responses.first {
        $0.hrefs.contains {
          Self.resolve($0, against: result.url).map { Self.samePath($0, collection) } ?? false
        }
      }
      ?? responses.first
    return own?.found
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
    try await ownProperties(collection, ["CS:getctag"])?.ctag
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
