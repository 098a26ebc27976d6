import Foundation
import GRDB

// Step 1 of a sync (the engine's `AccountSync+Calendars.swift`): the server's collections
// against the calendars here, in one transaction.

extension SyncStore {
  /// A collection the server lists in an account's calendar home.
  package struct ListedCalendar: Sendable {
    /// The collection as discovery adds it.
    var found: ServerCalendar
    /// The last component of its path, decoded: a calendar made here names its collection
    /// after its identifier.
    var name: String
    /// The name the server gives it, when it gives one.
    var displayName: String?

    package init(found: ServerCalendar, name: String, displayName: String?) {
      self.found = found
      self.name = name
      self.displayName = displayName
    }
  }

  /// A calendar step 1 added or removed here.
  package enum CalendarChange: Sendable, Equatable {
    /// A collection new to this store, by its name on the server (else its href).
    case added(String)
    /// A calendar whose collection the server no longer has, by its title.
    case removed(String)
  }

  /// Step 1: new collections become calendars of the account, calendars whose collection is
  /// gone from the server go (a local change not yet sent in one is kept in "Conflicts"
  /// first), names, colours and read-only states follow the server. A collection of a
  /// calendar removed here is left for the push to remove; one named after a calendar of the
  /// account that has none is that calendar's (`adoptMadeHere`).
  package func followServerCalendars(_ listed: [ListedCalendar], sourceId: String) throws
    -> [CalendarChange]
  {
    try database.write { db -> [CalendarChange] in
      var changes: [CalendarChange] = []
      // Calendars made here and not sent yet have no collection: the push makes it.
      let known = try CollectionRecord.ofSource(db, sourceId: sourceId)
      // Collections of calendars removed here: the push removes them.
      let removedHere = Set(
        try OutboxEntry.pending(db, sourceId: sourceId).filter {
          $0.uid == nil && $0.change == Outbox.Change.removed.rawValue
        }.compactMap(\.href))
      for calendar in listed where !removedHere.contains(calendar.found.href) {
        let path = calendar.found.href
        let mine = known.filter { $0.collection.href == path }
        if mine.isEmpty,
          try Self.adoptMadeHere(db, name: calendar.name, href: path, sourceId: sourceId)
        {
          // Made by a sync killed before it recorded so.
          continue
        }
        if mine.isEmpty {
          try AccountRows.addCalendar(db, calendar.found, sourceId: sourceId)
          changes.append(.added(calendar.displayName ?? path))
          continue
        }
        for entry in mine {
          var record = entry.calendar
          record.title = calendar.displayName ?? record.title
          if let color = calendar.found.color {
            record.color = color
          }
          record.allowsContentModifications = !calendar.found.isReadOnly
          if record != entry.calendar {
            try RowWriter.writing(db, origin: .server) { rows in try rows.save(record) }
          }
        }
      }
      let remotePaths = Set(listed.map(\.found.href))
      for entry in known where !remotePaths.contains(entry.collection.href) {
        try Self.keepUnsent(db, calendarId: entry.calendar.id, sourceId: sourceId)
        try RowWriter.writing(db, origin: .server) { rows in
          try rows.removeCalendar(id: entry.calendar.id)
        }
        changes.append(.removed(entry.calendar.title))
      }
      return changes
    }
  }

  /// Links a collection named after a calendar of the account that has none yet: the push
  /// made it, and was stopped before recording it. True when it did.
  private static func adoptMadeHere(
    _ db: Database, name: String, href: String, sourceId: String
  ) throws -> Bool {
    guard let calendar = try CalendarRecord.fetchOne(db, key: name),
      calendar.sourceId == sourceId,
      try CollectionRecord.fetchOne(db, key: name) == nil
    else { return false }
    let component = calendar.entityMask.contains(.event) ? "VEVENT" : "VTODO"
    try CollectionRecord(calendarId: name, href: href, components: component).insert(db)
    return true
  }

  /// Copies the resources of a calendar with local changes not yet sent into "Conflicts",
  /// before the calendar goes because the server removed its collection.
  private static func keepUnsent(_ db: Database, calendarId: String, sourceId: String) throws {
    let pending = try OutboxEntry.pending(db, sourceId: sourceId).filter {
      $0.calendarId == calendarId && $0.uid != nil
    }
    for uid in Set(pending.compactMap(\.uid)) {
      if let data = try ResourceRows.document(db, calendarId: calendarId, uid: uid) {
        _ = try ConflictCopies.keep(data, db)
      }
    }
    try OutboxEntry.discard(db, sourceId: sourceId, calendarId: calendarId)
  }
}
