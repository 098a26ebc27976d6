import OpenEventKit

extension ClubCommands {
  // MARK: pattern observe-changes
  // EKEventStoreChanged says that the store changed, not what, comes for this app's own saves
  // too, and once for several commits: refetch what the app shows and compare. `queue: .main`
  // runs the block on the main thread, where the commands run.
  func startWatching() {
    guard observer == nil else { return }  // removed in ClubCommands' deinit
    shown = meetingDates  // what the person sees from now on
    observer = NotificationCenter.default.addObserver(
      forName: .EKEventStoreChanged, object: eventStore, queue: .main
    ) { [weak self] _ in self?.refetchAndCompare() }
  }
  func refetchAndCompare() {  // without access no meeting is seen, which is not their removal
    guard EKEventStore.authorizationStatus(for: .event) == .fullAccess else { return }
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
  // Marked by a command before it writes; the notice its save posts is run after the command,
  // and that refetch takes the marked meetings as they are, silently. Others' changes are told.
  func markOwn(_ key: String?) { if let key { own.insert(key) } }
}
