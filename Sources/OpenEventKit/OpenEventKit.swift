// OpenEventKit: Apple's EventKit API (EKEventStore, EKEvent, EKReminder, EKCalendar, EKSpan…)
// over a SQLite calendar database shared by every app of the user.
//
// API/          the public surface only: the EK* classes, EKError, the enumerations, the
//               stand-ins for CGColor and CLLocation, and the additions an app calls
//               (saveIfUnchanged, SaveConflictError, SeriesOutline, calendar item stamps)
// Model/        the plain values the objects edit (ItemValues), wall-clock conversion,
//               identifiers
// Store/        the database and every SQL statement: location (StoreLocation, over
//               OpenEventKitPaths' DataLocation), schema and migrations, rows, the privacy
//               and alarm ledger databases, change watching
//   Queries/    fetching: window queries over events (EventQuery), predicates, by identifier
//   Staging/    saves and removals with `commit: false`, span edits of repeating events
//               (SpanEdit, SeriesEdits), and how `commit()` writes them
//   Sync/       the CalDAV accounts', collections', resources' and outbox tables, the
//               copies a conflict keeps (ConflictCopies), and SyncStore: the sync engine's
//               one door into the store, a method for each of its transactions
// Validation/   the checks a save makes, with Apple's error codes
// Privacy/      the app's identity, the person's decisions, the prompt, and the access check
//               every store entry point makes
// Changes/      EKEventStoreChanged's `changes` streams, and ChangeTracker (an OpenEventKit
//               addition: what other apps changed since; ekctl watch)
// Interchange/  iCalendar (.ics) files to and from store rows: importICalendar and
//               exportICalendar, OpenEventKit additions that ekctl import and export use
// Formatting/   dates, recurrence rules and alarms in fixed English words (DateText,
//               RecurrenceWords, AlarmWords), shared by OpenEventKitUI and ekctl
// Alarms/       the alarms due in a window, the agent's ledger of firings
// Sync/         how refreshSourcesIfNecessary() asks the sync agent (SyncAgent: the
//               agent's lock, finding and starting ekctl-sync), with no network: the CalDAV
//               engine is the library OpenEventKitSync, over Store/Sync's SyncStore
// Diagnostics/  the loggers (swift-log labels org.openeventkit.*)
//
// <doc:EventKitCompatibility> tracks every declaration.

// `import EventKit` brings Foundation (Date, URL, NSPredicate, NotificationCenter…) with it,
// since EventKit's headers import it; so does `import OpenEventKit`, so that a file written
// for EventKit compiles by changing its import alone (Tests/EventKitImportTests).
@_exported import Foundation
