import GRDB

/// The local changes to calendars of CalDAV sources, recorded by ``RowWriter`` in the
/// transaction that makes them: they survive a restart or a killed process exactly as the
/// change does (both or neither), and the next sync sends them in order (<doc:Sync>).
///
/// An entry names a resource, not a row: a series and its detached occurrences are one
/// resource on the server (one UID), so a change of a detached occurrence is a change of its
/// series' resource. What a sync sends for it is worked out when it sends: the resource's
/// rows as they are then, or a removal when none is left.
struct Outbox {
  /// What a change did, as the outbox's `change` column says it.
  enum Change: String {
    case created, changed, removed
  }

  /// The calendars of CalDAV sources, by identifier, with their source; read the first time
  /// a writer needs them, and grown by the calendars it makes in those sources.
  private var synced: [String: String]?
  /// The entries this transaction recorded already: one is enough for each.
  private var recorded: Set<String> = []

  // MARK: Items

  /// Records the save of an item row (`isNew`: an insert).
  mutating func willSave(_ record: ItemRecord, isNew: Bool, _ db: Database) throws {
    let synced = try syncedCalendars(db)
    guard !synced.isEmpty else { return }
    if !isNew, let old = try ItemRows.resourceKey(db, id: record.id),
      old.calendarId != record.calendarId
    {
      // Moved to another calendar: the resource leaves the old one.
      try self.record(.removed, calendarId: old.calendarId, uid: old.uid, db)
    }
    // A detached occurrence changes its series' resource; a new series or single item is a
    // new resource.
    let change: Change = isNew && record.seriesId == nil ? .created : .changed
    try self.record(change, calendarId: record.calendarId, uid: record.uid ?? record.id, db)
  }

  /// Records the removal of an item row, before it goes.
  mutating func willRemove(itemId id: String, _ db: Database) throws {
    guard !(try syncedCalendars(db)).isEmpty,
      let old = try ItemRows.resourceKey(db, id: id)
    else { return }
    // Removing a detached occurrence changes its series' resource.
    try record(old.isDetached ? .changed : .removed, calendarId: old.calendarId, uid: old.uid, db)
  }

  // MARK: Calendars

  /// Records a calendar made or changed in a CalDAV source.
  mutating func didSave(_ calendar: CalendarRecord, isNew: Bool, _ db: Database) throws {
    _ = try syncedCalendars(db)
    if isNew, try AccountRecord.exists(db, key: calendar.sourceId) {
      synced?[calendar.id] = calendar.sourceId
    }
    guard synced?[calendar.id] != nil else { return }
    try record(isNew ? .created : .changed, calendarId: calendar.id, uid: nil, db)
  }

  /// Records the removal of a calendar of a CalDAV source, before it goes, with the href of
  /// its collection (which goes with it).
  mutating func willRemove(calendarId id: String, _ db: Database) throws {
    guard let sourceId = try syncedCalendars(db)[id] else { return }
    let href = try CollectionRecord.fetchOne(db, key: id)?.href
    try db.execute(
      sql: "INSERT INTO outbox (sourceId, calendarId, uid, change, href) VALUES (?, ?, NULL, ?, ?)",
      arguments: [sourceId, id, Change.removed.rawValue, href])
    synced?[id] = nil
  }

  /// Records that a resource is to be sent, outside any change of its rows: what a sync
  /// found unsent and in no entry (an older version dropped it; see
  /// ``ResourceRows/withoutResource(_:sourceId:)``).
  static func recordUnsent(_ db: Database, sourceId: String, calendarId: String, uid: String)
    throws
  {
    try db.execute(
      sql: "INSERT INTO outbox (sourceId, calendarId, uid, change) VALUES (?, ?, ?, ?)",
      arguments: [sourceId, calendarId, uid, Change.created.rawValue])
  }

  // MARK: Recording

  private mutating func syncedCalendars(_ db: Database) throws -> [String: String] {
    if let synced { return synced }
    let found = try CalendarRecord.syncedSources(db)
    synced = found
    return found
  }

  private mutating func record(
    _ change: Change, calendarId: String, uid: String?, _ db: Database
  ) throws {
    guard let sourceId = synced?[calendarId],
      recorded.insert("\(change)\n\(calendarId)\n\(uid ?? "")").inserted
    else { return }
    try db.execute(
      sql: "INSERT INTO outbox (sourceId, calendarId, uid, change) VALUES (?, ?, ?, ?)",
      arguments: [sourceId, calendarId, uid, change.rawValue])
  }
}
