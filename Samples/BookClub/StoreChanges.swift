import OpenEventKit

extension ClubCommands {
  // MARK: pattern observe-changes
  // EKEventStoreChanged says that the store changed, not what: refetch what the app shows and
  // compare. An app refetches in the block, with `queue: .main`. Here the main thread waits
  // for the REPL's next line, and a REPL prints between prompts only: the block wakes a
  // waiting prompt, and the REPL's thread refetches before each prompt and after each command.
  func startWatching() {
    guard observer == nil else { return }  // removed in ClubCommands' deinit
    shown = meetingDates  // what the person sees from now on
    observer = NotificationCenter.default.addObserver(
      forName: .EKEventStoreChanged, object: eventStore, queue: nil
    ) { [session] _ in session.wakePrompt() }
    session.beforeEachTurn { [self] in refetchAndCompare() }  // OpenEventKitApp's hooks
    session.afterEachCommand { [self] in refetchAndCompare() }
  }
  func refetchAndCompare() {  // without access no meeting is seen, which is not their removal
    guard observer != nil, EKEventStore.authorizationStatus(for: .event) == .fullAccess
    else { return }
    let now = meetingDates
    for key in Set(shown.keys).union(now.keys) where shown[key] != now[key] && !own.contains(key) {
      let news = now[key]?.first.map { "are \(now[key]!.count), from \(dates.dayAndTime($0))" }
      session.console.print("Calendar: the meetings \(news ?? "were taken off the calendar").")
    }
    (shown, own) = (now, [])
  }
  // The meetings' starts, keyed by the series' UID: the key a command marks as its own.
  var meetingDates: [String: [Date]] { recorded.map { [$0: meetings().map(\.startDate)] } ?? [:] }
  // MARK: pattern own-changes
  // Marked by a command that writes (its save posts the notice too); others' changes are told.
  func markOwn(_ key: String?) { if let key { own.insert(key) } }
}
