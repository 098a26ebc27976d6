// `oek-store-helper probe-loop FOLDER EVENT_ID`: an app that keeps running while the person
// changes its access from outside (ekctl privacy). It fetches the event EVENT_ID once at the
// start (it should have full access then), then every 50 ms prints one line:
//
//   tick N status S events E reminders R lookup found|nil save RESULT change RESULT
//
// S is `EKEventStore.authorizationStatus(for: .event)`, E the events of 2026 it finds, R the
// reminders, `lookup` whether EVENT_ID is found, `save` the outcome of saving a new event
// ("ok" or "error CODE"), `change` that of changing the event it fetched at the start (an
// object an app holds from before a revocation). It ends when its standard input does (the
// test closes it, or ends): a SIGTERM may find it blocked, inherited from the test runner.
import Foundation
import OpenEventKit

func runProbeLoop(_ store: EKEventStore, _ arguments: [String]) {
  guard arguments.count == 3 else { fail("probe-loop FOLDER EVENT_ID") }
  Thread.detachNewThread {
    _ = FileHandle.standardInput.readDataToEndOfFile()
    exit(0)
  }
  let formatter = ISO8601DateFormatter()
  let start = formatter.date(from: "2026-01-01T00:00:00Z")!
  let window = store.predicateForEvents(
    withStart: start, end: formatter.date(from: "2027-01-01T00:00:00Z")!, calendars: nil)
  guard let held = store.event(withIdentifier: arguments[2]) else {
    fail("probe-loop: event \(arguments[2]) not found; start with full access")
  }
  func reminders() -> Int { reminderCount(store, store.predicateForReminders(in: nil)) }
  let names: [EKAuthorizationStatus: String] = [
    .notDetermined: "notDetermined", .restricted: "restricted", .denied: "denied",
    .fullAccess: "fullAccess", .writeOnly: "writeOnly",
  ]
  var tick = 0
  while true {
    tick += 1
    let status = names[EKEventStore.authorizationStatus(for: .event)] ?? "unknown"
    let events = store.events(matching: window).count
    let lookup = store.event(withIdentifier: arguments[2]) == nil ? "nil" : "found"
    let save = outcome {
      let event = EKEvent(eventStore: store)
      event.calendar = store.defaultCalendarForNewEvents
      event.title = "Tick \(tick)"
      event.startDate = start.addingTimeInterval(TimeInterval(tick * 3600))
      event.endDate = event.startDate.addingTimeInterval(600)
      try store.save(event, span: .thisEvent)
    }
    let change = outcome {
      held.title = "Changed at tick \(tick)"
      try store.save(held, span: .thisEvent)
    }
    say(
      "tick \(tick) status \(status) events \(events) reminders \(reminders()) lookup \(lookup) "
        + "save \(save) change \(change)")
    Thread.sleep(forTimeInterval: 0.05)
  }
}
