// OpenEventKit: Apple's EventKit API (EKEventStore, EKEvent, EKReminder, EKCalendar, EKSpan…)
// over a SQLite calendar database shared by every app of the user.
//
// Being built under issue #4. What exists so far: EventKit's enumerations and option sets
// with Apple's raw values (API/EKTypes.swift), EKError with Apple's codes (API/EKError.swift),
// EKRecurrenceEnd and EKRecurrenceDayOfWeek, and the database underneath: its location,
// schema, migrations, default content and change watcher (Store/). EKEventStore, the other
// EK* objects and their queries are not built yet; docs/EventKitCompatibility.md tracks
// every declaration.
