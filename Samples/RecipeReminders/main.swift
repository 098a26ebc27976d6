// recipe-reminders: a recipe book that turns a recipe's ingredients into a shopping list.
//
// A sample of OpenEventKit (OpenEventKitApp.docc/RecipeReminders.md). The recipes are the app's own,
// in its database; browsing them never opens the calendar store. Only `shop` (and the
// commands over the lists it made) needs the person's reminders, so access is asked then,
// with the reason in the app's Info.plist. A shopping list is a reminders list titled with the
// recipe's name, and its items are saved with `commit: false` and written by one `commit()`,
// so another app sees none of them or all. The app makes its own `EKEventStore`, checks access
// itself (ReminderAccess.swift) and observes the store itself (StoreChanges.swift); what every
// sample shares beyond EventKit (the REPL, the app's database) is OpenEventKitApp.
//
//   recipe-reminders [--now ISO-DATE-TIME]
import OpenEventKitApp

let app = AppInfo(
  name: "recipe-reminders", prompt: "recipes> ", database: "recipes.sqlite",
  about: "A recipe book that turns a recipe's ingredients into a shopping list in your reminders.")

app.run(diagnostics: .standardError, migrations: RecipeBook.registerMigrations) { session in
  RecipeCommands(session: session).all
}
