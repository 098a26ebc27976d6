// wedding-planner: a couple plans their wedding, and every appointment lands on their calendar.
//
// A sample of OpenEventKit (OpenEventKitApp.docc/WeddingPlanner.md). The plan (the day, the venue and
// its time zone, and each appointment with the identifier of its event) is the app's own, in
// its database; the appointments are events in a "Wedding" calendar of the couple's, with
// alarms and a URL back to the plan item. It shows a calendar of the app's own (made, watched,
// restored), all-day and time-zoned events, a partly built event handed to the editor,
// conflicts found across calendars, and span-correct edits of a repeating event (the dress
// fittings). The EventKit patterns are the app's own, each in a file named for it
// (CalendarAccess.swift, StoreChanges.swift, PlanEvents.swift, FittingCommands.swift, …); what
// every sample shares (the REPL, the app's database, calendar choice, views) is
// OpenEventKitApp.
//
//   wedding-planner [--now ISO-DATE-TIME]
import OpenEventKitApp

let app = AppInfo(
  name: "wedding-planner", prompt: "wedding> ", database: "wedding.sqlite",
  about: "Plans a wedding and puts every appointment on your calendar.")

app.run(diagnostics: .standardError, migrations: WeddingDatabase.registerMigrations) {
  session in
  WeddingCommands(session: session).all
}
