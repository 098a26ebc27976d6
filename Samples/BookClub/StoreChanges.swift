import Foundation
import OpenEventKit

extension ClubCommands {
  // MARK: pattern observe-changes
  // EKEventStoreChanged says that the store changed, not what: refetch what the app shows and
  // compare. The refetch (one lookup) runs before each prompt and after each command anyway;
  // the notice, on any queue, makes a prompt waiting on a terminal run it at once.
  func startWatching() {
    guard observer == nil else { return }
    shown = series?.startDate  // what the person sees from now on
    observer = NotificationCenter.default.addObserver(
      forName: .EKEventStoreChanged, object: eventStore, queue: nil
    ) { [session] _ in session.wakePrompt() }  // OpenEventKitApp's REPL
  }
  // MARK: pattern own-changes
  // A command marks its change as its own before it writes: its save posts EKEventStoreChanged
  // too, no news to the person. Without access no meeting is seen, which is not their removal.
  func markOwn() { isOwn = true }
  func settle() {
    guard observer != nil, EKEventStore.authorizationStatus(for: .event) == .fullAccess
    else { return }
    let now = series?.startDate
    if now != shown, !isOwn {
      let news = now.map { "now start \(dates.dayAndTime($0))" } ?? "were taken off the calendar"
      session.console.print("Calendar: the meetings \(news).")
    }
    (shown, isOwn) = (now, false)
  }
}
