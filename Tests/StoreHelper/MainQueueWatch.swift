import Foundation
import OpenEventKit

/// `watch-main FOLDER SECONDS`: an app written as Apple's sample code writes one. It observes
/// `EKEventStoreChanged` with `queue: .main`, and the typed message too, and runs the main run
/// loop; each block fetches the events again. Prints "watching", then "changed N events=M" for
/// each notice (N counts them; M is what the fetch found in the default calendar), "message N" for each typed message,
/// and "done" when SECONDS have passed or a file "stop-watching" is in FOLDER.
func runMainQueueWatch(_ store: EKEventStore, _ values: [String]) {
  guard values.count == 3, let seconds = Double(values[2]) else {
    fail("watch-main FOLDER SECONDS")
  }
  nonisolated(unsafe) var notices = 0
  nonisolated(unsafe) var messages = 0
  let observer = NotificationCenter.default.addObserver(
    forName: .EKEventStoreChanged, object: store, queue: .main
  ) { _ in
    notices += 1
    let window = store.predicateForEvents(
      withStart: Date(timeIntervalSince1970: 0), end: Date(timeIntervalSince1970: 4_000_000_000),
      calendars: store.defaultCalendarForNewEvents.map { [$0] })
    let count = store.events(matching: window).count
    say("changed \(notices) events=\(count) main=\(Thread.isMainThread)")
  }
  #if compiler(>=6.2)
    let messageObserver = NotificationCenter.default.addObserver(of: store, for: .changed) { _ in
      messages += 1
      say("message \(messages)")
    }
  #endif
  say("watching")
  // In slices, to see the stop file; a slice runs the main queue's blocks as they come.
  let end = Date(timeIntervalSinceNow: seconds)
  let stop = URL(fileURLWithPath: values[1]).appendingPathComponent("stop-watching").path
  while Date() < end, !FileManager.default.fileExists(atPath: stop) {
    RunLoop.main.run(until: Date(timeIntervalSinceNow: 0.1))
  }
  NotificationCenter.default.removeObserver(observer)
  #if compiler(>=6.2)
    NotificationCenter.default.removeObserver(messageObserver)
  #endif
  say("done")
}
