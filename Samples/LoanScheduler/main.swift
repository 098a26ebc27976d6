// loan-scheduler: lend money, and keep every payment on the calendar.
//
// A sample of OpenEventKit (OpenEventKitApp.docc/LoanScheduler.md): the loans live in the app's own
// database; their payments are events in the user's calendar, scheduled with a recurrence
// rule, found again by the identifiers the app records, and removed span-correctly. Access
// and other apps' changes are the app's own (CalendarAccess.swift, StoreChanges.swift); the
// session, the calendar choice and the views are OpenEventKitApp's.
//
//   loan-scheduler [--now ISO-DATE-TIME]
import OpenEventKitApp

let app = AppInfo(
  name: "loan-scheduler", prompt: "loans> ", database: "loans.sqlite",
  about: "Lends money and puts every payment on your calendar.")

app.run(diagnostics: .standardError, migrations: LoanDatabase.registerMigrations) { session in
  LoanCommands(session: session).all
}
