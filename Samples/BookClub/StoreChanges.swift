import OpenEventKit

extension ClubCommands {
  // MARK: pattern observe-changes
  // EKEventStoreChanged says that the store changed, not what, comes for this app's own saves
  // too, and once for several commits: refetch what the app shows and compare. `queue: .main`
  // runs the block on the main queue, as the commands (the REPL runs it between them).
  func startWatching() {
    guard observer == nil else { return }  // removed in ClubCommands' deinit
    shown = meetingDates  // what the person sees from now on
    observer = NotificationCenter.default.addObserver(
      forName: .EKEventStoreChanged, object: eventStore, queue: .main
    ) { [weak self] _ in self?.refetchAndCompare() }
  }
  func refetchAndCompare() {  // without access no meeting is seen, which is not their removal:
    let mayRead = { EKEventStore.authorizationStatus(for: .event) == .fullAccess }
    guard mayRead() else { return }  // checked before and after, as access may go meanwhile
    let now = meetingDates
    guard mayRead() else { return }
    let keys = Set(shown.keys).union(now.keys).sorted { now[$0] == nil && now[$1] != nil }
    for key in keys where shown[key] != now[key] {  // a series gone told before one new
      let news = now[key]?.first.map { "are \(now[key]!.count), from \(dates.dayAndTime($0))" }
      session.console.print(
        "Calendar: the meetings \(news ?? "left the calendar (removed or moved)").")
    }
    shown = now
  }
  var meetingDates: [String: [Date]] {  // the starts, by the series' UID; no key for none
    recorded.map { [$0: meetings().map(\.startDate)] }?.filter { !$0.value.isEmpty } ?? [:]
  }
  // MARK: pattern own-changes
  // The notice comes for the app's own saves too, run after the command: so a command, once it
  // wrote, takes what is there now as shown for the series it wrote. Others' changes are told.
  func noteOwnChange(_ keys: String?...) {
    guard EKEventStore.authorizationStatus(for: .event) == .fullAccess else { return }  // none seen
    for case let key? in keys { shown[key] = meetingDates[key] }
  }
}
