import Foundation
import GRDB
import ICalendar

extension EKEventStore {
  /// Imports an iCalendar file (RFC 5545): its events into the event calendar titled `title`,
  /// its to-dos into the reminder list of that title, each made when missing. Without a title,
  /// the file's X-WR-CALNAME names them, else `fallbackTitle`.
  ///
  /// An item whose UID is already in the calendar is replaced, keeping its identifier, so
  /// importing a file again updates instead of duplicating. A VEVENT with RECURRENCE-ID
  /// becomes a detached occurrence of its series. The whole import is one transaction: a bad
  /// file (ICalendar's `ICalendarParseError`, naming the line) or a process killed half way leaves
  /// the store as it was.
  ///
  /// Needs full access to events (and to reminders, when the file has to-dos).
  /// An OpenEventKit addition: Apple's EventKit imports through Calendar.app instead.
  ///
  /// What was imported reaches every store as `EKEventStoreChanged`, like any commit. See
  /// <doc:ICalendarFiles#Import-into-the-store> for how each component is read, and
  /// <doc:Identifiers#Imported-and-exported-items> for the identifiers imported items get.
  ///
  /// ```swift
  /// let data = try Data(contentsOf: URL(fileURLWithPath: "holidays.ics"))
  /// let summary = try store.importICalendar(data, calendarTitle: "Holidays")
  /// print(summary.eventsAdded, "added,", summary.eventsUpdated, "updated")
  /// ```
  ///
  /// - Parameters:
  ///   - data: The file's bytes, UTF-8.
  ///   - title: The title of the calendar (and reminder list) to import into; nil for the
  ///     file's `X-WR-CALNAME`.
  ///   - fallbackTitle: The title when neither `title` nor the file gives one.
  ///   - progress: Told how far the reading and then the writing have gone, synchronously
  ///     during the call; nil to be told nothing.
  /// - Returns: What the import changed.
  /// - Throws: ICalendar's `ICalendarParseError`, naming the line, when the file is not valid
  ///   iCalendar (a VEVENT without DTSTART, a bad value); or ``EKError``:
  ///   - ``EKError/Code/eventStoreNotAuthorized`` when the app lacks full access to events
  ///     (the file has events) or to reminders (it has to-dos);
  ///   - ``EKError/Code/calendarReadOnly`` when the calendar of that title is read-only;
  ///   - ``EKError/Code/calendarHasNoSource`` when a calendar must be made and the store has
  ///     no local source;
  ///   - ``EKError/Code/internalFailure`` when the store's database could not be opened or
  ///     refused the write (a full disk, say).
  ///
  ///   Nothing is changed when it throws.
  public func importICalendar(
    _ data: Data, calendarTitle title: String? = nil, fallbackTitle: String = "Imported",
    progress: ((ICalendarTransferProgress) -> Void)? = nil
  ) throws -> ICalendarImportSummary {
    if let openError { throw openError }
    guard let database else { throw EKError(.internalFailure, "The store has no database.") }
    let document = try ICalendarDocument(parsing: [UInt8](data)) { read, total in
      progress?(ICalendarTransferProgress(phase: .reading, done: read, total: total))
    }
    let reading = ImportReading(document)
    reading.start()
    defer { reading.stop() }
    let sharedUIDs = reading.sharedUIDs()
    let summary: ICalendarImportSummary
    do {
      if reading.hasEvents { try checkCanWrite(.event) }
      if reading.hasReminders { try checkCanWrite(.reminder) }
      var writer = ImportWriter(
        title: title ?? reading.calendarName ?? fallbackTitle, progress: progress)
      summary = try writeLock.withLock {
        try database.write(large: true) { db in
          try RowWriter.writing(db) { rows in
            try writer.begin(
              events: reading.hasEvents, reminders: reading.hasReminders,
              total: reading.itemCount, rows: &rows)
            // Events no other component names are written as their chunk comes; the rest
            // once the whole file is read.
            var events: [ImportedItem] = []
            var reminders: [ImportedItem] = []
            for index in 0..<reading.chunkCount {
              let chunk = try reading.chunk(index)
              for event in chunk.events {
                if ImportWriter.standsAlone(event, sharedUIDs: sharedUIDs) {
                  try writer.writeAlone(event, rows: &rows)
                } else {
                  events.append(event)
                }
              }
              reminders += chunk.reminders
            }
            return try writer.finish(
              events: ImportWriter.latestVersions(events),
              reminders: ImportWriter.latestVersions(reminders), rows: &rows)
          }
        }
      }
    } catch {
      // A file that does not read is reported as such, whatever else failed: reading came
      // first when the two halves took turns.
      if let readError = reading.firstError() { throw readError }
      if let error = error as? EKError { throw error }
      throw StagedWriter.translate(error)
    }
    state.withLock { $0.catalog = nil }
    return summary
  }

  /// The calendars as one iCalendar file (VERSION 2.0, CRLF, folded lines), with a
  /// VTIMEZONE for every zone an item uses. Without calendars: every event calendar and
  /// reminder list the app may read.
  ///
  /// Needs full access to what it exports. An OpenEventKit addition, like
  /// ``importICalendar(_:calendarTitle:fallbackTitle:progress:)``.
  ///
  /// Every item of the calendars is written, with its series and detached occurrences, and
  /// with what the store kept of a file it imported (<doc:ICalendarFiles#Export>). With one
  /// calendar, or several of one title, the file's `X-WR-CALNAME` is its title.
  ///
  /// ```swift
  /// let work = store.calendars(for: .event).filter { $0.title == "Work" }
  /// let data = try store.exportICalendar(calendars: work)
  /// // A calendar is a person's data: readable by them alone.
  /// FileManager.default.createFile(
  ///   atPath: "work.ics", contents: data, attributes: [.posixPermissions: 0o600])
  /// ```
  ///
  /// - Parameters:
  ///   - calendars: The calendars to export, of this store; nil for every event calendar and
  ///     reminder list that `calendars(for:)` gives.
  ///   - progress: Told how far the writing has gone, synchronously during the call; nil to
  ///     be told nothing.
  /// - Returns: The file's bytes, UTF-8.
  /// - Throws: ``EKError``:
  ///   - ``EKError/Code/objectBelongsToDifferentStore`` when a calendar is another store's;
  ///   - ``EKError/Code/eventStoreNotAuthorized`` when the app lacks full access to a
  ///     calendar's entity type (write-only access to events is not enough);
  ///   - ``EKError/Code/internalFailure`` when the store's database could not be opened or
  ///     read.
  public func exportICalendar(
    calendars: [EKCalendar]? = nil, progress: ((ICalendarTransferProgress) -> Void)? = nil
  ) throws -> Data {
    if let openError { throw openError }
    guard let database else { throw EKError(.internalFailure, "The store has no database.") }
    let chosen = calendars ?? (self.calendars(for: .event) + self.calendars(for: .reminder))
    for calendar in chosen {
      guard calendar.eventStore === self else {
        throw EKError(.objectBelongsToDifferentStore, "The calendar belongs to another store.")
      }
      let entity: EKEntityType = calendar.allowedEntityTypes.contains(.event) ? .event : .reminder
      guard access(to: entity) == .fullAccess else {
        throw EKError(
          .eventStoreNotAuthorized,
          "The app has no full access to \(entity == .event ? "events" : "reminders") to export.")
      }
    }
    let ids = chosen.map(\.calendarIdentifier)
    let records: [ItemRecord]
    do {
      records = try database.pool.read { db in try ItemRows.exported(db, calendarIds: ids) }
    } catch {
      throw EKError(
        .internalFailure, "Cannot read the calendar database: \(DatabaseFailure.reason(error)).")
    }
    let name = chosen.count == 1 || Set(chosen.map(\.title)).count == 1 ? chosen.first?.title : nil
    let calendar = ICalendarExport.calendar(records, name: name, progress: progress)
    let bytes = ICalendarDocument(calendars: [calendar]).serialized()
    progress?(ICalendarTransferProgress(phase: .writing, done: records.count, total: records.count))
    return Data(bytes)
  }
}
