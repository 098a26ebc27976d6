// OpenEventKitUI: the terminal counterparts of EventKitUI, rendering text on a REPLKit Console.
//
// - EKEventViewController: an event's details (EventTimeWords, ParticipantWords; recurrence and
//   alarms in words come from OpenEventKit's Formatting, which ekctl shares).
// - EKEventEditViewController: create or edit an event field by field (EventFields,
//   EditorInput), asking the span of a change to a repeating event (SpanChoice).
// - EKCalendarChooser: one or several calendars, grouped by source.
// - PrivacyAlert and CalendarAccess: the store's access prompt through the console, asked at
//   the first command that needs it.
// - AgendaView and MonthGrid: a day or week of occurrences, and a month like `cal`.
