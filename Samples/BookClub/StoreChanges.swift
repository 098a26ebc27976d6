import OpenEventKit

extension ClubCommands {
  // MARK: pattern observe-changes
  // EKEventStoreChanged says that the store changed, not what: refetch what the app shows and
  // compare. The notice comes on any queue: it only wakes a prompt waiting on the terminal
  // (OpenEventKitApp's REPL), whose thread refetches before each prompt and after each command.
  func startWatching() {
    guard observer == nil else { return }  // removed in ClubCommands' deinit
    shown = meetingDates  // what the person sees from now on
    observer = NotificationCenter.default.addObserver(
      forName: .EKEventStoreChanged, object: eventStore, queue: nil
    ) { [session] _ in session.wakePrompt() }
  }
  func refetchAndCompare() {  // without access no meeting is seen, which is not their removal
    guard observer != nil, EKEventStore.authorizationStatus(for: .event) == .fullAccess
    else { return }
    let now = meetingDates
    if now != shown, !isOwn {
      let news = now.first.map { "are \(now.count), from \(dates.dayAndTime($0))" }
      session.console.print("Calendar: the meetings \(news ?? "were taken off the calendar").")
    }
    (shown, isOwn) = (now, false)
  }
  var meetingDates: [Date] { meetings().map(\.startDate) }
  // MARK: pattern own-changes
  // A command marks its change as its own before it writes: its save posts the notice too.
  func markOwn() { isOwn = true }
}
