import Foundation

// OpenEventKit's additions to EventKit for moving calendars in and out as iCalendar files
// (RFC 5545). Apple's EventKit has no such API (its apps import through Calendar.app); these
// are what `ekctl import` and `ekctl export` are built on.

/// How far an import or export has gone, for a progress bar.
public struct ICalendarTransferProgress: Sendable {
  public enum Phase: Sendable {
    /// Reading the file: `done` and `total` count bytes.
    case reading
    /// Writing rows (import) or components (export): `done` and `total` count items.
    case writing
  }

  public var phase: Phase
  public var done: Int
  public var total: Int

  public init(phase: Phase, done: Int, total: Int) {
    self.phase = phase
    self.done = done
    self.total = total
  }

  /// The fraction done, 0…1.
  public var fraction: Double { total > 0 ? min(1, Double(done) / Double(total)) : 1 }
}

/// What an import changed.
public struct ICalendarImportSummary: Hashable, Sendable {
  /// The calendar the events went into, nil when the file had none.
  public var eventCalendarIdentifier: String?
  /// The reminder list the to-dos went into, nil when the file had none.
  public var reminderCalendarIdentifier: String?
  public var eventsAdded = 0
  public var eventsUpdated = 0
  public var remindersAdded = 0
  public var remindersUpdated = 0
  /// Calendars the import made (0, 1 or 2).
  public var calendarsCreated = 0

  public init() {}
}
