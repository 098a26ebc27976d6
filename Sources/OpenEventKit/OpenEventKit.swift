// OpenEventKit: Apple's EventKit API (EKEventStore, EKEvent, EKReminder, EKCalendar, EKSpan…)
// over a SQLite calendar database shared by every app of the user.
//
// Not built yet: this module is empty until the calendar store lands (issue #4); span edits of
// repeating events (#5) and privacy decisions (#6) follow it. What works today is the
// recurrence engine in the ICalendar module, which this module will expand series with.
