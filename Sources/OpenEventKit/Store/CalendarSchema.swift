import GRDB

/// The calendar database's schema, as GRDB migrations: a new release adds a migration and
/// every existing database upgrades in place when a store opens it.
///
/// An item's `id` is both its `calendarItemIdentifier` and, for an event, its
/// `eventIdentifier`: EventKit promises nothing about how the two relate, and one random key
/// per row keeps inserts cheap.
///
/// Times are kept twice. `startReading`/`endReading` are wall-clock readings
/// (`CivilDateTime.localSeconds`) in the item's `timeZone`, which is NULL for floating and
/// all-day items; they are what the user wrote. `startKey`/`endKey` are instants for window
/// queries: exact for zoned items, the readings themselves for floating and all-day items,
/// whose instants depend on the zone of whoever looks (a query widens its window by the
/// largest offset for them and filters exactly afterwards).
///
/// Migration "v1" is the schema the calendar store was released with (issues #4 and #5): it
/// does not change any more. Every later change is a new migration, so that databases made
/// by this release upgrade in place: "v2 sync" adds CalDAV accounts (issue #21), "v3 alarms"
/// what finding the alarms of a window needs (issue #23), "v4 subscriptions" the feeds of
/// subscribed calendars (issue #48).
enum CalendarSchema {
  static var migrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1") { db in
      try createTables(db)
      try DefaultContent.insert(db)
    }
    migrator.registerMigration("v2 sync") { db in
      try createSyncTables(db)
    }
    migrator.registerMigration("v3 alarms") { db in
      try AlarmRows.createIndexes(db)
    }
    migrator.registerMigration("v4 subscriptions") { db in
      try SubscriptionRows.createTable(db)
    }
    return migrator
  }

  private static func createTables(_ db: Database) throws {
    try db.create(table: "meta") { t in
      t.primaryKey("key", .text)
      t.column("value", .text).notNull()
    }
    try db.create(table: "source") { t in
      t.primaryKey("id", .text)
      t.column("title", .text).notNull()
      t.column("type", .integer).notNull()  // EKSourceType
      t.column("allowsCalendarAddDelete", .boolean).notNull()
      t.column("position", .integer).notNull()
    }
    try db.create(table: "calendar") { t in
      t.primaryKey("id", .text)
      t.belongsTo("source", onDelete: .cascade).notNull()
      t.column("title", .text).notNull()
      t.column("type", .integer).notNull()  // EKCalendarType
      t.column("color", .text).notNull()  // #RRGGBB
      t.column("entityMask", .integer).notNull()  // EKEntityMask
      t.column("allowsContentModifications", .boolean).notNull()
      t.column("isSubscribed", .boolean).notNull()
      t.column("isImmutable", .boolean).notNull()
      t.column("availabilityMask", .integer).notNull()  // EKCalendarEventAvailabilityMask
      t.column("position", .integer).notNull()
    }
    try db.create(table: "item") { t in
      t.primaryKey("id", .text)  // calendarItemIdentifier
      t.belongsTo("calendar", onDelete: .cascade).notNull()
      t.column("kind", .integer).notNull()  // EKEntityType
      // The iCalendar UID (the external identifier) when it differs from `id`; NULL when it
      // is `id`, as for every item made through the API, so that most rows cost the UID
      // index nothing.
      t.column("uid", .text)
      t.column("title", .text)
      t.column("location", .text)
      t.column("notes", .text)
      t.column("url", .text)
      t.column("createdAt", .double).notNull()
      t.column("modifiedAt", .double).notNull()
      t.column("timeZone", .text)
      t.column("isAllDay", .boolean).notNull().defaults(to: false)
      t.column("startReading", .integer)
      t.column("endReading", .integer)
      t.column("startKey", .integer)
      t.column("endKey", .integer)
      t.column("availability", .integer).notNull().defaults(to: 0)
      t.column("status", .integer).notNull().defaults(to: 0)
      // Repeating items: RRULE texts, one per line; RDATE and EXDATE values, one per line,
      // as DTSTART is written; the last possible end of the series as a key, NULL when it
      // never ends.
      t.column("recurrenceRules", .text)
      t.column("recurrenceDates", .text)
      t.column("exceptionDates", .text)
      t.column("seriesEndKey", .integer)
      t.column("structuredLocation", .jsonText)
      // Alarms and participants are always read with their item and never searched on
      // their own, so they live in the row as JSON: one read per item, no joins.
      t.column("alarms", .jsonText)
      t.column("participants", .jsonText)
      // Reminders.
      t.column("startComponents", .jsonText)
      t.column("dueComponents", .jsonText)
      t.column("dueKey", .integer)
      t.column("isCompleted", .boolean).notNull().defaults(to: false)
      t.column("completedAt", .double)
      t.column("priority", .integer).notNull().defaults(to: 0)
      // iCalendar properties the store does not model, kept for export (issue #8).
      t.column("sequence", .integer).notNull().defaults(to: 0)
      t.column("extra", .jsonText)
      // A detached occurrence (iCalendar: a VEVENT with RECURRENCE-ID) is a row of its own
      // with its own identifier and times, found by window queries like a single event:
      // `seriesId` names its series and `recurrenceId` the instance it replaces, written as
      // the series' DTSTART is. The series lists those instances in `detachedDates`, which
      // its expansion skips as it skips `exceptionDates`.
      t.column("seriesId", .text).references("item", onDelete: .cascade)
      t.column("recurrenceId", .text)
      t.column("detachedDates", .text)
    }
    // Window queries: single events by start, series by first start and last end, reminders
    // by completion and due date. Each index is partial, so a row costs only the one that
    // fits it. (Queries repeat `kind = 0` and the like literally, which lets SQLite use
    // a partial index.)
    try db.execute(
      sql: """
        CREATE INDEX item_single_start ON item(startKey)
          WHERE kind = 0 AND recurrenceRules IS NULL;
        CREATE INDEX item_series_start ON item(startKey, seriesEndKey)
          WHERE kind = 0 AND recurrenceRules IS NOT NULL;
        CREATE INDEX item_reminder_due ON item(isCompleted, dueKey) WHERE kind = 1;
        CREATE INDEX item_uid ON item(uid) WHERE uid IS NOT NULL;
        CREATE INDEX item_detached ON item(seriesId) WHERE seriesId IS NOT NULL;
        """)
  }

  /// What CalDAV sync keeps beside the items (<doc:Sync>): the accounts, the server's
  /// collections and resources as of the last sync, and the local changes not yet sent.
  /// Items themselves are plain rows: sync reads and writes them like the API and import do
  /// (``RowWriter``), so that a synced calendar is queried like any other.
  private static func createSyncTables(_ db: Database) throws {
    // A CalDAV source: where its server is and who signs in. The password is never here
    // (a file of mode 0600 beside the database, or asked on the terminal).
    try db.create(table: "account") { t in
      t.primaryKey("sourceId", .text).references("source", onDelete: .cascade)
      t.column("name", .text).notNull().unique().collate(.nocase)
      t.column("url", .text).notNull()  // as the person gave it
      t.column("homeURL", .text).notNull()  // the calendar-home-set discovery found
      t.column("user", .text).notNull()
      t.column("lastSync", .double)
      t.column("lastError", .text)
    }
    // A calendar that is a collection on the server, with where its changes were last read.
    try db.create(table: "collection") { t in
      t.primaryKey("calendarId", .text).references("calendar", onDelete: .cascade)
      t.column("href", .text).notNull()
      t.column("syncToken", .text)  // RFC 6578
      t.column("ctag", .text)  // where the server has no sync-collection
      t.column("components", .text).notNull()  // VEVENT, VTODO: what the server takes
    }
    // One resource per UID (RFC 4791 §4.1): a series with its detached occurrences is one
    // resource. The href, ETag and content the server had at the last sync: the base a
    // conflict is merged from.
    try db.create(table: "resource") { t in
      t.column("calendarId", .text).notNull().references("calendar", onDelete: .cascade)
      t.column("uid", .text).notNull()
      t.column("href", .text).notNull()
      t.column("etag", .text)
      t.column("data", .blob)
      t.primaryKey(["calendarId", "uid"])
      t.uniqueKey(["calendarId", "href"])
    }
    // Local changes to synced calendars, recorded in the transaction that makes them, in
    // order: what the next sync sends. No foreign keys: the change of a removed item or
    // calendar must outlive its row.
    try db.create(table: "outbox") { t in
      t.autoIncrementedPrimaryKey("seq")
      t.column("sourceId", .text).notNull()
      t.column("calendarId", .text).notNull()
      t.column("uid", .text)  // NULL: a change of the calendar itself
      t.column("change", .text).notNull()  // created, changed, removed
      t.column("href", .text)  // a removed calendar's collection
    }
  }
}
