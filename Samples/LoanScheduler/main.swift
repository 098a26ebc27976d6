// loan-scheduler: lend money, and keep every payment on the calendar.
//
// A sample of OpenEventKit (docs/samples/LoanScheduler.md): the loans live in the app's own
// database; their payments are events in the user's calendar, scheduled with a recurrence
// rule, found again by the identifiers the app records, and removed span-correctly.
//
//   loan-scheduler [--now ISO-DATE-TIME]
import Foundation
import REPLKit

let options = SessionOptions.forThisProcess(app: "loan-scheduler")
if options.wantsHelp || !options.arguments.isEmpty {
  print(
    """
    usage: loan-scheduler [--now ISO-DATE-TIME]

    Lends money and puts every payment on your calendar. Type 'help' at its prompt for the
    commands. Loans are kept in $OPENEVENTKIT_HOME/loan-scheduler (or the XDG data folder),
    the calendar in the store every OpenEventKit app shares.
    """)
  exit(options.wantsHelp ? 0 : 2)
}

let console = Console.standard(app: "loan-scheduler", options: options)
let database: LoanDatabase
do {
  database = try LoanDatabase(folder: options.dataFolder(app: "loan-scheduler"))
} catch {
  FileHandle.standardError.write(Data("loan-scheduler: cannot open the loans: \(error)\n".utf8))
  exit(1)
}
let session = LoanSession(console: console, database: database)
let repl = REPL(prompt: "loans> ", commands: LoanCommands(session: session).all, console: console)
repl.beforePrompt = { session.tellOfCalendarChanges() }
exit(repl.run())
