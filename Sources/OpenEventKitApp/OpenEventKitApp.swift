// OpenEventKitApp: what every sample app needs that is not EventKit, written once, with
// OpenEventKit's public API only (<doc:WritingASample>). The EventKit calls themselves
// (access, fetches, saves, removals, the EKEventStoreChanged observer) are each sample's own.
//
// - AppInfo: the app's identity (name, prompt, data folder, help) and `run`, the whole of a
//   sample's main.swift: options, console, session, REPL and its hooks.
// - AppSession: the session's console and database, and the hooks an app sets
//   (beforeEachTurn, afterEachCommand, wakePrompt, storeForRepair); its store(for:) and track
//   are conveniences for apps that would rather not write the access check and the observer.
// - AppDatabase: the app's own GRDB database, private to the person (0600 in a 0700 folder),
//   with a table of settings.
// - CalendarChoice: the calendar new items go in, remembered by identifier, falling back to
//   the default calendar with a sentence; the shared `calendar` command.
// - CalendarViews: the `agenda` and `month` commands over OpenEventKitUI's views.
// - CalendarWork: the optional crash-safe bookkeeping between the app's database and the store.
// - waitForAnswer: a completion handler's answer awaited on the REPL's thread.
