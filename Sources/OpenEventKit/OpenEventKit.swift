// OpenEventKit: Apple's EventKit API (EKEventStore, EKEvent, EKReminder, EKCalendar, EKSpan…)
// over a SQLite calendar database shared by every app of the user.
//
// API/         the EK* classes, EKError, the enumerations, and stand-ins for CGColor and
//              CLLocation, with Apple's names, labels and optionality
// Model/       the plain values the objects edit (ItemValues), wall-clock conversion,
//              identifiers
// Store/       the database: its location (StoreLocation, over OpenEventKitPaths'
//              DataLocation), schema and migrations, rows, change watching
// Queries/     window queries over events (EventQuery) and the predicates
// Staging/     changes saved with `commit: false`, and how `commit()` writes them
// Validation/  the checks a save makes, with Apple's error codes
// Privacy/     the app's identity, the person's decisions, the prompt, and the access check
//              every store entry point makes
// Interchange/ iCalendar (.ics) files to and from store rows: importICalendar and
//              exportICalendar, OpenEventKit additions that ekctl import and export use
// Formatting/  dates, recurrence rules and alarms in fixed English words (DateText,
//              RecurrenceWords, AlarmWords), shared by OpenEventKitUI and ekctl
// Changes/     ChangeTracker: the items an app cares about as they were, and what other
//              apps changed since (an OpenEventKit addition; ekctl watch, the samples)
//
// Span edits of repeating events live in API/EKEventStore+Spans.swift and
// Staging/SeriesEdits.swift. <doc:EventKitCompatibility> tracks every declaration.

// `import EventKit` brings Foundation (Date, URL, NSPredicate, NotificationCenter…) with it,
// since EventKit's headers import it; so does `import OpenEventKit`, so that a file written
// for EventKit compiles by changing its import alone (Tests/EventKitImportTests).
@_exported import Foundation
