import Foundation
import GRDB
import ICalendar

/// A resource as the server sent it.
package struct ServerResource: Sendable {
  var href: String
  package var etag: String?
  package var data: Data

  package init(href: String, etag: String?, data: Data) {
    self.href = href
    self.etag = etag
    self.data = data
  }
}

/// CalDAV resources to and from a calendar's rows: what sync sends for a UID, and the
/// server's resources written in as the server's (nothing for the outbox), each replacing
/// every row of its UID in the calendar.
package enum ResourceRows {
  /// The resource of `uid` in a calendar as iCalendar text, or nil when no row is left (the
  /// resource was removed here).
  static func document(_ db: Database, calendarId: String, uid: String) throws -> Data? {
    let rows = try ItemRows.resource(db, calendarId: calendarId, uid: uid)
    guard !rows.isEmpty else { return nil }
    return Data(ICalendarDocument(calendars: [ICalendarExport.calendar(rows)]).serialized())
  }

  /// The ETag of each resource of a calendar, by href (nil when the server gave none).
  static func etags(_ db: Database, calendarId: String) throws -> [String: String?] {
    var etags: [String: String?] = [:]
    let rows = try Row.fetchCursor(
      db, sql: "SELECT href, etag FROM resource WHERE calendarId = ?", arguments: [calendarId])
    while let row = try rows.next() { etags[row[0]] = .some(row[1]) }
    return etags
  }

  /// Whether a resource of another UID than `uid` is at `href` in the collection at
  /// `collection`, in any calendar of that collection (one that takes events and to-dos is
  /// two calendars here).
  static func isTaken(_ db: Database, href: String, collection: String, by uid: String) throws
    -> Bool
  {
    try Bool.fetchOne(
      db,
      sql: """
        SELECT EXISTS (
          SELECT 1 FROM resource
          WHERE calendarId IN (SELECT calendarId FROM collection WHERE href = ?)
            AND href = ? AND uid != ?)
        """,
      arguments: [collection, href, uid]) ?? false
  }

  /// The UIDs with rows in a calendar of the source that has a collection, but no resource
  /// there: made here and not yet sent, or left unsent by an older version. The caller
  /// leaves out those the outbox names.
  static func withoutResource(_ db: Database, sourceId: String) throws
    -> [(calendarId: String, uid: String)]
  {
    var found: [(calendarId: String, uid: String)] = []
    let rows = try Row.fetchCursor(
      db,
      sql: """
        SELECT DISTINCT item.calendarId, COALESCE(item.uid, item.id)
        FROM calendar
        JOIN collection ON collection.calendarId = calendar.id
        JOIN item ON item.calendarId = calendar.id
        WHERE calendar.sourceId = ? AND item.seriesId IS NULL
          AND NOT EXISTS (
            SELECT 1 FROM resource
            WHERE resource.calendarId = item.calendarId
              AND resource.uid = COALESCE(item.uid, item.id))
        """,
      arguments: [sourceId])
    while let row = try rows.next() { found.append((row[0], row[1])) }
    return found
  }

  /// Sets the ETag of a resource, once the server has said it.
  static func setETag(_ db: Database, calendarId: String, uid: String, etag: String?) throws {
    try db.execute(
      sql: "UPDATE resource SET etag = ? WHERE calendarId = ? AND uid = ?",
      arguments: [etag, calendarId, uid])
  }

  /// What ``apply(_:calendarId:kind:skipping:)`` did.
  package struct Applied {
    /// UIDs written (added or changed).
    package var written: [String] = []
    /// Resources that could not be read, by href, with why: their rows are left as they were.
    package var unreadable: [(href: String, reason: String)] = []
  }

  /// Writes the server's resources into a calendar of `kind`: each replaces every row of its
  /// UID (rows its new version has no component for are removed), keeping the identifiers
  /// of the rows it updates, as an import does. UIDs in `skipping` (with local changes not
  /// yet sent) are left for the push to settle.
  static func apply(
    _ resources: [ServerResource], _ db: Database, calendarId: String, kind: EKEntityType,
    skipping: Set<String> = []
  ) throws -> Applied {
    var applied = Applied()
    var items: [ImportedItem] = []
    var kept: [(uid: String, resource: ServerResource)] = []
    // What the calendar has at the batch's hrefs, read in one query.
    var atHref = try previousResources(db, calendarId: calendarId, hrefs: resources.map(\.href))
    for resource in resources {
      let read: [ImportedItem]
      do {
        let document = try ICalendarDocument(parsing: [UInt8](resource.data))
        read = try document.calendars.flatMap { calendar in
          let found = try ICalendarItemReader.items(of: calendar)
          return kind == .event ? found.events : found.reminders
        }
      } catch {
        applied.unreadable.append((resource.href, "\(error)"))
        continue
      }
      // One UID per resource (RFC 4791 §4.1): a resource of several could not be written
      // back without losing the others, nor its items told apart by href. It is left out,
      // and said.
      let uids = Set(read.map(\.uid))
      if uids.count > 1 {
        applied.unreadable.append(
          (
            resource.href,
            "it holds \(read.count) items of \(uids.count) different UIDs, where a CalDAV "
              + "resource holds one (RFC 4791 §4.1), so none of them was taken; split it on "
              + "the server, or export it and import the file with `ekctl import`"
          ))
        continue
      }
      // The server's resource at this href may have held another UID before.
      if let previous = atHref[resource.href], previous.uid != read.first?.uid,
        !skipping.contains(previous.uid)
      {
        try removeRows(db, calendarId: calendarId, uid: previous.uid)
        try previous.delete(db)
        atHref[resource.href] = nil
      }
      // A resource of the other kind (a to-do in a collection whose events this calendar
      // holds) belongs to the calendar beside it.
      guard let uid = read.first?.uid else { continue }
      if skipping.contains(uid) { continue }
      items += read.filter { $0.uid == uid }
      kept.append((uid, resource))
    }
    // The rows the batch replaces, read in one query: the writer matches the items against
    // them, and those the new versions do not write again are removed. (A THISANDFUTURE
    // split names new series by UIDs of their own, so the writer then reads the calendar.)
    let existing = try ItemRows.importKeys(db, calendarId: calendarId, uids: kept.map(\.uid))
    var rowsOfUID: [String: [String]] = [:]
    for row in existing { rowsOfUID[row[1], default: []].append(row[0]) }
    let splits = items.contains { $0.range != nil }
    try RowWriter.writing(db, origin: .server) { rows in
      let chosen = ImportWriter.latestVersions(items)
      _ = try ImportWriter(calendarId: calendarId, existing: splits ? nil : existing).write(
        events: kind == .event ? chosen : [], reminders: kind == .reminder ? chosen : [],
        to: &rows)
      let written = rows.writtenIds
      for (uid, resource) in kept {
        // Rows of the UID the new version did not write: overrides it no longer has.
        for id in rowsOfUID[uid] ?? [] where !written.contains(id) {
          try rows.removeItem(id: id)
        }
        try ResourceRecord(
          calendarId: calendarId, uid: uid, href: resource.href, etag: resource.etag,
          data: resource.data
        ).write(db)
        applied.written.append(uid)
      }
    }
    return applied
  }

  /// The resources of a calendar at these hrefs, by href, read in one query.
  private static func previousResources(_ db: Database, calendarId: String, hrefs: [String])
    throws -> [String: ResourceRecord]
  {
    var found: [String: ResourceRecord] = [:]
    // SQLite takes at most 32,766 arguments a statement.
    var start = hrefs.startIndex
    while start < hrefs.endIndex {
      let part = Array(hrefs[start..<min(start + 10_000, hrefs.endIndex)])
      let marks = Array(repeating: "?", count: part.count).joined(separator: ",")
      for record in try ResourceRecord.fetchAll(
        db.cachedStatement(
          sql: "SELECT * FROM resource WHERE calendarId = ? AND href IN (\(marks))"),
        arguments: StatementArguments([calendarId] + part))
      {
        found[record.href] = record
      }
      start += part.count
    }
    return found
  }

  /// Removes a resource the server no longer has, with its rows; returns its UID, or nil
  /// when this calendar had no resource there (or it has local changes to send, `skipping`).
  @discardableResult
  static func remove(
    href: String, _ db: Database, calendarId: String, skipping: Set<String> = []
  ) throws -> String? {
    guard
      let resource = try ResourceRecord.fetchOne(
        db, sql: "SELECT * FROM resource WHERE calendarId = ? AND href = ?",
        arguments: [calendarId, href]),
      !skipping.contains(resource.uid)
    else { return nil }
    try removeRows(db, calendarId: calendarId, uid: resource.uid)
    try resource.delete(db)
    return resource.uid
  }

  /// Removes every row of a UID in a calendar, as the server's change.
  static func removeRows(_ db: Database, calendarId: String, uid: String) throws {
    try RowWriter.writing(db, origin: .server) { rows in
      for row in try ItemRows.resource(db, calendarId: calendarId, uid: uid)
      where row.seriesId == nil {
        // A series' detached rows go with it (the foreign key cascades).
        try rows.removeItem(id: row.id)
      }
    }
  }
}
