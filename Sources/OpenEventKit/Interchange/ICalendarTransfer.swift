import Foundation

// OpenEventKit's additions to EventKit for moving calendars in and out as iCalendar files
// (RFC 5545). Apple's EventKit has no such API (its apps import through Calendar.app); these
// are what `ekctl import` and `ekctl export` are built on.

/// How far an import or export has gone, for a progress bar.
///
/// An OpenEventKit addition:
/// ``EKEventStore/importICalendar(_:calendarTitle:fallbackTitle:progress:)`` and
/// ``EKEventStore/exportICalendar(calendars:progress:)`` report it to their `progress`
/// closure, synchronously, as they go (<doc:ICalendarFiles>).
///
/// ```swift
/// let summary = try store.importICalendar(data) { progress in
///   let what = progress.phase == .reading ? "reading" : "writing"
///   print("\(what): \(Int(progress.fraction * 100)) %")
/// }
/// ```
public struct ICalendarTransferProgress: Sendable {
  /// What the transfer is doing.
  ///
  /// ```swift
  /// let data = try Data(contentsOf: URL(fileURLWithPath: "holidays.ics"))
  /// _ = try store.importICalendar(data) { progress in
  ///   switch progress.phase {
  ///   case .reading: print("read \(progress.done) of \(progress.total) bytes")
  ///   case .writing: print("wrote \(progress.done) of \(progress.total) items")
  ///   }
  /// }
  /// ```
  public enum Phase: Sendable {
    /// Reading the file: `done` and `total` count bytes.
    case reading
    /// Writing rows (import) or components (export): `done` and `total` count items.
    case writing
  }

  /// What the transfer is doing now.
  public var phase: Phase
  /// How much of the phase is done: bytes read or items written.
  public var done: Int
  /// How much the phase has to do in all, in the same unit as ``done``.
  public var total: Int

  /// A report of `done` out of `total` in `phase`.
  ///
  /// For code that reports its own transfers the same way (a test, a wrapper); the store
  /// makes its own.
  ///
  /// ```swift
  /// let report = ICalendarTransferProgress(phase: .writing, done: 250, total: 1000)
  /// print(report.fraction)  // 0.25
  /// print(ICalendarTransferProgress(phase: .reading, done: 0, total: 0).fraction)  // 1.0
  /// ```
  ///
  /// - Parameters:
  ///   - phase: What the transfer is doing.
  ///   - done: How much of the phase is done.
  ///   - total: How much the phase has to do in all.
  public init(phase: Phase, done: Int, total: Int) {
    self.phase = phase
    self.done = done
    self.total = total
  }

  /// The fraction done, 0…1: 1 when ``total`` is 0, and never more than 1.
  public var fraction: Double { total > 0 ? min(1, Double(done) / Double(total)) : 1 }
}

/// What an import changed.
///
/// An OpenEventKit addition, returned by
/// ``EKEventStore/importICalendar(_:calendarTitle:fallbackTitle:progress:)``
/// (<doc:ICalendarFiles#Import-into-the-store>).
///
/// ```swift
/// let summary = try store.importICalendar(data, calendarTitle: "Holidays")
/// print("\(summary.eventsAdded) added, \(summary.eventsUpdated) updated")
/// if let id = summary.eventCalendarIdentifier, let calendar = store.calendar(withIdentifier: id) {
///   print("in", calendar.title)
/// }
/// ```
public struct ICalendarImportSummary: Hashable, Sendable {
  /// The calendar the events went into, nil when the file had none.
  public var eventCalendarIdentifier: String?
  /// The reminder list the to-dos went into, nil when the file had none.
  public var reminderCalendarIdentifier: String?
  /// Events the import added: their UID was not in the calendar.
  public var eventsAdded = 0
  /// Events the import replaced: their UID was in the calendar already, and they keep their
  /// identifiers.
  public var eventsUpdated = 0
  /// Reminders the import added.
  public var remindersAdded = 0
  /// Reminders the import replaced, keeping their identifiers.
  public var remindersUpdated = 0
  /// Calendars the import made (0, 1 or 2).
  public var calendarsCreated = 0

  /// An empty summary: nothing imported.
  ///
  /// ```swift
  /// var total = ICalendarImportSummary()
  /// for file in ["work.ics", "home.ics"] {
  ///   let data = try Data(contentsOf: URL(fileURLWithPath: file))
  ///   let summary = try store.importICalendar(data)
  ///   total.eventsAdded += summary.eventsAdded
  ///   total.eventsUpdated += summary.eventsUpdated
  /// }
  /// print(total.eventsAdded, "added,", total.eventsUpdated, "updated")
  /// ```
  public init() {}
}
