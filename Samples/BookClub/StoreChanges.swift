import OpenEventKit

extension ClubCommands {
  // MARK: pattern observe-changes
  // EKEventStoreChanged says that the store changed, not what, comes for this app's own saves
  // too, and once for several commits: refetch what the app shows and compare. `queue: .main`
  // runs the block on the main queue, as the commands (the REPL runs it between them); in an
  // async main or after dispatchMain(), that queue is not on the main thread.
  func startWatching() {
    guard observer == nil else { return }  // removed in ClubCommands' deinit
    shown = meetings().compactMap(\.startDate)  // what the person sees from now on
    observer = NotificationCenter.default.addObserver(
      forName: .EKEventStoreChanged, object: eventStore, queue: .main
    ) { [weak self] _ in self?.refetchAndCompare() }
  }
  func refetchAndCompare() {  // without access no meeting is seen, which is not their removal:
    let mayRead = { EKEventStore.authorizationStatus(for: .event) == .fullAccess }
    let now = mayRead() ? meetings().compactMap(\.startDate) : nil
    guard let now, mayRead(), now != shown else { return }  // access may go meanwhile
    let gone = shown.filter { !now.contains($0) }.map { "no longer on \(dates.dayAndTime($0))" }
    let new = now.filter { !shown.contains($0) }.map { "now on \(dates.dayAndTime($0))" }
    let news =  // none left of those shown: other meetings (a new book), or none at all (nil)
      gone.count < shown.count
      ? (gone + new).joined(separator: ", ") : now.first.map { "from \(dates.dayAndTime($0))" }
    let told = news.map { "are \(now.count), \($0)" } ?? "left the calendar (removed or moved)"
    session.console.print("Calendar: the meetings \(told).")
    shown = now
  }
  // MARK: pattern own-changes
  // The notice comes for the app's own saves too, run after the command: so a command, once it
  // wrote, takes what is there now as shown. It rewrites all the meetings, so all are its own.
  func noteOwnChange() {
    guard EKEventStore.authorizationStatus(for: .event) == .fullAccess else { return }  // none seen
    shown = meetings().compactMap(\.startDate)
  }
}
