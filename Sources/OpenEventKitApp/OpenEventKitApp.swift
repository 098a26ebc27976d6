// OpenEventKitApp: what every sample app needs, written once, with OpenEventKit's public API
// only, so that a person can copy it into an app of their own (<doc:WritingASample>).
//
// - AppInfo: the app's identity (name, prompt, data folder, help) and `run`, the whole of a
//   sample's main.swift: options, console, session, REPL and its hooks.
// - AppSession: the calendar store, made at the first command that needs it, with access
//   asked then, per entity type, and checked again on every command and every change.
// - AppDatabase: the app's own GRDB database, private to the person (0600 in a 0700 folder),
//   with a table of settings.
// - CalendarChoice: the calendar new items go in, remembered by identifier, falling back to
//   the default calendar with a sentence; the shared `calendar` command.
// - Change tracking: AppSession.track over OpenEventKit's ChangeTracker (which `ekctl watch`
//   uses too), told at the next prompt, quiet about the app's own commands.
// - CalendarViews: the `agenda` and `month` commands over OpenEventKitUI's views.
